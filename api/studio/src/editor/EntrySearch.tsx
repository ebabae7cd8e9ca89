import { useQuery } from '@tanstack/react-query';
import { useId, useState } from 'react';
import { get, m } from '../api';
import type { Entry } from '../types';

/**
 * A search among the organization's entries (of `allowed` models, any when empty) by the words of
 * their text (the listing's full-text `search`): a search box named `label` and the found entries
 * as buttons in a list named `listLabel`.
 */
export function EntrySearch({ label, listLabel, allowed, exclude = [], onPick }: {
  label: string;
  listLabel: string;
  allowed: readonly string[];
  exclude?: readonly string[];
  onPick: (e: Entry) => void;
}) {
  const [query, setQuery] = useState('');
  const [open, setOpen] = useState(false);
  const id = useId();
  const params = new URLSearchParams({ pageSize: '10' });
  if (allowed.length === 1) params.set('model', allowed[0]);
  if (query.trim()) params.set('search', query.trim());
  const found = useQuery({ queryKey: ['pick', params.toString()], queryFn: () => get<Entry[]>(m(`/entries?${params}`)), enabled: open });
  const candidates = (found.data ?? []).filter((e) => (allowed.length === 0 || allowed.includes(e.model)) && !exclude.includes(e.id));
  return (
    <div className="entry-search">
      <label htmlFor={`${id}-q`}>{label}</label>
      <input id={`${id}-q`} type="search" value={query} onFocus={() => setOpen(true)} onChange={(e) => (setQuery(e.target.value), setOpen(true))} />
      {open && (
        <ul className="candidates" aria-label={listLabel}>
          {found.isError && <li role="alert">{found.error.message}</li>}
          {candidates.map((e) => (
            <li key={e.id}>
              <button type="button" onClick={() => (onPick(e), setQuery(''))}>
                {e.title || e.id} <span className="muted">({e.model})</span>
              </button>
            </li>
          ))}
          {found.data && candidates.length === 0 && <li className="muted">No entries found</li>}
        </ul>
      )}
    </div>
  );
}
