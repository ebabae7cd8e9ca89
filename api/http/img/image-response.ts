import type { ServerResponse } from 'node:http';
import type { LRUCache } from 'lru-cache';
import type { CachedDerivative } from '../../../shared/assets/asset-caches.js';
import type { DerivativeHead } from '../../../shared/assets/deliver-derivative.js';
import type { VerifiedImagePath } from '../../../shared/assets/verified-image-paths.js';
import type { Services } from '../../../shared/services.js';
import { IMMUTABLE } from '../files/send-headers.js';
import { markShareable } from '../request-context.js';
import { variantOf } from '../../../shared/edge/edge-variant.js';


/**
 * An image answer names its asset in the surrogate-key headers (a CDN purges it when the asset
 * changes or goes), and its path is recorded for purge targets that purge by URL, with the variant
 * of it a cache keeps for this request (its Accept class and Origin).
 */
export function markImage(services: Pick<Services, 'edgeUrls'>, res: ServerResponse, path: string, image: VerifiedImagePath): void {
  res.setHeader('Surrogate-Key', image.surrogate.headers['Surrogate-Key']);
  res.setHeader('Cache-Tag', image.surrogate.headers['Cache-Tag']);
  services.edgeUrls.record(image.parts.orgId, path, image.surrogate.keys, variantOf(res.req.headers));
}

/** One writeHead per response: the hit path is mostly this and the body write. */
export function writeImageHead(res: ServerResponse, h: DerivativeHead): void {
  markShareable(res);
  res.writeHead(200, {
    'Content-Type': h.contentType ?? 'application/octet-stream',
    'Content-Length': String(h.size),
    ETag: h.etag,
    'Cache-Control': h.immutable ? IMMUTABLE : 'public, max-age=3600',
    'X-Cache': h.cache,
    'X-Content-Type-Options': 'nosniff',
    'Cross-Origin-Resource-Policy': 'cross-origin',
  });
}

/** Answers from this process's memory when it holds the derivative; false otherwise. */
export function serveFromMemory(
  memory: LRUCache<string, CachedDerivative>,
  res: ServerResponse,
  key: string,
  etag: string,
  cache: 'HIT' | 'MISS',
  immutable: boolean,
): boolean {
  const held = memory.get(key);
  if (!held) return false;
  writeImageHead(res, { contentType: held.contentType, size: held.data.length, etag, cache, immutable });
  res.end(held.data);
  return true;
}
