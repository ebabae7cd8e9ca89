import { useQuery, useQueryClient } from '@tanstack/react-query';
import { useEffect, useState, type FormEvent } from 'react';
import { call, get, m } from '../../api';
import { Pager } from '../../Pager';
import { listOf, Outcome, Table, useAction, when } from '../admin-kit';

interface DeliverySettings {
  cacheMaxAge: number;
  cacheStaleWhileRevalidate: number;
  trustedDocuments: boolean;
}

interface PersistedDocument {
  id: string;
  sha256: string;
  name: string | null;
  document: string;
  createdAt: string;
}

/** A number input's value as the API should see it: a number when it reads as one, else the text (the API says why). */
const numberOf = (text: string): number | string => (text.trim() !== '' && Number.isFinite(Number(text)) ? Number(text) : text);

/** GraphQL delivery: cache times and trusted-documents mode, allowed origins, and the registered documents. */
export default function Delivery() {
  return (
    <>
      <h1>Delivery</h1>
      <CacheSettings />
      <AllowedOrigins />
      <Documents />
    </>
  );
}

function CacheSettings() {
  const qc = useQueryClient();
  const settings = useQuery({ queryKey: ['delivery-settings'], queryFn: () => get<DeliverySettings>(m('/delivery-settings')) });
  const save = useAction();
  const [form, setForm] = useState({ maxAge: '', swr: '', trusted: false });
  useEffect(() => {
    if (settings.data) setForm({ maxAge: String(settings.data.cacheMaxAge), swr: String(settings.data.cacheStaleWhileRevalidate), trusted: settings.data.trustedDocuments });
  }, [settings.data]);
  const submit = (e: FormEvent) => {
    e.preventDefault();
    void save.run(async () => {
      const res = await call('PATCH', m('/delivery-settings'), { cacheMaxAge: numberOf(form.maxAge), cacheStaleWhileRevalidate: numberOf(form.swr), trustedDocuments: form.trusted });
      await qc.invalidateQueries({ queryKey: ['delivery-settings'] });
      return ['Saved.', ...res.messages].join(' ');
    });
  };
  return (
    <section aria-labelledby="cache-heading">
      <h2 id="cache-heading">Caching and trusted documents</h2>
      {settings.isError && <p role="alert">{settings.error.message}</p>}
      <form noValidate onSubmit={submit}>
        <label>
          Cache max-age (seconds)
          <input inputMode="numeric" value={form.maxAge} onChange={(e) => setForm({ ...form, maxAge: e.target.value })} />
        </label>
        <label>
          Stale-while-revalidate (seconds)
          <input inputMode="numeric" value={form.swr} onChange={(e) => setForm({ ...form, swr: e.target.value })} />
        </label>
        <label>
          <input type="checkbox" checked={form.trusted} onChange={(e) => setForm({ ...form, trusted: e.target.checked })} /> Trusted documents only (delivery runs registered documents only)
        </label>
        <div className="actions">
          <button type="submit" className="primary" disabled={save.busy}>
            Save delivery settings
          </button>
        </div>
        <Outcome action={save} />
      </form>
    </section>
  );
}

function AllowedOrigins() {
  const qc = useQueryClient();
  const origins = useQuery({ queryKey: ['allowed-origins'], queryFn: () => get<{ allowedOrigins: string[] | null }>(m('/allowed-origins')) });
  const save = useAction();
  const [any, setAny] = useState(true);
  const [text, setText] = useState('');
  useEffect(() => {
    if (!origins.data) return;
    setAny(origins.data.allowedOrigins === null);
    setText((origins.data.allowedOrigins ?? []).join('\n'));
  }, [origins.data]);
  const submit = (e: FormEvent) => {
    e.preventDefault();
    void save.run(async () => {
      await call('PUT', m('/allowed-origins'), { allowedOrigins: any ? null : listOf(text) });
      await qc.invalidateQueries({ queryKey: ['allowed-origins'] });
      return 'Saved.';
    });
  };
  return (
    <section aria-labelledby="origins-heading">
      <h2 id="origins-heading">Allowed origins</h2>
      <form noValidate onSubmit={submit}>
        <label>
          <input type="checkbox" checked={any} onChange={(e) => setAny(e.target.checked)} /> Any origin
        </label>
        <label>
          Allowed origins (one per line)
          <textarea rows={3} value={text} disabled={any} onChange={(e) => setText(e.target.value)} placeholder="https://www.example.com" />
        </label>
        <div className="actions">
          <button type="submit" className="primary" disabled={save.busy}>
            Save allowed origins
          </button>
        </div>
        <Outcome action={save} />
      </form>
    </section>
  );
}

function Documents() {
  const qc = useQueryClient();
  const [page, setPage] = useState(1);
  const docs = useQuery({ queryKey: ['persisted-documents', page], queryFn: () => call<PersistedDocument[]>('GET', m(`/persisted-documents?pageIndex=${page}&pageSize=20`)) });
  const add = useAction();
  const row = useAction();
  const [form, setForm] = useState({ name: '', document: '' });
  const refresh = () => qc.invalidateQueries({ queryKey: ['persisted-documents'] });
  const submit = (e: FormEvent) => {
    e.preventDefault();
    void add.run(async () => {
      const res = await call('POST', m('/persisted-documents'), { documents: [{ document: form.document, ...(form.name.trim() ? { name: form.name.trim() } : {}) }] });
      setForm({ name: '', document: '' });
      await refresh();
      return ['Registered.', ...res.messages].join(' ');
    });
  };
  return (
    <section aria-labelledby="documents-heading">
      <h2 id="documents-heading">Persisted documents</h2>
      <form noValidate onSubmit={submit}>
        <label>
          Document name
          <input value={form.name} onChange={(e) => setForm({ ...form, name: e.target.value })} />
        </label>
        <label>
          GraphQL document
          <textarea className="code" rows={4} value={form.document} onChange={(e) => setForm({ ...form, document: e.target.value })} />
        </label>
        <div className="actions">
          <button type="submit" className="primary" disabled={add.busy}>
            Register document
          </button>
        </div>
        <Outcome action={add} />
      </form>
      <Outcome action={row} />
      <Table caption="Persisted documents">
        <thead>
          <tr>
            <th scope="col">Id</th>
            <th scope="col">Name</th>
            <th scope="col">Registered</th>
            <th scope="col">Remove</th>
          </tr>
        </thead>
        <tbody>
          {(docs.data?.result ?? []).map((d) => (
            <tr key={d.id}>
              <td>
                <details>
                  <summary>{d.id.length > 24 ? `${d.id.slice(0, 24)}…` : d.id}</summary>
                  <pre className="excerpt">{d.document}</pre>
                </details>
              </td>
              <td>{d.name ?? '—'}</td>
              <td>{when(d.createdAt)}</td>
              <td>
                <button
                  type="button"
                  aria-label={`Remove document ${d.name ?? d.id}`}
                  disabled={row.busy}
                  onClick={() =>
                    void row.run(async () => {
                      await call('DELETE', m(`/persisted-documents/${encodeURIComponent(d.id)}`));
                      await refresh();
                    })
                  }
                >
                  Remove
                </button>
              </td>
            </tr>
          ))}
        </tbody>
      </Table>
      {docs.data && docs.data.result.length === 0 && <p>No documents registered.</p>}
      {docs.data?.resultInfo && docs.data.resultInfo.totalPages > 1 && <Pager info={docs.data.resultInfo} onPage={setPage} noun="documents" />}
    </section>
  );
}
