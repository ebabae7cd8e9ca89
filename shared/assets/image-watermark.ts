import type { Queryable } from '../adapters/db/index.js';
import { badRequest } from '../errors/index.js';
import { findAsset } from './asset-repository.js';
import { isTransformable } from './source-format.js';
import type { ImageWatermark } from './types.js';

/**
 * An organization's default watermark must name one of its own image assets when it is set: an
 * id of another organization is refused as not found here, like any id it does not have.
 */
export async function checkWatermark(db: Queryable, orgId: string, mark: ImageWatermark | null | undefined): Promise<void> {
  if (!mark) return;
  const asset = await findAsset(db, orgId, mark.assetId);
  if (!asset || asset.type !== 'IMAGE' || !isTransformable(asset.contentType)) {
    throw badRequest(`imageWatermark.assetId: no image asset "${mark.assetId}" in this organization (SVG and files cannot be drawn).`);
  }
}
