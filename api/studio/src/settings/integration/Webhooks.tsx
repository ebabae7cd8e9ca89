import { useQuery, useQueryClient } from '@tanstack/react-query';
import { useState, type FormEvent } from 'react';
import { call, m } from '../../api';
import { listOf, Outcome, ShownOnce, useAction, when } from '../admin-kit';
import { DeliveryLog } from './DeliveryLog';
import { SwitchAndDelete } from './SwitchAndDelete';

interface Webhook {
  id: string;
  url: string;
  events: string[];
  models: string[] | null;
  description: string | null;
  enabled: boolean;
  disabledReason: string | null;
  failedInARow: number;
  createdAt: string;
}

/** Webhooks: subscribe a URL (its signing secret shown once), its delivery log, redeliver, rotate the secret. */
export default function Webhooks() {
  const qc = useQueryClient();
  const hooks = useQuery({ queryKey: ['webhooks'], queryFn: () => call<Webhook[]>('GET', m('/webhooks?pageSize=100')) });
  const create = useAction();
  const [form, setForm] = useState({ url: '', events: '*', models: '', description: '' });
  const set = (patch: Partial<typeof form>) => setForm((f) => ({ ...f, ...patch }));
  const [secret, setSecret] = useState<{ url: string; secret: string } | null>(null);

  const submit = (e: FormEvent) => {
    e.preventDefault();
    void create.run(async () => {
      const models = listOf(form.models);
      const res = await call<Webhook & { secret: string }>('POST', m('/webhooks'), {
        url: form.url,
        events: listOf(form.events),
        ...(models.length ? { models } : {}),
        ...(form.description.trim() ? { description: form.description.trim() } : {}),
      });
      setSecret({ url: res.result.url, secret: res.result.secret });
      set({ url: '', description: '' });
      await qc.invalidateQueries({ queryKey: ['webhooks'] });
      return res.messages.join(' ');
    });
  };

  return (
    <>
      <h1>Webhooks</h1>
      <section aria-labelledby="new-webhook-heading">
        <h2 id="new-webhook-heading">New webhook</h2>
        <form noValidate onSubmit={submit}>
          <label>
            Webhook URL
            <input value={form.url} onChange={(e) => set({ url: e.target.value })} placeholder="https://example.com/hooks/folio" />
          </label>
          <label>
            Events (comma-separated)
            <input value={form.events} onChange={(e) => set({ events: e.target.value })} placeholder="entry.published, asset.*" />
          </label>
          <label>
            Only these models (comma-separated, empty: every model)
            <input value={form.models} onChange={(e) => set({ models: e.target.value })} />
          </label>
          <label>
            Description
            <input value={form.description} onChange={(e) => set({ description: e.target.value })} />
          </label>
          <div className="actions">
            <button type="submit" className="primary" disabled={create.busy}>
              Create webhook
            </button>
          </div>
          <Outcome action={create} />
        </form>
        {secret && <ShownOnce label="Signing secret" value={secret.secret} />}
      </section>
      <section aria-labelledby="webhooks-heading">
        <h2 id="webhooks-heading">Webhooks</h2>
        {hooks.isError && <p role="alert">{hooks.error.message}</p>}
        {(hooks.data?.result ?? []).map((h) => (
          <WebhookCard key={h.id} hook={h} onSecret={(s) => setSecret({ url: h.url, secret: s })} />
        ))}
        {hooks.data && hooks.data.result.length === 0 && <p>No webhooks yet.</p>}
      </section>
    </>
  );
}

function WebhookCard({ hook, onSecret }: { hook: Webhook; onSecret: (secret: string) => void }) {
  const qc = useQueryClient();
  const [open, setOpen] = useState(false);
  const act = useAction();
  const path = m(`/webhooks/${encodeURIComponent(hook.id)}`);
  const refresh = () => qc.invalidateQueries({ queryKey: ['webhooks'] });
  return (
    <article className="card" aria-label={`Webhook ${hook.url}`}>
      <h3>{hook.url}</h3>
      <p>
        {hook.events.join(', ')}
        {hook.models ? ` · models ${hook.models.join(', ')}` : ''} · {hook.enabled ? 'enabled' : `disabled${hook.disabledReason ? `: ${hook.disabledReason}` : ''}`}
        {hook.failedInARow > 0 ? ` · ${hook.failedInARow} failed in a row` : ''} · since {when(hook.createdAt)}
      </p>
      {hook.description && <p className="muted">{hook.description}</p>}
      <div className="actions">
        <button type="button" aria-expanded={open} onClick={() => setOpen((o) => !o)}>
          Delivery log
        </button>
        <button
          type="button"
          disabled={act.busy}
          onClick={() =>
            void act.run(async () => {
              const res = await call<{ secret: string }>('POST', `${path}/rotate-secret`);
              onSecret(res.result.secret);
              return res.messages.join(' ');
            })
          }
        >
          Rotate secret
        </button>
        <SwitchAndDelete path={path} enabled={hook.enabled} action={act} refresh={refresh} />
      </div>
      <Outcome action={act} />
      {open && <DeliveryLog path={`${path}/deliveries`} name={hook.url} redeliverPath={(id) => `${path}/deliveries/${encodeURIComponent(id)}/redeliver`} />}
    </article>
  );
}
