import { useQuery, useQueryClient } from '@tanstack/react-query';
import { useState, type FormEvent } from 'react';
import { call, m } from '../../api';
import { listOf, Outcome, useAction, when } from '../admin-kit';
import { DeliveryLog } from './DeliveryLog';
import { SwitchAndDelete } from './SwitchAndDelete';

interface PurgeTarget {
  id: string;
  provider: 'http' | 'fastly' | 'cloudflare';
  method?: string;
  url?: string;
  serviceId?: string;
  zoneId?: string;
  events: string[];
  description: string | null;
  enabled: boolean;
  disabledReason: string | null;
  createdAt: string;
}

type Provider = PurgeTarget['provider'];

/** CDN purge targets fed by content events (a generic HTTP request, Fastly, Cloudflare) and their logs. */
export default function PurgeTargets() {
  const qc = useQueryClient();
  const targets = useQuery({ queryKey: ['purge-targets'], queryFn: () => call<PurgeTarget[]>('GET', m('/purge-targets?pageSize=100')) });
  const create = useAction();
  const [form, setForm] = useState({ provider: 'http' as Provider, url: '', method: 'PURGE', serviceId: '', zoneId: '', apiToken: '', events: '', description: '' });
  const set = (patch: Partial<typeof form>) => setForm((f) => ({ ...f, ...patch }));

  const submit = (e: FormEvent) => {
    e.preventDefault();
    void create.run(async () => {
      const events = listOf(form.events);
      const common = { ...(events.length ? { events } : {}), ...(form.description.trim() ? { description: form.description.trim() } : {}) };
      const body =
        form.provider === 'http'
          ? { provider: 'http', url: form.url, method: form.method, ...common }
          : form.provider === 'fastly'
            ? { provider: 'fastly', serviceId: form.serviceId, apiToken: form.apiToken, ...common }
            : { provider: 'cloudflare', zoneId: form.zoneId, apiToken: form.apiToken, ...common };
      await call('POST', m('/purge-targets'), body);
      set({ url: '', apiToken: '', description: '' });
      await qc.invalidateQueries({ queryKey: ['purge-targets'] });
      return 'Purge target created.';
    });
  };

  return (
    <>
      <h1>Purge targets</h1>
      <section aria-labelledby="new-target-heading">
        <h2 id="new-target-heading">New purge target</h2>
        <form noValidate onSubmit={submit}>
          <label>
            Provider
            <select value={form.provider} onChange={(e) => set({ provider: e.target.value as Provider })}>
              <option value="http">HTTP request</option>
              <option value="fastly">Fastly</option>
              <option value="cloudflare">Cloudflare</option>
            </select>
          </label>
          {form.provider === 'http' && (
            <>
              <label>
                Purge URL template
                <input value={form.url} onChange={(e) => set({ url: e.target.value })} placeholder="https://cdn.example.com/purge/{key}" />
              </label>
              <label>
                Method
                <input value={form.method} onChange={(e) => set({ method: e.target.value })} />
              </label>
            </>
          )}
          {form.provider === 'fastly' && (
            <label>
              Fastly service ID
              <input value={form.serviceId} onChange={(e) => set({ serviceId: e.target.value })} />
            </label>
          )}
          {form.provider === 'cloudflare' && (
            <label>
              Cloudflare zone ID
              <input value={form.zoneId} onChange={(e) => set({ zoneId: e.target.value })} />
            </label>
          )}
          {form.provider !== 'http' && (
            <label>
              Provider API token
              <input type="password" value={form.apiToken} onChange={(e) => set({ apiToken: e.target.value })} autoComplete="off" />
            </label>
          )}
          <label>
            Events (comma-separated, empty: the default)
            <input value={form.events} onChange={(e) => set({ events: e.target.value })} />
          </label>
          <label>
            Description
            <input value={form.description} onChange={(e) => set({ description: e.target.value })} />
          </label>
          <div className="actions">
            <button type="submit" className="primary" disabled={create.busy}>
              Create purge target
            </button>
          </div>
          <Outcome action={create} />
        </form>
      </section>
      <section aria-labelledby="targets-heading">
        <h2 id="targets-heading">Purge targets</h2>
        {targets.isError && <p role="alert">{targets.error.message}</p>}
        {(targets.data?.result ?? []).map((t) => (
          <TargetCard key={t.id} target={t} />
        ))}
        {targets.data && targets.data.result.length === 0 && <p>No purge targets yet.</p>}
      </section>
    </>
  );
}

function TargetCard({ target }: { target: PurgeTarget }) {
  const qc = useQueryClient();
  const [open, setOpen] = useState(false);
  const act = useAction();
  const path = m(`/purge-targets/${encodeURIComponent(target.id)}`);
  const name = target.url ?? target.serviceId ?? target.zoneId ?? target.id;
  const refresh = () => qc.invalidateQueries({ queryKey: ['purge-targets'] });
  return (
    <article className="card" aria-label={`Purge target ${name}`}>
      <h3>
        {target.provider}: {name}
      </h3>
      <p>
        {target.method ? `${target.method} · ` : ''}
        {target.events.join(', ')} · {target.enabled ? 'enabled' : `disabled${target.disabledReason ? `: ${target.disabledReason}` : ''}`} · since {when(target.createdAt)}
      </p>
      <div className="actions">
        <button type="button" aria-expanded={open} onClick={() => setOpen((o) => !o)}>
          Purge log
        </button>
        <SwitchAndDelete path={path} enabled={target.enabled} action={act} refresh={refresh} />
      </div>
      <Outcome action={act} />
      {open && <DeliveryLog path={`${path}/deliveries`} name={name} />}
    </article>
  );
}
