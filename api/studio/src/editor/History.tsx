import { useQuery } from '@tanstack/react-query';
import { useState } from 'react';
import { ApiError, call, get, m } from '../api';
import type { Entry, EntryVersion } from '../types';

/** The entry's kept versions, newest first, each restorable as the new draft. */
export function History({ entry, canRestore, onRestored }: { entry: Entry; canRestore: boolean; onRestored: (e: Entry) => void }) {
  const versions = useQuery({ queryKey: ['versions', entry.id], queryFn: () => get<EntryVersion[]>(m(`/entries/${encodeURIComponent(entry.id)}/versions`)) });
  const [error, setError] = useState<string | null>(null);
  const restore = async (v: EntryVersion) => {
    try {
      const res = await call<Entry>('POST', m(`/entries/${encodeURIComponent(entry.id)}/versions/${encodeURIComponent(v.versionId)}/restore`));
      setError(null);
      onRestored(res.result);
    } catch (err) {
      setError(err instanceof ApiError ? err.errors.join(' ') : String(err));
    }
  };
  return (
    <section className="history" aria-labelledby="history-title">
      <h2 id="history-title">Versions</h2>
      {versions.isError && <p role="alert">{versions.error.message}</p>}
      {error && <p role="alert">{error}</p>}
      <ol reversed>
        {(versions.data ?? []).map((v, i, all) => (
          <li key={v.versionId}>
            <span>
              <strong>Version {all.length - i}</strong> ·{' '}
              <time dateTime={v.savedAt}>{new Date(v.savedAt).toLocaleString()}</time> · {v.status.toLowerCase()} · {v.title ?? '(untitled)'}
              {v.savedBy?.name ? ` · ${v.savedBy.name}` : ''}
              {v.current ? ' · current' : ''}
            </span>
            {canRestore && !v.current && (
              <button type="button" onClick={() => restore(v)} aria-label={`Restore version ${all.length - i}`}>
                Restore
              </button>
            )}
          </li>
        ))}
      </ol>
    </section>
  );
}
