import { z } from 'zod';
import { conflict } from '../errors/index.js';
import { clientIdSchema } from './entry-input.js';
import { hasEdgesTo } from './resource-repository.js';
import type { ResourceDef } from './resources.js';
import { findAssetTypes } from './target-repository.js';

const text = (max = 500) => z.string().max(max).nullable().optional();

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

export const authorDef: ResourceDef = {
  name: 'Author',
  spec: {
    table: 'authors',
    columns: {
      userId: 'user_id',
      byline: 'byline',
      externalId: 'external_id',
      firstName: 'first_name',
      lastName: 'last_name',
      url: 'url',
      imageId: 'image_id',
      biography: 'biography',
      profession: 'profession',
      email: 'email',
      website: 'website',
      facebook: 'facebook',
      instagram: 'instagram',
      twitter: 'twitter',
      linkedin: 'linkedin',
      tiktok: 'tiktok',
      telegram: 'telegram',
    },
    hasUpdatedAt: true,
    orderBy: 'created_at, id',
  },
  async check(tx, orgId, _id, values) {
    const imageId = values.imageId;
    if (typeof imageId !== 'string') return [];
    const found = await findAssetTypes(tx, orgId, [imageId]);
    if (!found.has(imageId)) return [`imageId: asset "${imageId}" not found`];
    return found.get(imageId) === 'IMAGE' ? [] : [`imageId: asset "${imageId}" is not an image`];
  },
  async beforeDelete(tx, orgId, id) {
    if (await hasEdgesTo(tx, orgId, ['author'], id)) throw conflict(`Author "${id}" is used by entries.`);
  },
};
