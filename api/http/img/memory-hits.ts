import type { IncomingMessage, ServerResponse } from 'node:http';
import { LRUCache } from 'lru-cache';
import { derivativeKeyOf } from '../../../shared/assets/derivative-source.js';
import { memoryCaches } from '../../../shared/assets/memory-cache.js';
import { parseImagePath, type ImagePathParts } from '../../../shared/assets/url-grammar.js';
import type { Services } from '../../../shared/services.js';
import { answeredNotModified } from '../files/send-headers.js';
import { serveFromMemory } from './image-response.js';

/**
 * The hottest request a CDN origin sees: a derivative this process already holds in memory (or
 * the client's copy is current). Answered before Express, whose dispatch costs more than this
 * whole answer. Anything else — a bad signature, a miss, a storage read — returns false and
 * goes through the `/img` route, which gives the same answer for these cases and the errors.
 */
export function imageMemoryHits(services: Services): (req: IncomingMessage, res: ServerResponse) => boolean {
  const memory = memoryCaches(services.blobs).derivatives;
  const lookups = services.metrics.cacheLookups;
  // Verified paths and their keys: a URL a CDN asks for again skips the HMAC and key hashing.
  // Only paths whose signature checked out get in, so a hit here is as verified as the first.
  const verified = new LRUCache<string, { key: string; etag: string }>({ max: 20_000 });
  return (req, res) => {
    if (req.method !== 'GET' && req.method !== 'HEAD') return false;
    const url = req.url ?? '';
    const q = url.indexOf('?');
    const path = q === -1 ? url : url.slice(0, q);
    let derivative = verified.get(path);
    if (!derivative) {
      let parts: ImagePathParts;
      try {
        parts = parseImagePath(services.secrets.signing, path.slice('/img/'.length));
      } catch {
        return false;
      }
      derivative = derivativeKeyOf(parts);
      verified.set(path, derivative);
    }
    const { key, etag } = derivative;
    if (answeredNotModified(req, res, etag)) return true;
    if (!serveFromMemory(memory, res, key, etag, 'HIT', true)) return false;
    lookups.inc({ cache: 'image-derivatives', result: 'hit' });
    return true;
  };
}
