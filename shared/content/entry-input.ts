import { z } from 'zod';
import { ENTRY_STATUSES } from './model-types.js';

/** What the entries list can be ordered by, besides its creation order. */
export const ENTRY_SORTS = ['updatedAt', 'createdAt', 'title', 'status'] as const;
export type EntrySort = (typeof ENTRY_SORTS)[number];

/** Client-chosen ids (entries, sections, authors, labels, lists): URL-safe, at most 128 characters. */
export const CLIENT_ID = /^[A-Za-z0-9][A-Za-z0-9_.:-]{0,127}$/;
export const clientIdSchema = z.string().regex(CLIENT_ID, 'must be 1–128 characters of A–Z a–z 0–9 _ . : - (starting with a letter or digit)');

const common = {
  siteId: z.string().min(1).max(128),
  fields: z.record(z.string(), z.unknown()),
  slug: z.string().max(500).nullable(),
  externalId: z.string().max(500).nullable(),
  labels: z.array(z.string().min(1).max(128)).max(100),
  attrs: z.record(z.string(), z.unknown()).nullable(),
  /** Values of localized fields in the non-default locales: {code: {alias: value}}. */
  locales: z.record(z.string(), z.record(z.string(), z.unknown()).nullable()),
};

/** `POST /entries` and `PUT /entries/:id` (and `entry` lines of an import). */
export const entryInputSchema = z.strictObject({
  model: z.string().min(1).max(64),
  siteId: common.siteId,
  fields: common.fields.optional(),
  slug: common.slug.optional(),
  externalId: common.externalId.optional(),
  labels: common.labels.optional(),
  attrs: common.attrs.optional(),
  locales: common.locales.optional(),
  status: z.enum(['DRAFT', 'PUBLISHED', 'ARCHIVED']).optional(),
  publishedAt: z.string().optional(),
  firstPublishedAt: z.string().optional(),
  createdAt: z.string().optional(),
});
export type EntryInput = z.infer<typeof entryInputSchema>;

/** `PATCH /entries/:id`: `fields` are merged by alias (null clears one); other members replace. */
export const entryPatchSchema = z.strictObject({
  siteId: common.siteId.optional(),
  fields: common.fields.optional(),
  slug: common.slug.optional(),
  externalId: common.externalId.optional(),
  labels: common.labels.optional(),
  attrs: common.attrs.optional(),
  locales: common.locales.optional(),
});
export type EntryPatch = z.infer<typeof entryPatchSchema>;

/**
 * A schedule: `at` publishes the current version then; `unpublishAt` withdraws the published
 * entry then (null cancels it). At least one of them.
 */
export const scheduleInputSchema = z
  .strictObject({ at: z.string().min(1).optional(), unpublishAt: z.string().min(1).nullable().optional() })
  .refine((s) => s.at !== undefined || s.unpublishAt !== undefined, 'name "at" (publish then), "unpublishAt" (unpublish then), or both');
export type ScheduleInput = z.infer<typeof scheduleInputSchema>;

/** How long an organization keeps entry versions: the newest `versionsKept` per entry, and none older than `versionsDays` (null: no age limit). */
export const versionRetentionPatchSchema = z
  .strictObject({
    versionsKept: z.number().int().min(1).max(10_000).optional(),
    versionsDays: z.number().int().min(1).max(36_500).nullable().optional(),
  })
  .refine((p) => p.versionsKept !== undefined || p.versionsDays !== undefined, 'name versionsKept, versionsDays or both');

/** `GET /entries`: filters of the listing (paging is parsePage's); other query parameters are ignored. */
export const entryListQuerySchema = z.object({
  model: z.string().min(1).max(64).optional(),
  status: z.enum(ENTRY_STATUSES).optional(),
  updatedSince: z
    .string()
    .refine((v) => !Number.isNaN(Date.parse(v)) && /^\d{4}-\d\d-\d\dT/.test(v), 'an ISO 8601 date-time, e.g. 2026-11-01T00:00:00Z')
    .transform((v) => new Date(v))
    .optional(),
  /** Show each entry's fields as read in this locale (with its fallbacks). */
  locale: z.string().min(1).max(40).optional(),
  /** Words to find in the entries' text fields (read in `locale`, else the default), the most relevant first. */
  search: z.string().trim().min(1).max(500).optional(),
  /** Entries with values in this locale (every entry has the default locale's). */
  hasLocale: z.string().min(1).max(40).optional(),
  /** Entries carrying this label id. */
  label: clientIdSchema.optional(),
  /** Entries whose author fields name this author id. */
  author: clientIdSchema.optional(),
  /** Entries that use this asset (media fields, media blocks of rich content, components): where it is used. */
  asset: z.string().regex(/^[A-Za-z0-9_-]{1,64}$/, 'must be an asset id').optional(),
  /** The order: creation order (the default; relevance first with `search`) unless named here. */
  sort: z.enum(ENTRY_SORTS, `must be one of ${ENTRY_SORTS.join(', ')}`).optional(),
  /** The direction of `sort`: newest first for dates, A–Z for title and status unless named. */
  order: z.enum(['asc', 'desc'], 'must be asc or desc').optional(),
});
