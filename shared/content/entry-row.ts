import type { EntryStatus } from './model-types.js';
import type { EntryMetrics } from './metrics.js';
import type { LocaleValues } from './locale-types.js';

/** One `entries` row (one visible version of an entry), in domain names. */
export interface EntryRow {
  rowId: number;
  id: string;
  inPreview: boolean;
  inDelivery: boolean;
  modelAlias: string;
  modelId: string;
  siteId: string;
  status: EntryStatus;
  title: string | null;
  slug: string | null;
  externalId: string | null;
  clonedFrom: string | null;
  versionId: string;
  labels: string[];
  attrs: unknown;
  fields: Record<string, unknown>;
  /** Values of localized fields in the non-default locales; null when none. */
  locales: LocaleValues | null;
  /** The localized title field's values in the other locales, one per line (a search index); null when none. */
  localeTitles: string | null;
  metrics: EntryMetrics | null;
  publishedAt: Date | null;
  firstPublishedAt: Date | null;
  unpublishedAt: Date | null;
  scheduledAt: Date | null;
  /** A scheduled unpublish (on the preview row). */
  unpublishAt: Date | null;
  createdAt: Date;
  updatedAt: Date;
  /** The entry's place in listings: taken at its creation, kept by the rows of later versions. */
  seq: number;
}

/** A row to insert: a new entry's has no `seq` yet (the database numbers it). */
export type NewEntryRow = Omit<EntryRow, 'rowId' | 'seq'> & { seq?: number };

/** Domain name → column, for every writable column. */
export const ENTRY_COLUMNS: Record<keyof NewEntryRow, string> = {
  id: 'id',
  inPreview: 'in_preview',
  inDelivery: 'in_delivery',
  modelAlias: 'model_alias',
  modelId: 'model_id',
  siteId: 'site_id',
  status: 'status',
  title: 'title',
  slug: 'slug',
  externalId: 'external_id',
  clonedFrom: 'cloned_from',
  versionId: 'version_id',
  labels: 'labels',
  attrs: 'attrs',
  fields: 'fields',
  locales: 'locales',
  localeTitles: 'locale_titles',
  metrics: 'metrics',
  publishedAt: 'published_at',
  firstPublishedAt: 'first_published_at',
  unpublishedAt: 'unpublished_at',
  scheduledAt: 'scheduled_at',
  unpublishAt: 'unpublish_at',
  createdAt: 'created_at',
  updatedAt: 'updated_at',
  seq: 'seq',
};

export const JSON_COLUMNS: ReadonlySet<string> = new Set(['attrs', 'fields', 'locales', 'metrics']);

/**
 * The columns a row is read with (see `fromDb`), prefixed with `alias.` when given: every one
 * but those the database derives for its indexes (`search_titles`), which no reader needs.
 */
export const entryReadColumns = (alias?: string): string =>
  ['row_id', ...Object.values(ENTRY_COLUMNS)].map((c) => (alias ? `${alias}.${c}` : c)).join(', ');

/**
 * What an export reads of one row: the members an import line takes, named as the export uses
 * them, the JSON values left as the text Postgres sends (passed on, never parsed and written again).
 */
export interface ExportEntryRow {
  rowId: number;
  id: string;
  seq: number;
  inPreview: boolean;
  inDelivery: boolean;
  modelAlias: string;
  siteId: string;
  status: EntryStatus;
  slug: string | null;
  externalId: string | null;
  labels: string[];
  attrs: string | null;
  fields: string;
  locales: string | null;
  createdAt: Date;
  publishedAt: Date | null;
  firstPublishedAt: Date | null;
}

/** The columns of an `ExportEntryRow`, of the table (or alias) `t`. */
export const exportReadColumns = (t: string): string =>
  `${t}.row_id AS "rowId", ${t}.id, ${t}.seq, ${t}.in_preview AS "inPreview", ${t}.in_delivery AS "inDelivery", ${t}.model_alias AS "modelAlias", ` +
  `${t}.site_id AS "siteId", ${t}.status, ${t}.slug, ${t}.external_id AS "externalId", ${t}.labels, ${t}.attrs::text AS attrs, ` +
  `${t}.fields::text AS fields, ${t}.locales::text AS locales, ${t}.created_at AS "createdAt", ${t}.published_at AS "publishedAt", ` +
  `${t}.first_published_at AS "firstPublishedAt"`;

export interface EntryDbRow {
  row_id: number;
  id: string;
  in_preview: boolean;
  in_delivery: boolean;
  model_alias: string;
  model_id: string;
  site_id: string;
  status: EntryStatus;
  title: string | null;
  slug: string | null;
  external_id: string | null;
  cloned_from: string | null;
  version_id: string;
  labels: string[];
  attrs: unknown;
  fields: Record<string, unknown>;
  locales: LocaleValues | null;
  locale_titles: string | null;
  metrics: EntryMetrics | null;
  published_at: Date | null;
  first_published_at: Date | null;
  unpublished_at: Date | null;
  scheduled_at: Date | null;
  unpublish_at: Date | null;
  created_at: Date;
  updated_at: Date;
  seq: string | number;
}

export const fromDb = (r: EntryDbRow): EntryRow => ({
  rowId: Number(r.row_id),
  id: r.id,
  inPreview: r.in_preview,
  inDelivery: r.in_delivery,
  modelAlias: r.model_alias,
  modelId: r.model_id,
  siteId: r.site_id,
  status: r.status,
  title: r.title,
  slug: r.slug,
  externalId: r.external_id,
  clonedFrom: r.cloned_from,
  versionId: r.version_id,
  labels: r.labels,
  attrs: r.attrs,
  fields: r.fields,
  locales: r.locales ?? null,
  localeTitles: r.locale_titles ?? null,
  metrics: r.metrics,
  publishedAt: r.published_at,
  firstPublishedAt: r.first_published_at,
  unpublishedAt: r.unpublished_at,
  scheduledAt: r.scheduled_at,
  unpublishAt: r.unpublish_at,
  createdAt: r.created_at,
  updatedAt: r.updated_at,
  seq: Number(r.seq),
});
