import { useId, useState } from 'react';
import { matches, nameOf, useMediaSearch, useResources, type Resource, type ResourceKind } from './resources';

/**
 * A search among the organization's media, authors or sections: a search box named `label`, and
 * the matching ones as buttons (the list named `listLabel`) until one is picked. Media are
 * searched by the API; authors and sections (whose listings take no search) among the newest
 * hundred, in the browser.
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
  const media = kind === 'media';
  const searched = useMediaSearch(query, open && media);
  const listed = useResources(kind, open && !media);
  const items = media ? searched : listed;
  const found = (items.data ?? []).filter((r) => !exclude.includes(r.id) && (media || matches(r, query))).slice(0, 20);
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
