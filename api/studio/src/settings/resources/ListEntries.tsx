import { useQuery } from '@tanstack/react-query';
import { useState } from 'react';
import { call, get, m } from '../../api';
import { ReferencePicker } from '../../editor/ReferencePicker';
import type { Entry, Field } from '../../types';
import { moved } from '../models/model-draft';
import type { ListItem, ResourceRecord } from './kinds';

/** `datetime-local` shows local time without a zone; the API takes and answers ISO instants. */
const toLocal = (iso: string | null) => (iso ? new Date(new Date(iso).getTime() - new Date(iso).getTimezoneOffset() * 60_000).toISOString().slice(0, 16) : '');
const toIso = (local: string) => (local ? new Date(local).toISOString() : null);

/** Any entry of any model may be in a list: the picker searches them all. */
const ANY_ENTRY: Field = { alias: 'entry', type: 'reference', valueType: 'single', allowedModels: [], required: false };

/** A list's entries in order, each with its display window, replaced with one PUT. */
export function ListEntries({ list, name, writable, onDone }: { list: ResourceRecord; name: string; writable: boolean; onDone: (err: unknown, what: string) => void }) {
  const [items, setItems] = useState<ListItem[]>(list.entries ?? []);
  const ids = items.map((i) => i.entryId);
  const titles = useQuery({
    queryKey: ['titles', ids],
    queryFn: () => Promise.all(ids.map((id) => get<Entry>(m(`/entries/${encodeURIComponent(id)}`)).catch(() => null))),
    enabled: ids.length > 0,
  });
  const titleOf = (i: number) => titles.data?.[i]?.title || items[i].entryId;
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
            <span>{titleOf(i)}</span>
            <label>
              Shown from ({titleOf(i)})
              <input type="datetime-local" value={toLocal(it.startAt)} onChange={(e) => set(i, { startAt: toIso(e.target.value) })} />
            </label>
            <label>
              Shown until ({titleOf(i)})
              <input type="datetime-local" value={toLocal(it.endAt)} onChange={(e) => set(i, { endAt: toIso(e.target.value) })} />
            </label>
            <button type="button" onClick={() => setItems(moved(items, i, -1))} disabled={i === 0}>
              Move {titleOf(i)} up
            </button>
            <button type="button" onClick={() => setItems(items.filter((_, j) => j !== i))}>
              Remove {titleOf(i)}
            </button>
          </li>
        ))}
      </ol>
      {writable && (
        <div className="row">
          <ReferencePicker
            field={ANY_ENTRY}
            label={`entry to add to ${name}`}
            value={null}
            onChange={(id) => typeof id === 'string' && setItems([...items, { entryId: id, startAt: null, endAt: null }])}
            disabled={false}
          />
          <button type="button" onClick={() => void save()}>
            Save entries of {name}
          </button>
        </div>
      )}
    </fieldset>
  );
}
