import { LRUCache } from 'lru-cache';
import type { Queryable } from '../db/index.js';
import { findAsset } from './asset-repository.js';
import type { Asset } from './types.js';

/**
 * Asset rows for the public read paths (`/img` misses, `/files`, `/embed`), which CDNs hit far
 * more often than assets change. A change forgets the row at once on every instance (the bus's
 * `asset-changed`), or within the TTL should that message be lost. A stale row cannot serve
 * removed bytes: URLs carry the version, and a removed original is not found in the blob store.
 */
const TTL_MS = 5_000;
const caches = new WeakMap<Queryable, LRUCache<string, Asset>>();

function cacheOf(db: Queryable): LRUCache<string, Asset> {
  let cache = caches.get(db);
  if (!cache) {
    cache = new LRUCache<string, Asset>({ max: 10_000, ttl: TTL_MS });
    caches.set(db, cache);
  }
  return cache;
}

/** A live asset, from memory when this process read it within the last seconds. */
export async function findAssetForDelivery(db: Queryable, orgId: string, id: string): Promise<Asset | null> {
  const cache = cacheOf(db);
  const key = `${orgId}/${id}`;
  const cached = cache.get(key);
  if (cached) return cached;
  const asset = await findAsset(db, orgId, id);
  // Absent rows are not remembered: an upload must be visible at once.
  if (asset) cache.set(key, asset);
  return asset;
}

/** Called after a change to the asset is committed. */
export function forgetAsset(db: Queryable, orgId: string, id: string): void {
  caches.get(db)?.delete(`${orgId}/${id}`);
}
