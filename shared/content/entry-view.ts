import type { EntryStatus } from './model-types.js';
import type { EntryRow } from './entry-row.js';
import type { LocaleValues } from './locale-types.js';

const iso = (d: Date | null) => (d ? d.toISOString() : null);

/** An entry as the management API returns it: its current (preview) version. */
export interface EntryView {
  id: string;
  model: string;
  modelId: string;
  siteId: string;
  status: EntryStatus;
  versionId: string;
  /** The version delivery tokens read, when it differs from `versionId` (an EDITED entry). */
  publishedVersionId: string | null;
  title: string | null;
  slug: string | null;
  externalId: string | null;
  labels: string[];
  attrs: unknown;
  fields: Record<string, unknown>;
  /** Values of localized fields in the non-default locales (present only when the entry has some). */
  locales?: LocaleValues;
  /** The locale the fields are read in (a listing asked with `locale`). */
  locale?: string;
  metrics: unknown;
  publishedAt: string | null;
  firstPublishedAt: string | null;
  unpublishedAt: string | null;
  scheduledAt: string | null;
  /** When the published entry is to be unpublished (a scheduled unpublish), or null. */
  unpublishAt: string | null;
  createdAt: string;
  updatedAt: string;
}

export function entryView(preview: EntryRow, delivery: EntryRow | null): EntryView {
  return {
    id: preview.id,
    model: preview.modelAlias,
    modelId: preview.modelId,
    siteId: preview.siteId,
    status: preview.status,
    versionId: preview.versionId,
    publishedVersionId: delivery ? delivery.versionId : null,
    title: preview.title,
    slug: preview.slug,
    externalId: preview.externalId,
    labels: preview.labels,
    attrs: preview.attrs ?? null,
    fields: preview.fields,
    ...(preview.locales ? { locales: preview.locales } : {}),
    metrics: preview.metrics,
    publishedAt: iso(preview.publishedAt),
    firstPublishedAt: iso(preview.firstPublishedAt),
    unpublishedAt: iso(preview.unpublishedAt),
    scheduledAt: iso(preview.scheduledAt),
    unpublishAt: iso(preview.unpublishAt),
    createdAt: preview.createdAt.toISOString(),
    updatedAt: preview.updatedAt.toISOString(),
  };
}
