import { LRUCache } from 'lru-cache';
import type { ImageHeader } from './probe-image.js';
import type { Asset } from './types.js';

/**
 * This process's memory of assets, created once in `Services` (tests run several apps in one
 * process, each with its own). The byte caches hold immutable objects: derivative and original
 * keys carry the version, so an entry can never be stale, only deleted (evictAsset on delete and
 * replace, on every instance through the bus's `asset-changed`; at worst within the TTL).
 */
export interface AssetCaches {
  /** Small derivatives, served to hits without any storage round trip. */
  derivatives: LRUCache<string, CachedDerivative>;
  /** Originals recently transformed: a burst of derivatives of one image reads it once. */
  sources: LRUCache<string, Buffer>;
  /** Their headers (size, format): probed once per burst too. */
  sourceHeaders: LRUCache<string, ImageHeader>;
  /**
   * Loads of originals under way: a page that goes live asks for several derivatives of one new
   * image at once, and each of their jobs would otherwise read and probe the whole original.
   */
  loading: Map<string, Promise<LoadedSource>>;
  /**
   * Asset rows for the public read paths (`/img` misses, `/files`, `/embed`), which CDNs hit far
   * more often than assets change; by `orgId/assetId`. A change forgets the row at once on every
   * instance, or within the TTL should that message be lost. A stale row cannot serve removed
   * bytes: URLs carry the version, and a removed original is not found in the blob store.
   */
  rows: LRUCache<string, Asset>;
}

export interface CachedDerivative {
  data: Buffer;
  contentType: string;
}

export interface LoadedSource {
  input: Buffer;
  header: ImageHeader;
}

const MAX_DERIVATIVE_BYTES = 2 * 1024 * 1024;
const ROW_TTL_MS = 5_000;

export function createAssetCaches(): AssetCaches {
  return {
    derivatives: new LRUCache<string, CachedDerivative>({
      maxSize: 128 * 1024 * 1024,
      maxEntrySize: MAX_DERIVATIVE_BYTES,
      sizeCalculation: (v) => v.data.length + 200,
      ttl: 10 * 60_000,
    }),
    sources: new LRUCache<string, Buffer>({ maxSize: 256 * 1024 * 1024, sizeCalculation: (v) => v.length + 1, ttl: 10 * 60_000 }),
    sourceHeaders: new LRUCache<string, ImageHeader>({ max: 10_000, ttl: 10 * 60_000 }),
    loading: new Map(),
    rows: new LRUCache<string, Asset>({ max: 10_000, ttl: ROW_TTL_MS }),
  };
}

/** Drops one asset's bytes (keys under its prefixes) from this process's caches. */
export function evictAsset(caches: AssetCaches, prefixes: string[]): void {
  const matches = (key: string) => prefixes.some((p) => key.startsWith(p));
  for (const key of [...caches.derivatives.keys()]) if (matches(key)) caches.derivatives.delete(key);
  for (const key of [...caches.sources.keys()]) if (matches(key)) caches.sources.delete(key);
  for (const key of [...caches.sourceHeaders.keys()]) if (matches(key)) caches.sourceHeaders.delete(key);
}
