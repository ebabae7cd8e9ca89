import { keepPreviousData, useQuery } from '@tanstack/react-query';
import { useState } from 'react';
import { Pager } from './Pager';
import { call, get, m } from './api';
import { Link } from './Link';
import { NewEntry } from './NewEntry';
import { ENTRY_STATUSES, rulesOf, type Entry, type Me, type Model } from './types';

const PAGE_SIZE = 20;

export function useModels() {
  return useQuery({ queryKey: ['models'], queryFn: () => get<Model[]>(m('/models')), staleTime: 60_000 });
}

/** The entries of the organization: filtered by model and status, searched, a page at a time. */
export function EntriesList({ me }: { me: Me }) {
  const models = useModels();
  const [model, setModel] = useState('');
  const [status, setStatus] = useState('');
  const [search, setSearch] = useState('');
  const [typed, setTyped] = useState('');
  const [page, setPage] = useState(1);
  const [asking, setAsking] = useState(false);

  const params = new URLSearchParams({ pageIndex: String(page), pageSize: String(PAGE_SIZE) });
  if (model) params.set('model', model);
  if (status) params.set('status', status);
  if (search) params.set('search', search);
  const entries = useQuery({
    queryKey: ['entries', params.toString()],
    queryFn: () => call<Entry[]>('GET', m(`/entries?${params}`)),
    placeholderData: keepPreviousData,
  });
  const nameOf = (alias: string) => models.data?.find((x) => x.alias === alias)?.name ?? alias;
  const creatable = (models.data ?? []).filter((x) => rulesOf(me, x.alias)?.create);
  const info = entries.data?.resultInfo;

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
      <form
        className="filters"
        role="search"
        onSubmit={(e) => {
          e.preventDefault();
          setSearch(typed.trim());
          setPage(1);
        }}
      >
        <label>
          Model
          <select value={model} onChange={(e) => (setModel(e.target.value), setPage(1))}>
            <option value="">All models</option>
            {(models.data ?? []).map((x) => (
              <option key={x.alias} value={x.alias}>
                {x.name}
              </option>
            ))}
          </select>
        </label>
        <label>
          Status
          <select value={status} onChange={(e) => (setStatus(e.target.value), setPage(1))}>
            <option value="">Any status</option>
            {ENTRY_STATUSES.map((s) => (
              <option key={s} value={s}>
                {s.toLowerCase()}
              </option>
            ))}
          </select>
        </label>
        <label className="grow">
          Search
          <input type="search" value={typed} onChange={(e) => setTyped(e.target.value)} />
        </label>
        <button type="submit">Find</button>
      </form>
      {entries.isError && <p role="alert">{entries.error.message}</p>}
      <div className="table-wrap">
        <table className="entries" aria-busy={entries.isFetching}>
          <caption className="visually-hidden">Entries</caption>
          <thead>
            <tr>
              <th scope="col">Title</th>
              <th scope="col">Model</th>
              <th scope="col">Status</th>
              <th scope="col">Updated</th>
            </tr>
          </thead>
          <tbody>
            {(entries.data?.result ?? []).map((e) => (
              <tr key={e.id}>
                <td>
                  <Link to={`/entries/${encodeURIComponent(e.id)}`}>{e.title || e.id}</Link>
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
      {info && <Pager info={info} onPage={setPage} noun="entries" />}
    </main>
  );
}
