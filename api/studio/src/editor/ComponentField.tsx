import { useQuery } from '@tanstack/react-query';
import { useCallback, useEffect, useRef, useState, type ComponentType } from 'react';
import { get, m } from '../api';
import type { Component, Field } from '../types';
import type { WidgetProps } from './FieldWidget';
import { useProblemsAt } from './problems';
import { labelOf } from './values';

/** A component value as stored: `{component: "<alias>", …its fields}`. */
type Item = { component: string } & Record<string, unknown>;

const isItem = (v: unknown): v is Item => typeof v === 'object' && v !== null && !Array.isArray(v) && typeof (v as Item).component === 'string';

/** The organization's components (every component field of every model reads the same list). */
export const useComponents = () => useQuery({ queryKey: ['components'], queryFn: () => get<Component[]>(m('/components')), staleTime: 60_000 });

interface Props {
  field: Field;
  id: string;
  label: string;
  /** The value's path after `fields.` (`body`, `body[0].cta`), where its problems are found. */
  path: string;
  value: unknown;
  onChange: (v: unknown) => void;
  onInvalid: (problem: string | null) => void;
  disabled: boolean;
  describedBy?: string;
  /** The field widget, passed in (it renders this one for component fields: no import cycle). */
  Widget: ComponentType<WidgetProps>;
}

/**
 * A component field, single or a list: each value a group of the component's own fields drawn
 * with the same widgets as the entry's, named after where it sits (`body 2 › heading`) so every
 * control's name is unique. A list's items are added by kind (one button per allowed component),
 * moved and removed; problems show on the nested field their path names.
 */
export function ComponentField({ field, id, label, path, value, onChange, onInvalid, disabled, describedBy, Widget }: Props) {
  const components = useComponents();
  const list = field.valueType === 'list';
  const items: Item[] = list ? (Array.isArray(value) ? value.filter(isItem) : []) : isItem(value) ? [value] : [];
  const kindOf = (alias: string): Component => components.data?.find((c) => c.alias === alias) ?? { alias, name: alias, fields: [] };
  const allowed = (field.components ?? []).map(kindOf);

  // stable keys for the items, so a move keeps each item's inputs (and their typed text) with it
  const keys = useRef<number[]>([]);
  const nextKey = useRef(0);
  if (keys.current.length !== items.length) keys.current = items.map(() => nextKey.current++);

  const set = (next: Item[], nextKeys: number[]) => {
    keys.current = nextKeys;
    onChange(list ? (next.length > 0 ? next : null) : (next[0] ?? null));
  };
  const add = (alias: string) => set([...items, { component: alias }], [...keys.current, nextKey.current++]);
  const remove = (i: number) => set(items.filter((_, j) => j !== i), keys.current.filter((_, j) => j !== i));
  const move = (i: number, by: -1 | 1) => {
    const order = items.map((_, j) => j);
    [order[i], order[i + by]] = [order[i + by], order[i]];
    set(
      order.map((j) => items[j]),
      order.map((j) => keys.current[j]),
    );
  };
  const change = (i: number, alias: string, v: unknown) => set(
    items.map((it, j) => (j === i ? { ...it, [alias]: v } : it)),
    keys.current,
  );

  // a nested JSON field that does not parse blocks the save like a top-level one
  const [invalid, setInvalid] = useState<Record<string, string>>({});
  const report = useRef(onInvalid);
  report.current = onInvalid;
  useEffect(() => report.current(Object.values(invalid)[0] ?? null), [invalid]);
  useEffect(() => () => report.current(null), []);
  const invalidAt = useCallback(
    (key: string) => (p: string | null) => setInvalid((cur) => {
      if ((cur[key] ?? null) === p) return cur;
      const next = { ...cur };
      if (p === null) delete next[key];
      else next[key] = p;
      return next;
    }),
    [],
  );

  return (
    <fieldset className="component-field" id={id} aria-describedby={describedBy}>
      <legend>
        {label}
        {field.required && <span className="required"> (required)</span>}
      </legend>
      {components.isError && <p role="alert">The components could not be read: {components.error.message}</p>}
      {items.length === 0 && <p className="muted">Nothing yet.</p>}
      <ol className="component-items">
        {items.map((item, i) => {
          const at = list ? `${label} ${i + 1}` : label;
          const itemPath = list ? `${path}[${i}]` : path;
          const kind = kindOf(item.component);
          return (
            <li key={keys.current[i]}>
              <ComponentItem
                item={item}
                kind={kind}
                at={at}
                itemPath={itemPath}
                idBase={list ? `${id}-${keys.current[i]}` : `${id}-value`}
                disabled={disabled}
                Widget={Widget}
                onField={(alias, v) => change(i, alias, v)}
                onInvalid={(alias) => invalidAt(`${keys.current[i]}.${alias}`)}
              />
              {!disabled && (
                <div className="item-actions">
                  {list && (
                    <>
                      <button type="button" disabled={i === 0} onClick={() => move(i, -1)}>
                        Move {at} up
                      </button>
                      <button type="button" disabled={i === items.length - 1} onClick={() => move(i, 1)}>
                        Move {at} down
                      </button>
                    </>
                  )}
                  <button type="button" onClick={() => remove(i)}>
                    Remove {at}
                  </button>
                </div>
              )}
            </li>
          );
        })}
      </ol>
      {!disabled && (list || items.length === 0) && (
        <div className="add-kinds">
          {allowed.map((k) => (
            <button type="button" key={k.alias} onClick={() => add(k.alias)}>
              Add {k.name} to {label}
            </button>
          ))}
        </div>
      )}
    </fieldset>
  );
}

/** What an item and each of its fields are drawn with. */
interface ItemProps {
  item: Item;
  /** Its name on screen: `body 2` in a list, the field's label for a single value. */
  at: string;
  itemPath: string;
  idBase: string;
  disabled: boolean;
  Widget: ComponentType<WidgetProps>;
  onField: (alias: string, v: unknown) => void;
  onInvalid: (alias: string) => (p: string | null) => void;
}

/** One component value: its kind, its problems, and each of its fields' widgets. */
function ComponentItem({ kind, ...props }: ItemProps & { kind: Component }) {
  const { at, itemPath } = props;
  const problems = [...useProblemsAt(`${itemPath}.component`), ...useProblemsAt(itemPath)];
  return (
    <fieldset className="component-item">
      <legend>
        {at}: {kind.name}
      </legend>
      {problems.length > 0 && <p className="error">{problems.join('; ')}</p>}
      {kind.fields.map((f) => (
        <NestedField key={f.alias} f={f} {...props} />
      ))}
    </fieldset>
  );
}

function NestedField({ f, item, at, itemPath, idBase, disabled, Widget, onField, onInvalid }: ItemProps & { f: Field }) {
  const path = `${itemPath}.${f.alias}`;
  const problems = useProblemsAt(path);
  const invalid = onInvalid(f.alias);
  // one callback per field for the widget's lifetime (JSON widgets clear their problem on unmount)
  const stable = useRef(invalid);
  return (
    <Widget
      field={{ ...f, localized: false }}
      path={path}
      idBase={`${idBase}-${f.alias}`}
      label={`${at} › ${labelOf(f)}`}
      value={item[f.alias]}
      problems={problems}
      disabled={disabled}
      onInvalid={stable.current}
      onChange={(v) => onField(f.alias, v)}
    />
  );
}
