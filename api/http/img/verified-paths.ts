import { LRUCache } from 'lru-cache';
import { derivativeKeyOf } from '../../../shared/assets/derivative-source.js';
import { parseImagePath, type ImagePathParts } from '../../../shared/assets/url-grammar.js';

/** Every derivative path starts with it. */
export const IMG = '/img/';

/** What a signed `/img/…` path names: its operations and the derivative's key and ETag. */
export interface VerifiedImagePath {
  readonly parts: Readonly<ImagePathParts>;
  readonly key: string;
  readonly etag: string;
}

// One memo per signing secret (tests run several apps in one process, each with its own).
const memos = new WeakMap<Buffer, LRUCache<string, VerifiedImagePath>>();

/**
 * Verifies and parses a `/img/…` path (without the query) and derives its key, once: a URL a CDN
 * asks for again skips the HMAC, the parse and the hashing, and a miss, which the memory-hit
 * check and then the image handler look at, pays them once. Only paths whose signature checked
 * out are remembered, so a remembered path is as verified as the first time. Throws the 403/400
 * of `parseImagePath` for anything else.
 */
export function verifiedImagePath(secret: Buffer, path: string): VerifiedImagePath {
  let memo = memos.get(secret);
  if (!memo) memos.set(secret, (memo = new LRUCache({ max: 20_000 })));
  let verified = memo.get(path);
  if (!verified) {
    const parts = parseImagePath(secret, path.slice(IMG.length));
    Object.freeze(parts.ops);
    verified = Object.freeze({ parts: Object.freeze(parts), ...derivativeKeyOf(parts) });
    memo.set(path, verified);
  }
  return verified;
}
