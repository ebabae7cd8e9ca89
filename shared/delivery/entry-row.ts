import type { EntryDbRow } from '../content/entry-row.js';

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

/** Every column, or only `only` (kept in table order) for rows whose readers need no more. */
export const entryColumns = (e = 'e', only?: ReadonlySet<EntryColumn>): string =>
  (only ? COLUMNS.filter((c) => only.has(c)) : COLUMNS).map((c) => `${e}.${c}`).join(', ');
