import { call } from '../../api';
import type { Action } from '../admin-kit';

/** Enable or disable, and delete, a subscription (a webhook or a purge target) at `path`; `refresh` reads the list again. */
export function SwitchAndDelete({ path, enabled, action, refresh }: { path: string; enabled: boolean; action: Action; refresh: () => Promise<void> }) {
  return (
    <>
      <button
        type="button"
        disabled={action.busy}
        onClick={() =>
          void action.run(async () => {
            await call('PATCH', path, { enabled: !enabled });
            await refresh();
            return enabled ? 'Disabled.' : 'Enabled.';
          })
        }
      >
        {enabled ? 'Disable' : 'Enable'}
      </button>
      <button
        type="button"
        className="danger-button"
        disabled={action.busy}
        onClick={() =>
          void action.run(async () => {
            await call('DELETE', path);
            await refresh();
          })
        }
      >
        Delete
      </button>
    </>
  );
}
