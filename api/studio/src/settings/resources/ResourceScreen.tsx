import { useQuery, useQueryClient } from '@tanstack/react-query';
import { useState } from 'react';
import { call, m } from '../../api';
import type { Me } from '../../types';
import { canChangeStructures } from '../access';
import { Outcome, Problems } from '../Problems';
import { moved } from '../models/model-draft';
import { ListEntries } from './ListEntries';
import { KINDS, treeOrder, type KindName, type ResourceKind, type ResourceRecord } from './kinds';

const PAGE = 100;
const text = (v: unknown) => (typeof v === 'string' ? v : '');
const nameOf = (kind: ResourceKind, r: ResourceRecord) => text(r[kind.fields[0].key]) || r.id;

/** One record: its text members and (sections) its parent, saved with one PATCH; delete. */
interface RowProps {
  kind: ResourceKind;
  record: ResourceRecord;
  depth: number;
  all: ResourceRecord[];
  writable: boolean;
  /** Sections: moves the record among its siblings (absent at that end). */
  onMoveUp?: () => void;
  onMoveDown?: () => void;
  onDone: (err: unknown, what: string) => void;
}

function RecordRow({ kind, record, depth, all, writable, onMoveUp, onMoveDown, onDone }: RowProps) {
  const [values, setValues] = useState<Record<string, string>>(() => Object.fromEntries(kind.fields.map((f) => [f.key, text(record[f.key])])));
  const [parent, setParent] = useState(record.parentId ?? '');
  const name = nameOf(kind, record);
  const act = async (method: 'PATCH' | 'DELETE', body?: Record<string, unknown>) => {
    try {
      await call(method, m(`${kind.path}/${encodeURIComponent(record.id)}`), body);
      onDone(null, method === 'DELETE' ? `${kind.singular} ${name} deleted.` : `${kind.singular} ${name} saved.`);
    } catch (err) {
      onDone(err, '');
    }
  };
  const save = () => {
    const body: Record<string, unknown> = Object.fromEntries(kind.fields.map((f) => [f.key, values[f.key].trim() === '' && f !== kind.fields[0] ? null : values[f.key]]));
    if (kind.tree) body.parentId = parent || null;
    void act('PATCH', body);
  };
  return (
    <li className="resource" style={{ marginInlineStart: `${depth * 1.5}rem` }}>
      <fieldset disabled={!writable}>
        <legend>{name}</legend>
        <div className="row">
          {kind.fields.map((f) => (
            <label key={f.key}>
              {f.label} of {name}
              <input value={values[f.key]} onChange={(e) => setValues({ ...values, [f.key]: e.target.value })} />
            </label>
          ))}
          {kind.tree && (
            <label>
              Parent of {name}
              <select value={parent} onChange={(e) => setParent(e.target.value)}>
                <option value="">None (top level)</option>
                {all
                  .filter((r) => r.id !== record.id)
                  .map((r) => (
                    <option key={r.id} value={r.id}>
                      {nameOf(kind, r)}
                    </option>
                  ))}
              </select>
            </label>
          )}
        </div>
        {writable && (
          <div className="actions">
            <button type="button" onClick={save}>
              Save {name}
            </button>
            {kind.tree && (
              <>
                <button type="button" onClick={onMoveUp} disabled={!onMoveUp}>
                  Move {name} up
                </button>
                <button type="button" onClick={onMoveDown} disabled={!onMoveDown}>
                  Move {name} down
                </button>
              </>
            )}
            <button type="button" onClick={() => window.confirm(`Delete ${kind.singular.toLowerCase()} “${name}”?`) && void act('DELETE')}>
              Delete {name}
            </button>
          </div>
        )}
        {'entries' in kind && kind.entries && <ListEntries list={record} name={name} writable={writable} onDone={onDone} />}
      </fieldset>
    </li>
  );
}

/** `/settings/authors|labels|sections|lists`: the records (sections as a tree), add, edit, delete. */
export function ResourceScreen({ kind: kindName, me }: { kind: KindName; me: Me }) {
  const kind: ResourceKind = KINDS[kindName];
  const qc = useQueryClient();
  const writable = canChangeStructures(me);
  const records = useQuery({ queryKey: ['resource', kind.path], queryFn: () => call<ResourceRecord[]>('GET', m(`${kind.path}?pageSize=${PAGE}`)) });
  const [draft, setDraft] = useState<Record<string, string>>({});
  const [error, setError] = useState<unknown>(null);
  const [done, setDone] = useState('');

  const settle = async (err: unknown, what: string) => {
    setError(err);
    setDone(what);
    if (!err) await qc.invalidateQueries({ queryKey: ['resource', kind.path] });
  };
  const add = async (e: React.FormEvent) => {
    e.preventDefault();
    try {
      const body = Object.fromEntries(kind.fields.map((f) => [f.key, draft[f.key] ?? '']).filter(([, v]) => v !== ''));
      await call('POST', m(kind.path), body);
      setDraft({});
      await settle(null, `${kind.singular} added.`);
    } catch (err) {
      await settle(err, '');
    }
  };

  const all = records.data?.result ?? [];
  const rows = kind.tree ? treeOrder(all) : all.map((record) => ({ record, depth: 0 }));
  const siblingsOf = (r: ResourceRecord) => rows.map((x) => x.record).filter((x) => (x.parentId ?? null) === (r.parentId ?? null));
  // a move renumbers the siblings 0…n-1 in their new order: one PATCH per section whose place changed
  const move = async (r: ResourceRecord, by: -1 | 1) => {
    const siblings = siblingsOf(r);
    const order = moved(siblings, siblings.indexOf(r), by);
    try {
      for (const [i, s] of order.entries()) if (s.position !== i) await call('PATCH', m(`${kind.path}/${encodeURIComponent(s.id)}`), { position: i });
      await settle(null, `${nameOf(kind, r)} moved.`);
    } catch (err) {
      await settle(err, '');
    }
  };
  const edge = (r: ResourceRecord, by: -1 | 1) => {
    const siblings = siblingsOf(r);
    const at = siblings.indexOf(r) + by;
    return at >= 0 && at < siblings.length;
  };
  const total = records.data?.resultInfo?.totalCount ?? 0;
  return (
    <main className="content settings">
      <h1>{kind.title}</h1>
      {kind.tree && <p className="hint">Move a section under another by choosing its parent, and among its siblings with Move up and Move down: delivery lists them in this order.</p>}
      {records.isError && <Problems error={records.error} />}
      {total > PAGE && <p className="hint">The first {PAGE} of {total}.</p>}
      {records.data && all.length === 0 && <p>None yet.</p>}
      <ul className="resources">
        {rows.map(({ record, depth }) => (
          <RecordRow
            key={`${record.id}-${JSON.stringify(record)}`}
            kind={kind}
            record={record}
            depth={depth}
            all={all}
            writable={writable}
            onMoveUp={edge(record, -1) ? () => void move(record, -1) : undefined}
            onMoveDown={edge(record, 1) ? () => void move(record, 1) : undefined}
            onDone={(err, what) => void settle(err, what)}
          />
        ))}
      </ul>
      {writable && (
        <form onSubmit={add} aria-label={`Add a ${kind.singular.toLowerCase()}`}>
          <h2>New {kind.singular.toLowerCase()}</h2>
          <div className="row">
            {kind.fields.map((f) => (
              <label key={f.key}>
                New {kind.singular.toLowerCase()} {f.label.toLowerCase()}
                <input value={draft[f.key] ?? ''} onChange={(e) => setDraft({ ...draft, [f.key]: e.target.value })} />
              </label>
            ))}
            <button type="submit">Add {kind.singular.toLowerCase()}</button>
          </div>
        </form>
      )}
      <Outcome error={error} done={done} />
    </main>
  );
}
