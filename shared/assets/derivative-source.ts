import { createHash } from 'node:crypto';
import type { Queryable } from '../adapters/db/index.js';
import { assetDerivativeKey, originalKey } from '../adapters/blobs/keys.js';
import { badRequest, notFound } from '../errors/index.js';
import type { AssetCaches } from './asset-caches.js';
import { findAssetForDelivery } from './asset-read-cache.js';
import { encodeOps, extOfFormat } from './image-ops.js';
import { isTransformable } from './source-format.js';
import type { ImagePathParts } from './url-grammar.js';

/**
 * Derivative key = hash of (org, asset, version, normalized operations, output format) and, for a
 * video's poster, the poster's own identity (the poster can change without a new video version).
 */
export function derivativeKeyOf(parts: ImagePathParts, sourceIdentity = ''): { key: string; etag: string } {
  const text = `${parts.orgId}/${parts.assetId}/${parts.versionId}/${encodeOps(parts.ops)}.${extOfFormat(parts.ops.format)}/${sourceIdentity}`;
  const hash = createHash('sha256').update(text).digest('hex');
  return { key: assetDerivativeKey(parts.orgId, parts.assetId, hash, extOfFormat(parts.ops.format)), etag: `"${hash.slice(0, 40)}"` };
}

export interface DerivativeSource {
  sourceKey: string;
  key: string;
  etag: string;
  /** False for video posters: the same URL may show another poster later. */
  immutable: boolean;
  /** The source's pixel size when it is known (for the pixel budget of a miss). */
  size: { width: number; height: number } | null;
  /** The overlay's pixel size, when there is one and it is known (for the cost of a miss). */
  overlaySize?: { width: number; height: number } | null;
}

const sizeOf = (a: { width: number | null; height: number | null }) => (a.width && a.height ? { width: a.width, height: a.height } : null);

/** Where a derivative's pixels come from: the asset's original, or a video's poster. 404 for unknown or outdated assets. */
export async function resolveDerivativeSource(db: Queryable, caches: AssetCaches, parts: ImagePathParts): Promise<DerivativeSource> {
  const source = await baseSource(db, caches, parts);
  const o = parts.ops.overlay;
  if (!o) return source;
  // Looked up in the URL's organization only: another organization's asset id is not found.
  const overlay = await findAssetForDelivery(db, caches, parts.orgId, o.assetId);
  if (!overlay || overlay.versionId !== o.versionId) throw notFound('Overlay image');
  if (overlay.type !== 'IMAGE' || !isTransformable(overlay.contentType)) throw badRequest('Image operation "o": the overlay must be an image asset (not SVG).');
  return { ...source, overlaySize: sizeOf(overlay) };
}

async function baseSource(db: Queryable, caches: AssetCaches, parts: ImagePathParts): Promise<DerivativeSource> {
  const asset = await findAssetForDelivery(db, caches, parts.orgId, parts.assetId);
  if (!asset || asset.versionId !== parts.versionId) throw notFound('Image');
  if (asset.type === 'VIDEO' || asset.type === 'VIDEO_PLAYLIST') {
    if (asset.posterAssetId) {
      const poster = await findAssetForDelivery(db, caches, parts.orgId, asset.posterAssetId);
      if (poster && isTransformable(poster.contentType)) {
        return { sourceKey: originalKey(parts.orgId, poster.id, poster.versionId), ...derivativeKeyOf(parts, `poster:${poster.id}:${poster.versionId}`), immutable: false, size: sizeOf(poster) };
      }
    }
    // an extracted frame has the video's size
    if (asset.posterKey) return { sourceKey: asset.posterKey, ...derivativeKeyOf(parts, asset.posterKey), immutable: false, size: sizeOf(asset) };
    throw notFound('Video poster');
  }
  if (!isTransformable(asset.contentType)) throw badRequest(`Assets of type ${asset.contentType} are served as originals only.`);
  return { sourceKey: originalKey(parts.orgId, asset.id, asset.versionId), ...derivativeKeyOf(parts), immutable: true, size: sizeOf(asset) };
}
