import { useQuery } from '@tanstack/react-query';
import { useState, type FormEvent } from 'react';
import { call, m } from '../../api';
import { Pager } from '../../Pager';
import { isoOf, Problem, Table, when } from '../admin-kit';

interface AuditRow {
  id: string;
  at: string;
  actor: { type: string; id: string | null; name: string | null };
  action: string;
  subject: { type: string; id: string };
  changes: unknown;
  clientAddress: string | null;
}

const EMPTY = { actor: '', actorType: '', action: '', subjectType: '', subjectId: '', from: '', to: '' };
type Filters = typeof EMPTY;

/** The query string of the filters given (dates as RFC 3339). */
function queryOf(f: Filters): URLSearchParams {
  const q = new URLSearchParams();
  for (const key of ['actor', 'actorType', 'action', 'subjectType', 'subjectId'] as const) if (f[key].trim()) q.set(key, f[key].trim());
  const from = isoOf(f.from);
  const to = isoOf(f.to);
  if (from) q.set('from', from);
  if (to) q.set('to', to);
  return q;
}

/** Who did what to which subject, newest first, filtered; and the same rows exported as NDJSON. */
export default function AuditLog() {
  const [draft, setDraft] = useState<Filters>(EMPTY);
  const [filters, setFilters] = useState<Filters>(EMPTY);
  const [page, setPage] = useState(1);
  const query = queryOf(filters);
  const rows = useQuery({
    queryKey: ['audit-log', query.toString(), page],
    queryFn: () => call<AuditRow[]>('GET', m(`/audit-log?${query.toString()}${query.size ? '&' : ''}pageIndex=${page}&pageSize=50`)),
  });
  const set = (patch: Partial<Filters>) => setDraft((d) => ({ ...d, ...patch }));
  const apply = (e: FormEvent) => {
    e.preventDefault();
    setFilters(draft);
    setPage(1);
  };
  const text = (key: keyof Filters, label: string, placeholder = '') => (
    <label>
      {label}
      <input value={draft[key]} placeholder={placeholder} onChange={(e) => set({ [key]: e.target.value })} />
    </label>
  );

  return (
    <>
      <h1>Audit log</h1>
      <form noValidate onSubmit={apply} aria-label="Audit log filters">
        {text('action', 'Action', 'entry.published or entry.*')}
        {text('actor', 'Actor id')}
        <label>
          Actor type
          <select value={draft.actorType} onChange={(e) => set({ actorType: e.target.value })}>
            <option value="">any</option>
            <option value="member">member</option>
            <option value="token">token</option>
            <option value="system">system</option>
          </select>
        </label>
        {text('subjectType', 'Subject type', 'entry, webhook, token…')}
        {text('subjectId', 'Subject id')}
        <label>
          From
          <input type="datetime-local" value={draft.from} onChange={(e) => set({ from: e.target.value })} />
        </label>
        <label>
          To
          <input type="datetime-local" value={draft.to} onChange={(e) => set({ to: e.target.value })} />
        </label>
        <div className="actions">
          <button type="submit" className="primary">
            Apply filters
          </button>
          <a href={`${m('/audit-log/export')}?${query.toString()}`} download>
            Export these rows (NDJSON)
          </a>
        </div>
      </form>
      <Problem error={rows.error} />
      <Table caption="Audit log">
        <thead>
          <tr>
            <th scope="col">When</th>
            <th scope="col">Who</th>
            <th scope="col">Action</th>
            <th scope="col">Subject</th>
            <th scope="col">Changes</th>
          </tr>
        </thead>
        <tbody>
          {(rows.data?.result ?? []).map((r) => (
            <tr key={r.id}>
              <td>{when(r.at)}</td>
              <td>
                {r.actor.name ?? r.actor.id ?? r.actor.type} <span className="muted">({r.actor.type})</span>
              </td>
              <td>{r.action}</td>
              <td>
                {r.subject.type} {r.subject.id}
              </td>
              <td>
                {r.changes ? (
                  <details>
                    <summary>Changes</summary>
                    <pre className="excerpt">{JSON.stringify(r.changes, null, 2)}</pre>
                  </details>
                ) : (
                  '—'
                )}
              </td>
            </tr>
          ))}
        </tbody>
      </Table>
      {rows.data && rows.data.result.length === 0 && <p>No rows match.</p>}
      {rows.data?.resultInfo && rows.data.resultInfo.totalPages > 1 && <Pager info={rows.data.resultInfo} onPage={setPage} noun="rows" />}
    </>
  );
}
