import { z } from 'zod';
import { clientIdSchema } from './entry-input.js';

/**
 * Input schemas of the four content resources (sections, authors, labels, lists): the body of
 * POST (`*InputSchema`) and PATCH (`*PatchSchema`), shared by the REST routes, the OpenAPI
 * document and the import's lines, so one rule holds wherever a resource comes in.
 */

const text = (max = 500) => z.string().max(max).nullable().optional();

export const sectionPatchSchema = z.strictObject({
  parentId: z.string().min(1).max(128).nullable().optional(),
  title: text(500),
  slug: text(500),
  url: text(2000),
  siteId: z.string().min(1).max(128).nullable().optional(),
  externalId: text(500),
  description: text(20_000),
  /** Place among its siblings (lowest first); null: after the placed ones, by title. */
  position: z.number().int().min(0).max(1_000_000).nullable().optional(),
});
export const sectionInputSchema = sectionPatchSchema.extend({ id: clientIdSchema.optional() });
export const sectionMediaSchema = z.union([z.array(z.string().min(1).max(128)).max(1000), z.strictObject({ assetIds: z.array(z.string().min(1).max(128)).max(1000) })]);

/** Every member of `CmsAuthor` except `image`, which GraphQL resolves from `imageId`. */
export const authorPatchSchema = z.strictObject({
  userId: text(),
  byline: text(),
  externalId: text(),
  firstName: text(),
  lastName: text(),
  url: text(2000),
  imageId: z.string().min(1).max(128).nullable().optional(),
  biography: text(50_000),
  profession: z.array(z.string().min(1).max(200)).max(50).optional(),
  email: z.email().max(320).nullable().optional(),
  website: text(2000),
  facebook: text(),
  instagram: text(),
  twitter: text(),
  linkedin: text(),
  tiktok: text(),
  telegram: text(),
});
export const authorInputSchema = authorPatchSchema.extend({ id: clientIdSchema.optional() });

export const labelPatchSchema = z.strictObject({
  name: z.string().trim().min(1).max(200).optional(),
  description: z.string().max(2000).nullable().optional(),
  color: z.string().max(50).nullable().optional(),
  siteId: z.string().min(1).max(128).nullable().optional(),
  externalId: z.string().max(500).nullable().optional(),
});
export const labelInputSchema = labelPatchSchema.extend({ id: clientIdSchema.optional(), name: z.string().trim().min(1).max(200) });

export const listPatchSchema = z.strictObject({
  name: z.string().trim().min(1).max(200).optional(),
  description: z.string().max(2000).nullable().optional(),
  siteId: z.string().min(1).max(128).nullable().optional(),
  externalId: z.string().max(500).nullable().optional(),
});
export const listInputSchema = listPatchSchema.extend({ id: clientIdSchema.optional(), name: z.string().trim().min(1).max(200) });

const itemSchema = z.strictObject({
  entryId: z.string().min(1).max(128),
  startAt: z.string().nullable().optional(),
  endAt: z.string().nullable().optional(),
});
/** `PUT /lists/:id/entries`: a bare array or `{entries: [...]}`. */
export const listEntriesSchema = z.union([z.array(itemSchema).max(10_000), z.strictObject({ entries: z.array(itemSchema).max(10_000) })]);
export type ListEntriesInput = z.infer<typeof itemSchema>[];
