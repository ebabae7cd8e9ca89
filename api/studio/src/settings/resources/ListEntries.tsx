import { useState } from 'react';
import { call, m } from '../../api';
import { moved } from '../models/model-draft';
import type { ListItem, ResourceRecord } from './kinds';

/** `datetime-local` shows local time without a zone; the API takes and answers ISO instants. */
const toLocal = (iso: string | null) => (iso ? new Date(new Date(iso).getTime() - new Date(iso).getTimezoneOffset() * 60_000).toISOString().slice(0, 16) : '');
const toIso = (local: string) => (local ? new Date(local).toISOString() : null);

/** A list's entries in order, each with its display window, replaced with one PUT. */
export function ListEntries({ list, name, writable, onDone }: { list: ResourceRecord; name: string; writable: boolean; onDone: (err: unknown, what: string) => void }) {
  const [items, setItems] = useState<ListItem[]>(list.entries ?? []);
  const [adding, setAdding] = useState('');
  const set = (i: number, patch: Partial<ListItem>) => setItems(items.map((x, j) => (j === i ? { ...x, ...patch } : x)));
  const save = async () => {
    try {
      await call('PUT', m(`/lists/${encodeURIComponent(list.id)}/entries`), { entries: items });
      onDone(null, `Entries of ${name} saved.`);
    } catch (err) {
      onDone(err, '');
    }
  };
  return (
    <fieldset>
      <legend>Entries of {name}</legend>
      <ol>
        {items.map((it, i) => (
          <li key={`${it.entryId}-${i}`} className="row">
            <span>{it.entryId}</span>
            <label>
              Shown from ({it.entryId})
              <input type="datetime-local" value={toLocal(it.startAt)} onChange={(e) => set(i, { startAt: toIso(e.target.value) })} />
            </label>
            <label>
              Shown until ({it.entryId})
              <input type="datetime-local" value={toLocal(it.endAt)} onChange={(e) => set(i, { endAt: toIso(e.target.value) })} />
            </label>
            <button type="button" onClick={() => setItems(moved(items, i, -1))} disabled={i === 0}>
              Move {it.entryId} up
            </button>
            <button type="button" onClick={() => setItems(items.filter((_, j) => j !== i))}>
              Remove {it.entryId}
            </button>
          </li>
        ))}
      </ol>
      {writable && (
        <div className="row">
          <label>
            Entry id to add to {name}
            <input value={adding} onChange={(e) => setAdding(e.target.value)} />
          </label>
          <button
            type="button"
            onClick={() => {
              if (adding.trim()) setItems([...items, { entryId: adding.trim(), startAt: null, endAt: null }]);
              setAdding('');
            }}
          >
            Add entry to {name}
          </button>
          <button type="button" onClick={() => void save()}>
            Save entries of {name}
          </button>
        </div>
      )}
    </fieldset>
  );
}
