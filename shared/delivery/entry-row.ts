import type { EntryDbRow } from '../content/entry-row.js';
import { lit } from './sql-params.js';

/** One `entries` row as the read side selects it (the table's row type lives with the writer). */
export type EntryRow = Omit<EntryDbRow, 'in_preview' | 'in_delivery' | 'scheduled_at'>;

export type EntryColumn = keyof EntryRow;

const COLUMNS: EntryColumn[] = [
  'row_id',
  'id',
  'model_alias',
  'model_id',
  'site_id',
  'status',
  'title',
  'slug',
  'external_id',
  'cloned_from',
  'version_id',
  'labels',
  'attrs',
  'fields',
  'metrics',
  'published_at',
  'first_published_at',
  'unpublished_at',
  'created_at',
  'updated_at',
];

/**
 * A narrowed row (see `entryShape`): only these columns, and of `fields` only these keys.
 * A key that is not in a row's `fields` reads as null, which is what a missing value reads as.
 */
export interface EntryShape {
  columns: ReadonlySet<EntryColumn>;
  fieldKeys: ReadonlySet<string>;
}

const shapeKeys = new WeakMap<EntryShape, string>();

/** A key naming the shape (loader and statement caches); `*` for whole rows. */
export function shapeKey(shape: EntryShape | null): string {
  if (!shape) return '*';
  let key = shapeKeys.get(shape);
  if (key === undefined) shapeKeys.set(shape, (key = `${[...shape.columns].sort().join(',')}:${[...shape.fieldKeys].sort().join(',')}`));
  return key;
}

/** Whether a row read in shape `a` (null: whole) carries everything a reader of `b` needs. */
export function shapeCovers(a: EntryShape | null, b: EntryShape): boolean {
  if (a === null || a === b) return true;
  for (const c of b.columns) if (!a.columns.has(c)) return false;
  for (const k of b.fieldKeys) if (!a.fieldKeys.has(k)) return false;
  return true;
}

/** Rows that serve every one of these readers; whole rows when one of them needs them. */
export function unionShapes(shapes: ReadonlyArray<EntryShape | null>): EntryShape | null {
  if (shapes.some((s) => s === null)) return null;
  const all = shapes as EntryShape[];
  return { columns: new Set(all.flatMap((s) => [...s.columns])), fieldKeys: new Set(all.flatMap((s) => [...s.fieldKeys])) };
}

/** Postgres takes at most 100 arguments per call, so `jsonb_build_object` at most 50 pairs. */
const MAX_BUILT_KEYS = 50;

const fieldsSql = (e: string, keys: ReadonlySet<string>): string => {
  if (keys.size === 0) return `'{}'::jsonb AS fields`;
  if (keys.size > MAX_BUILT_KEYS) return `${e}.fields`;
  return `jsonb_build_object(${[...keys].map((k) => `${lit(k)}, ${e}.fields -> ${lit(k)}`).join(', ')}) AS fields`;
};

/** Every column, or only the shape's (kept in table order) for rows whose readers need no more. */
export const entryColumns = (e = 'e', only?: EntryShape): string =>
  (only ? COLUMNS.filter((c) => only.columns.has(c)) : COLUMNS)
    .map((c) => (only && c === 'fields' ? fieldsSql(e, only.fieldKeys) : `${e}.${c}`))
    .join(', ');
