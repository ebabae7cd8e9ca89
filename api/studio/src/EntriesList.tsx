import { keepPreviousData, useQuery, useQueryClient } from '@tanstack/react-query';
import { useState } from 'react';
import { Pager } from './Pager';
import { ApiError, call, get, m } from './api';
import { Link } from './Link';
import { NewEntry } from './NewEntry';
import { EntryFilters } from './EntryFilters';
import { apiParams, listQueryString, readListQuery, type ListQuery } from './entry-query';
import { navigate, useRoute } from './router';
import { rulesOf, type Entry, type Me, type Model } from './types';

const PAGE_SIZE = 20;

export function useModels() {
  return useQuery({ queryKey: ['models'], queryFn: () => get<Model[]>(m('/models')), staleTime: 60_000 });
}

/** The entries of the organization: filtered, searched and sorted as the URL says, a page at a time. */
export function EntriesList({ me }: { me: Me }) {
  const models = useModels();
  const route = useRoute();
  const query = readListQuery(route.slice(route.indexOf('?') + 1 || route.length));
  const change = (patch: Partial<ListQuery>) => navigate(listQueryString({ ...query, ...patch }));
  const [asking, setAsking] = useState(false);
  const [selected, setSelected] = useState<Set<string>>(new Set());
  const [outcome, setOutcome] = useState<string | null>(null);
  const qc = useQueryClient();

  const params = apiParams(query, PAGE_SIZE);
  const entries = useQuery({
    queryKey: ['entries', params.toString()],
    queryFn: () => call<Entry[]>('GET', m(`/entries?${params}`)),
    placeholderData: keepPreviousData,
  });
  const nameOf = (alias: string) => models.data?.find((x) => x.alias === alias)?.name ?? alias;
  const creatable = (models.data ?? []).filter((x) => rulesOf(me, x.alias)?.create);
  const info = entries.data?.resultInfo;
  const rows = entries.data?.result ?? [];
  const titleOf = (e: Entry) => e.title || e.id;
  const mayPublish = (models.data ?? []).some((x) => rulesOf(me, x.alias)?.publish);
  const mayDelete = (models.data ?? []).some((x) => rulesOf(me, x.alias)?.delete);
  const toggle = (id: string) => setSelected((s) => (s.has(id) ? new Set([...s].filter((x) => x !== id)) : new Set([...s, id])));

  /** One call per selected entry (the API decides each); what happened, counted. */
  const bulk = async (action: 'publish' | 'unpublish' | 'delete') => {
    if (action === 'delete' && !window.confirm(`Delete ${selected.size} entries? Delivery stops showing them.`)) return;
    let done = 0;
    const refused: string[] = [];
    for (const id of selected) {
      try {
        if (action === 'delete') await call('DELETE', m(`/entries/${encodeURIComponent(id)}`));
        else {
          // the version the list showed: an entry changed since is refused (409), not published unseen
          const seen = rows.find((r) => r.id === id)?.versionId;
          await call('POST', m(`/entries/${encodeURIComponent(id)}/${action}`), undefined, seen ? { 'if-match': `"${seen}"` } : {});
        }
        done++;
      } catch (err) {
        refused.push(`${rows.find((r) => r.id === id)?.title ?? id}: ${err instanceof ApiError ? err.message : String(err)}`);
      }
    }
    const verb = action === 'delete' ? 'deleted' : `${action}ed`;
    setOutcome(`${done} ${verb}${refused.length ? `; ${refused.length} refused — ${refused.join('; ')}` : ''}.`);
    setSelected(new Set());
    await qc.invalidateQueries({ queryKey: ['entries'] });
  };

  return (
    <main className="content">
      <div className="heading">
        <h1>Content</h1>
        {creatable.length > 0 && (
          <button type="button" className="primary" onClick={() => setAsking(true)} aria-expanded={asking}>
            New entry
          </button>
        )}
      </div>
      {asking && <NewEntry models={creatable} onCancel={() => setAsking(false)} />}
      <EntryFilters key={query.search} query={query} models={models.data ?? []} onChange={change} />
      {entries.isError && <p role="alert">{entries.error.message}</p>}
      {selected.size > 0 && (
        <div className="bulk" role="group" aria-label="Selected entries">
          <span>{selected.size} selected</span>
          {mayPublish && (
            <>
              <button type="button" onClick={() => bulk('publish')}>
                Publish selected
              </button>
              <button type="button" onClick={() => bulk('unpublish')}>
                Unpublish selected
              </button>
            </>
          )}
          {mayDelete && (
            <button type="button" onClick={() => bulk('delete')}>
              Delete selected
            </button>
          )}
        </div>
      )}
      <p role="status" className="notice">
        {outcome}
      </p>
      <div className="table-wrap">
        <table className="entries" aria-busy={entries.isFetching}>
          <caption className="visually-hidden">Entries</caption>
          <thead>
            <tr>
              <th scope="col">
                <span className="visually-hidden">Selected</span>
              </th>
              <th scope="col">Title</th>
              <th scope="col">Model</th>
              <th scope="col">Status</th>
              <th scope="col">Updated</th>
            </tr>
          </thead>
          <tbody>
            {rows.map((e) => (
              <tr key={e.id}>
                <td>
                  <input type="checkbox" checked={selected.has(e.id)} onChange={() => toggle(e.id)} aria-label={`Select ${titleOf(e)}`} />
                </td>
                <td>
                  <Link to={`/entries/${encodeURIComponent(e.id)}`}>{titleOf(e)}</Link>
                </td>
                <td>{nameOf(e.model)}</td>
                <td>
                  <span className={`status status-${e.status.toLowerCase()}`}>{e.status.toLowerCase()}</span>
                </td>
                <td>
                  <time dateTime={e.updatedAt}>{new Date(e.updatedAt).toLocaleString()}</time>
                </td>
              </tr>
            ))}
          </tbody>
        </table>
      </div>
      {entries.data && entries.data.result.length === 0 && <p>No entries match.</p>}
      {info && <Pager info={info} onPage={(page) => change({ page })} noun="entries" />}
    </main>
  );
}
