import { useId, useState } from 'react';
import { matches, nameOf, useResources, type Resource, type ResourceKind } from './resources';

/**
 * A search among the organization's media, authors or sections: a search box named `label`, and
 * the matching ones as buttons (the list named `listLabel`) until one is picked.
 */
export function ResourceSearch({ kind, label, listLabel, exclude = [], onPick }: {
  kind: ResourceKind;
  label: string;
  listLabel: string;
  exclude?: readonly string[];
  onPick: (r: Resource) => void;
}) {
  const [query, setQuery] = useState('');
  const [open, setOpen] = useState(false);
  const id = useId();
  const items = useResources(kind, open);
  const found = (items.data ?? []).filter((r) => !exclude.includes(r.id) && matches(r, query)).slice(0, 20);
  return (
    <div className="resource-search">
      <label htmlFor={`${id}-q`}>{label}</label>
      <input id={`${id}-q`} type="search" value={query} onFocus={() => setOpen(true)} onChange={(e) => (setQuery(e.target.value), setOpen(true))} />
      {open && (
        <ul className="candidates" aria-label={listLabel}>
          {items.isError && <li role="alert">{items.error.message}</li>}
          {found.map((r) => (
            <li key={r.id}>
              <button type="button" onClick={() => (onPick(r), setQuery(''), setOpen(false))}>
                {nameOf(r)}
                {r.type ? <span className="muted"> ({r.type.toLowerCase()})</span> : null}
              </button>
            </li>
          ))}
          {items.data && found.length === 0 && <li className="muted">Nothing found</li>}
        </ul>
      )}
    </div>
  );
}
