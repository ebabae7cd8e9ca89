/** One `entries` row as the read side selects it. */
export interface EntryRow {
  row_id: number;
  id: string;
  model_alias: string;
  model_id: string;
  site_id: string;
  status: string;
  title: string | null;
  slug: string | null;
  external_id: string | null;
  cloned_from: string | null;
  version_id: string;
  labels: string[];
  attrs: unknown;
  fields: Record<string, unknown>;
  metrics: Record<string, number> | null;
  published_at: Date | null;
  first_published_at: Date | null;
  unpublished_at: Date | null;
  created_at: Date;
  updated_at: Date;
}

const COLUMNS = [
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

export const entryColumns = (e = 'e'): string => COLUMNS.map((c) => `${e}.${c}`).join(', ');
