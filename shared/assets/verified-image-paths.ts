import { LRUCache } from 'lru-cache';
import { assetSurrogate } from '../edge/surrogate-keys.js';
import { derivativeKeyOf } from './derivative-source.js';
import { negotiateImageFormat } from './negotiate-format.js';
import type { OutputFormat } from './types.js';
import { parseImagePath, type ImagePathParts } from './url-grammar.js';

/** Every derivative path starts with it. */
export const IMG = '/img/';

/**
 * What a signed `/img/…` path names for one request: its operations (with the format the
 * request gets) and the derivative's key and ETag.
 */
export interface VerifiedImagePath {
  readonly parts: Readonly<ImagePathParts>;
  readonly key: string;
  readonly etag: string;
  /** The format came from the request's `Accept` (`f_auto`): the answer varies on it. */
  readonly negotiated: boolean;
  /** The surrogate keys of the image (its org and asset), and the two headers that carry them. */
  readonly surrogate: ReturnType<typeof assetSurrogate>;
}

/**
 * Verifies a `/img/…` path (without the query); throws the 403/400 of `parseImagePath`. `accept`
 * (the request's header) picks the format of an `f_auto` path.
 */
export type ImagePathVerifier = (path: string, accept?: string) => VerifiedImagePath;

/**
 * Verifies and parses `/img/…` paths signed with `secret` and derives their keys, once per path:
 * a URL a CDN asks for again skips the HMAC, the parse and the hashing, and a miss, which the
 * memory-hit check and then the image handler look at, pays them once. Only paths whose
 * signature checked out are remembered, so a remembered path is as verified as the first time.
 * `Services` makes one per process, for its signing secret.
 */
export function createImagePathVerifier(secret: Buffer, remembered = 20_000): ImagePathVerifier {
  /** A verified path, and for an `f_auto` one its variant per negotiated format. */
  const memo = new LRUCache<string, { path: VerifiedImagePath; variants: Map<OutputFormat, VerifiedImagePath> | null }>({ max: remembered });
  // Browsers send a handful of distinct Accept headers: each is read once per fallback format.
  const formats = new LRUCache<string, OutputFormat>({ max: 1000 });
  const verify = (parts: ImagePathParts, negotiated: boolean): VerifiedImagePath => {
    Object.freeze(parts.ops);
    return Object.freeze({ parts: Object.freeze(parts), ...derivativeKeyOf(parts), negotiated, surrogate: assetSurrogate(parts.orgId, parts.assetId) });
  };
  return (path, accept) => {
    let signed = memo.get(path);
    if (!signed) {
      const verified = verify(parseImagePath(secret, path.slice(IMG.length)), false);
      signed = { path: verified, variants: verified.parts.ops.autoFormat ? new Map() : null };
      memo.set(path, signed);
    }
    if (!signed.variants) return signed.path;
    // f_auto: one verified variant per format, each naming the derivative of that format (the
    // same one as the path with that extension); the path itself stands for the fallback.
    const fallback = signed.path.parts.ops.format;
    const acceptKey = `${fallback}\n${accept ?? ''}`;
    let format = formats.get(acceptKey);
    if (format === undefined) formats.set(acceptKey, (format = negotiateImageFormat(accept, fallback)));
    let variant = signed.variants.get(format);
    if (!variant) {
      const { autoFormat: _negotiated, ...fixed } = signed.path.parts.ops;
      signed.variants.set(format, (variant = verify({ ...signed.path.parts, ops: { ...fixed, format } }, true)));
    }
    return variant;
  };
}
