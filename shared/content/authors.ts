import { conflict } from '../errors/index.js';
import { hasEdgesTo } from './resource-repository.js';
import type { ResourceDef } from './resources.js';
import { findAssetTypes } from './target-repository.js';

export const authorDef: ResourceDef = {
  name: 'Author',
  event: 'author.changed',
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
