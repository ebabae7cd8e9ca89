import { useQuery } from '@tanstack/react-query';
import { useId, useState } from 'react';
import { get, m } from '../api';
import type { Entry, Field } from '../types';

/**
 * A reference field: the chosen entries, and a search among the entries of the allowed models
 * (any model when the field allows every one).
 */
export function ReferencePicker({ field, label, value, onChange, disabled, describedBy }: {
  field: Field;
  label: string;
  value: unknown;
  onChange: (v: unknown) => void;
  disabled: boolean;
  describedBy?: string;
}) {
  const list = field.valueType === 'list';
  const chosen: string[] = list ? (Array.isArray(value) ? value.map(String) : []) : typeof value === 'string' && value ? [value] : [];
  const [query, setQuery] = useState('');
  const [open, setOpen] = useState(false);
  const id = useId();
  const allowed = field.allowedModels;
  const params = new URLSearchParams({ pageSize: '10' });
  if (allowed.length === 1) params.set('model', allowed[0]);
  if (query.trim()) params.set('search', query.trim());
  const found = useQuery({
    queryKey: ['pick', params.toString()],
    queryFn: () => get<Entry[]>(m(`/entries?${params}`)),
    enabled: open,
  });
  const titles = useQuery({
    queryKey: ['titles', chosen],
    queryFn: () => Promise.all(chosen.map((c) => get<Entry>(m(`/entries/${encodeURIComponent(c)}`)).catch(() => null))),
    enabled: chosen.length > 0,
  });
  const candidates = (found.data ?? []).filter((e) => (allowed.length === 0 || allowed.includes(e.model)) && !chosen.includes(e.id));
  const choose = (e: Entry) => {
    onChange(list ? [...chosen, e.id] : e.id);
    if (!list) setOpen(false);
  };
  const remove = (c: string) => onChange(list ? chosen.filter((x) => x !== c) : null);

  return (
    <fieldset className="picker" aria-describedby={describedBy}>
      <legend>{label}</legend>
      <ul className="chosen">
        {chosen.map((c, i) => (
          <li key={c}>
            <span>{titles.data?.[i]?.title || c}</span>
            {!disabled && (
              <button type="button" className="link" onClick={() => remove(c)} aria-label={`Remove ${titles.data?.[i]?.title || c} from ${label}`}>
                Remove
              </button>
            )}
          </li>
        ))}
        {chosen.length === 0 && <li className="muted">None chosen</li>}
      </ul>
      {!disabled && (list || chosen.length === 0) && (
        <div>
          <label htmlFor={`${id}-q`}>Find an entry for {label}</label>
          <input id={`${id}-q`} type="search" value={query} onFocus={() => setOpen(true)} onChange={(e) => (setQuery(e.target.value), setOpen(true))} />
          {open && (
            <ul className="candidates" aria-label={`Entries to choose for ${label}`}>
              {candidates.map((e) => (
                <li key={e.id}>
                  <button type="button" onClick={() => choose(e)}>
                    {e.title || e.id} <span className="muted">({e.model})</span>
                  </button>
                </li>
              ))}
              {found.data && candidates.length === 0 && <li className="muted">No entries found</li>}
            </ul>
          )}
        </div>
      )}
    </fieldset>
  );
}
