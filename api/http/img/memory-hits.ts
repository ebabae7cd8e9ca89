import type { IncomingMessage, ServerResponse } from 'node:http';
import type { Services } from '../../../shared/services.js';
import { answeredNotModified } from '../files/send-headers.js';
import { markImage, serveFromMemory } from './image-response.js';
import type { VerifiedImagePath } from '../../../shared/assets/verified-image-paths.js';

/**
 * The hottest request a CDN origin sees: a derivative this process already holds in memory (or
 * the client's copy is current). Answered before Express, whose dispatch costs more than this
 * whole answer. Anything else — a bad signature, a miss, a storage read — returns false and
 * goes to the image handler, which gives the same answer for these cases and the errors.
 * `path` is the GET or HEAD request's `/img/…` path without its query (the front door's).
 */
export function imageMemoryHits(services: Services): (req: IncomingMessage, res: ServerResponse, path: string) => boolean {
  const memory = services.assetCaches.derivatives;
  const lookups = services.metrics.cacheLookups;
  return (req, res, path) => {
    let derivative: VerifiedImagePath;
    try {
      derivative = services.verifyImagePath(path, req.headers.accept);
    } catch {
      return false;
    }
    // a suspended organization's images: the image handler answers its 403
    if (services.suspensions.refusal(derivative.parts.orgId)) return false;
    const { key, etag } = derivative;
    if (derivative.negotiated) res.setHeader('Vary', 'Accept');
    markImage(services, res, path, derivative);
    if (answeredNotModified(req, res, etag)) return true;
    if (!serveFromMemory(memory, res, key, etag, 'HIT', true)) return false;
    lookups.inc({ cache: 'image-derivatives', result: 'hit' });
    return true;
  };
}
