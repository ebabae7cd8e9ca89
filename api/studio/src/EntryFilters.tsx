import { useQuery } from '@tanstack/react-query';
import { useState } from 'react';
import { get, m } from './api';
import { SORTS, type ListQuery } from './entry-query';
import { ENTRY_STATUSES, type Locale, type Model } from './types';

interface Label {
  id: string;
  name: string;
}
interface Author {
  id: string;
  byline: string | null;
  firstName: string | null;
  lastName: string | null;
}

const authorName = (a: Author) => a.byline || [a.firstName, a.lastName].filter(Boolean).join(' ') || a.id;
// the first 100 of each: a select longer than that is no help, and most organizations have fewer
const useChoices = <T,>(path: string) => useQuery({ queryKey: ['choices', path], queryFn: () => get<T[]>(m(`${path}?pageSize=100`)), staleTime: 60_000 });

/**
 * The entries list's filters and sort. Every change goes to `onChange` (the URL), and goes back
 * to the first page; the search words go on submit.
 */
export function EntryFilters({ query, models, onChange }: { query: ListQuery; models: Model[]; onChange: (patch: Partial<ListQuery>) => void }) {
  const [typed, setTyped] = useState(query.search);
  const locales = useChoices<Locale>('/locales');
  const labels = useChoices<Label>('/labels');
  const authors = useChoices<Author>('/authors');
  const set = (key: keyof ListQuery) => (e: { target: { value: string } }) => onChange({ [key]: e.target.value, page: 1 });
  const select = (name: string, key: keyof ListQuery, any: string, options: { value: string; label: string }[]) => (
    <label>
      {name}
      <select value={String(query[key])} onChange={set(key)}>
        <option value="">{any}</option>
        {options.map((o) => (
          <option key={o.value} value={o.value}>
            {o.label}
          </option>
        ))}
      </select>
    </label>
  );
  return (
    <form
      className="filters"
      role="search"
      onSubmit={(e) => {
        e.preventDefault();
        onChange({ search: typed.trim(), page: 1 });
      }}
    >
      {select('Model', 'model', 'All models', models.map((x) => ({ value: x.alias, label: x.name })))}
      {select('Status', 'status', 'Any status', ENTRY_STATUSES.map((s) => ({ value: s, label: s.toLowerCase() })))}
      {(locales.data?.length ?? 0) > 1 && select('Locale', 'locale', 'Any locale', (locales.data ?? []).map((l) => ({ value: l.code, label: l.name })))}
      {(labels.data?.length ?? 0) > 0 && select('Label', 'label', 'Any label', (labels.data ?? []).map((l) => ({ value: l.id, label: l.name })))}
      {(authors.data?.length ?? 0) > 0 && select('Author', 'author', 'Any author', (authors.data ?? []).map((a) => ({ value: a.id, label: authorName(a) })))}
      <label>
        Sort by
        <select value={query.sort} onChange={(e) => onChange({ sort: e.target.value, order: '', page: 1 })}>
          {SORTS.map((s) => (
            <option key={s.value} value={s.value}>
              {s.label}
            </option>
          ))}
        </select>
      </label>
      {query.sort && (
        <label>
          Direction
          <select value={query.order || (query.sort === 'updatedAt' || query.sort === 'createdAt' ? 'desc' : 'asc')} onChange={set('order')}>
            <option value="asc">{query.sort === 'title' || query.sort === 'status' ? 'A to Z' : 'Oldest first'}</option>
            <option value="desc">{query.sort === 'title' || query.sort === 'status' ? 'Z to A' : 'Newest first'}</option>
          </select>
        </label>
      )}
      <label className="grow">
        Search
        <input type="search" value={typed} onChange={(e) => setTyped(e.target.value)} />
      </label>
      <button type="submit">Find</button>
    </form>
  );
}
