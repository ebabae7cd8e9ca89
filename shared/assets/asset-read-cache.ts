import type { Queryable } from '../adapters/db/index.js';
import type { AssetCaches } from './asset-caches.js';
import { findAsset } from './asset-repository.js';
import type { Asset } from './types.js';

/** A live asset, from memory when this process read it within the last seconds. */
export async function findAssetForDelivery(db: Queryable, caches: AssetCaches, orgId: string, id: string): Promise<Asset | null> {
  const key = `${orgId}/${id}`;
  const cached = caches.rows.get(key);
  if (cached) return cached;
  const asset = await findAsset(db, orgId, id);
  // Absent rows are not remembered: an upload must be visible at once.
  if (asset) caches.rows.set(key, asset);
  return asset;
}

/** Called after a change to the asset is committed. */
export function forgetAsset(caches: AssetCaches, orgId: string, id: string): void {
  caches.rows.delete(`${orgId}/${id}`);
}
