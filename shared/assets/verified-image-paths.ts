import { LRUCache } from 'lru-cache';
import { derivativeKeyOf } from './derivative-source.js';
import { parseImagePath, type ImagePathParts } from './url-grammar.js';

/** Every derivative path starts with it. */
export const IMG = '/img/';

/** What a signed `/img/…` path names: its operations and the derivative's key and ETag. */
export interface VerifiedImagePath {
  readonly parts: Readonly<ImagePathParts>;
  readonly key: string;
  readonly etag: string;
}

/** Verifies a `/img/…` path (without the query); throws the 403/400 of `parseImagePath`. */
export type ImagePathVerifier = (path: string) => VerifiedImagePath;

/**
 * Verifies and parses `/img/…` paths signed with `secret` and derives their keys, once per path:
 * a URL a CDN asks for again skips the HMAC, the parse and the hashing, and a miss, which the
 * memory-hit check and then the image handler look at, pays them once. Only paths whose
 * signature checked out are remembered, so a remembered path is as verified as the first time.
 * `Services` makes one per process, for its signing secret.
 */
export function createImagePathVerifier(secret: Buffer, remembered = 20_000): ImagePathVerifier {
  const memo = new LRUCache<string, VerifiedImagePath>({ max: remembered });
  return (path) => {
    let verified = memo.get(path);
    if (!verified) {
      const parts = parseImagePath(secret, path.slice(IMG.length));
      Object.freeze(parts.ops);
      verified = Object.freeze({ parts: Object.freeze(parts), ...derivativeKeyOf(parts) });
      memo.set(path, verified);
    }
    return verified;
  };
}
