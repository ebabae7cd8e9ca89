import type { Readable } from 'node:stream';
import type { BlobStore } from '../adapters/blobs/index.js';
import type { EventBus } from '../adapters/bus/index.js';
import { assetFilesPrefix, originalKey, originalsPrefix } from '../adapters/blobs/keys.js';
import { bumpContentVersion } from '../content/org-versions.js';
import { recordEvents } from '../events/record-events.js';
import type { Db, Queryable } from '../adapters/db/index.js';
import { notFound, unprocessable } from '../errors/index.js';
import { newId } from '../ids.js';
import type { Logger } from '../logger.js';
import { deleteAsset, findAsset, insertAsset, patchAsset, replaceAssetContent, type AssetMetadata, type AssetPatch } from './asset-repository.js';
import { announceAssetChange } from './asset-invalidation.js';
import type { AssetCaches } from './asset-caches.js';
import { storeUpload } from './store-upload.js';
import type { Asset } from './types.js';

export interface AssetServiceDeps {
  db: Db;
  blobs: BlobStore;
  /** Where changes are announced to other instances' caches (none: this process only). */
  bus?: EventBus;
  logger?: Logger;
  /** Upload size limit in bytes (413 beyond). */
  maxBytes: number;
  /** The ffmpeg binary for video posters, when one is found (none: posters are not extracted). */
  ffmpeg?: () => Promise<string | null>;
  assetCaches: AssetCaches;
}

/** Removes every object under a prefix; used for cleanup, so failures are swallowed. */
async function deletePrefix(blobs: BlobStore, prefix: string): Promise<void> {
  try {
    const keys: string[] = [];
    for await (const key of blobs.list(prefix)) keys.push(key);
    await Promise.all(keys.map((k) => blobs.delete(k)));
  } catch {
    // orphaned objects are harmless: nothing references them
  }
}

async function dropVersion(blobs: BlobStore, orgId: string, content: { versionId: string; posterKey: string | null }, assetId: string) {
  await blobs.delete(originalKey(orgId, assetId, content.versionId)).catch(() => undefined);
  if (content.posterKey) await blobs.delete(content.posterKey).catch(() => undefined);
}

/** An asset event: enough of the asset for a receiver to purge or refetch what it shows. */
function recordAssetEvent(tx: Queryable, type: 'asset.created' | 'asset.updated' | 'asset.deleted', asset: Asset, extra: Record<string, unknown> = {}): Promise<void> {
  const data = { id: asset.id, type: asset.type, versionId: asset.versionId, fileName: asset.fileName, contentType: asset.contentType, ...extra };
  return recordEvents(tx, asset.orgId, [{ type, subject: `asset:${asset.id}`, data }]);
}

/**
 * Upload → blob, then the row and the org's content version in one transaction; a failed row
 * removes the blob. `id` keeps an asset's id from elsewhere (an import); by default a new one.
 */
export async function createAsset(deps: AssetServiceDeps, orgId: string, source: Readable, meta: AssetMetadata, id = newId()): Promise<Asset> {
  const content = await storeUpload({ blobs: deps.blobs, ffmpeg: (await deps.ffmpeg?.()) ?? null, logger: deps.logger }, { orgId, assetId: id }, source, deps.maxBytes);
  try {
    return await deps.db.transaction(async (tx) => {
      const asset = await insertAsset(tx, orgId, id, content, meta);
      await recordAssetEvent(tx, 'asset.created', asset);
      await bumpContentVersion(tx, orgId);
      return asset;
    });
  } catch (err) {
    await dropVersion(deps.blobs, orgId, content, id);
    throw err;
  }
}

/** A new version of the bytes; the previous original is removed once the new one is committed. */
export async function replaceContent(deps: AssetServiceDeps, orgId: string, id: string, source: Readable, meta: AssetMetadata): Promise<Asset> {
  const before = await findAsset(deps.db, orgId, id);
  if (!before) {
    source.resume();
    throw notFound(`Asset "${id}"`);
  }
  const content = await storeUpload({ blobs: deps.blobs, ffmpeg: (await deps.ffmpeg?.()) ?? null, logger: deps.logger }, { orgId, assetId: id }, source, deps.maxBytes);
  let asset: Asset | null;
  try {
    asset = await deps.db.transaction(async (tx) => {
      const updated = await replaceAssetContent(tx, orgId, id, content, meta);
      if (updated) {
        await recordAssetEvent(tx, 'asset.updated', updated, { previousVersionId: before.versionId, content: true });
        await bumpContentVersion(tx, orgId);
      }
      return updated;
    });
  } catch (err) {
    await dropVersion(deps.blobs, orgId, content, id);
    throw err;
  }
  if (!asset) {
    await dropVersion(deps.blobs, orgId, content, id);
    throw notFound(`Asset "${id}"`);
  }
  await announceAssetChange(deps, { orgId, assetId: id, bytes: true });
  await dropVersion(deps.blobs, orgId, before, id);
  return asset;
}

export async function updateAsset(deps: Pick<AssetServiceDeps, 'db' | 'blobs' | 'bus' | 'logger' | 'assetCaches'>, orgId: string, id: string, patch: AssetPatch): Promise<Asset> {
  const updated = await deps.db.transaction(async (tx) => {
    const current = await findAsset(tx, orgId, id, { forUpdate: true });
    if (!current) throw notFound(`Asset "${id}"`);
    if (patch.posterAssetId) {
      if (current.type !== 'VIDEO' && current.type !== 'VIDEO_PLAYLIST') {
        throw unprocessable('Invalid request body.', ['posterAssetId: only video assets have a poster']);
      }
      const poster = patch.posterAssetId === id ? null : await findAsset(tx, orgId, patch.posterAssetId);
      if (!poster || poster.type !== 'IMAGE') {
        throw unprocessable('Invalid request body.', [`posterAssetId: no image asset "${patch.posterAssetId}" in this organization`]);
      }
    }
    const asset = await patchAsset(tx, orgId, id, patch);
    if (!asset) throw notFound(`Asset "${id}"`);
    await recordAssetEvent(tx, 'asset.updated', asset, { content: false });
    await bumpContentVersion(tx, orgId);
    return asset;
  });
  await announceAssetChange(deps, { orgId, assetId: id, bytes: false });
  return updated;
}

/** Soft delete of the row; originals, derivatives and posters are removed from the blob store. */
export async function removeAsset(deps: Pick<AssetServiceDeps, 'db' | 'blobs' | 'bus' | 'logger' | 'assetCaches'>, orgId: string, id: string): Promise<void> {
  const asset = await deps.db.transaction(async (tx) => {
    const deleted = await deleteAsset(tx, orgId, id);
    if (deleted) {
      await recordAssetEvent(tx, 'asset.deleted', deleted);
      await bumpContentVersion(tx, orgId);
    }
    return deleted;
  });
  if (!asset) throw notFound(`Asset "${id}"`);
  await announceAssetChange(deps, { orgId, assetId: id, bytes: true });
  await deletePrefix(deps.blobs, originalsPrefix(orgId, id));
  await deletePrefix(deps.blobs, assetFilesPrefix(orgId, id));
}
