import type { Queryable } from '../adapters/db/index.js';
import { deleteStaleEdgeUrls } from './edge-url-repository.js';

/**
 * A cached URL is kept this long after it was last served: images and files are served
 * `immutable` for a year, so a CDN may hold one that long without asking Folio again.
 */
export const EDGE_URL_DAYS = 400;

/** Forgets cached URLs not served for longer than any answer may be kept: no CDN still holds them. */
export function pruneStaleEdgeUrls(db: Queryable): Promise<number> {
  return deleteStaleEdgeUrls(db, EDGE_URL_DAYS * 86_400_000);
}
