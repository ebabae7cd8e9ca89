import { LRUCache } from 'lru-cache';
import type { BlobStore } from '../blobs/index.js';
import type { ImageHeader } from './probe-image.js';

/**
 * Process-local caches in front of the blob store, one set per store instance (tests run several
 * apps in one process). Both hold immutable objects: derivative and original keys carry the
 * version, so an entry can never be stale, only deleted (evictAsset on delete and replace, on
 * every instance through the bus's `asset-changed`; at worst within the TTL).
 */
export interface CachedDerivative {
  data: Buffer;
  contentType: string;
}

interface Caches {
  /** Small derivatives, served to hits without any storage round trip. */
  derivatives: LRUCache<string, CachedDerivative>;
  /** Originals recently transformed: a burst of derivatives of one image reads it once. */
  sources: LRUCache<string, Buffer>;
  /** Their headers (size, format): probed once per burst too. */
  sourceHeaders: LRUCache<string, ImageHeader>;
}

const MAX_DERIVATIVE_BYTES = 2 * 1024 * 1024;
const caches = new WeakMap<BlobStore, Caches>();

export function memoryCaches(blobs: BlobStore): Caches {
  let c = caches.get(blobs);
  if (!c) {
    c = {
      derivatives: new LRUCache<string, CachedDerivative>({
        maxSize: 128 * 1024 * 1024,
        maxEntrySize: MAX_DERIVATIVE_BYTES,
        sizeCalculation: (v) => v.data.length + 200,
        ttl: 10 * 60_000,
      }),
      sources: new LRUCache<string, Buffer>({ maxSize: 256 * 1024 * 1024, sizeCalculation: (v) => v.length + 1, ttl: 10 * 60_000 }),
      sourceHeaders: new LRUCache<string, ImageHeader>({ max: 10_000, ttl: 10 * 60_000 }),
    };
    caches.set(blobs, c);
  }
  return c;
}

/** Drops one asset's entries (keys under its prefixes) from this process's caches. */
export function evictAsset(blobs: BlobStore, prefixes: string[]): void {
  const c = memoryCaches(blobs);
  const matches = (key: string) => prefixes.some((p) => key.startsWith(p));
  for (const key of [...c.derivatives.keys()]) if (matches(key)) c.derivatives.delete(key);
  for (const key of [...c.sources.keys()]) if (matches(key)) c.sources.delete(key);
  for (const key of [...c.sourceHeaders.keys()]) if (matches(key)) c.sourceHeaders.delete(key);
}
