import { badRequest } from '../../errors/index.js';

/**
 * The one locator for object keys. Every key the product writes is built here, so the bucket
 * layout can be read (and changed) in one place:
 *
 *   originals/{org}/{asset}/{version}          uploaded files, never rewritten
 *   derivatives/{org}/{hash[0..2]}/{hash}      transformed images (a 2-char fan-out keeps folders small)
 *   ingest/{org}/{distribution}/{batchId}      spooled log batches waiting for a worker
 *   assets/{org}/{asset}/derivatives/{hash}.{ext}  an asset's image derivatives (one prefix per asset, so deleting it
 *                                              clears them; the extension names the format, see contentTypeOfKey)
 *   assets/{org}/{asset}/posters/{version}     a poster frame extracted from a video at upload
 */

// Ids are service-generated (base62, uuids, hex hashes); anything else in a segment is a bug or an attack.
const SEGMENT = /^[A-Za-z0-9_-][A-Za-z0-9._-]*$/;

function segment(value: string, what: string): string {
  if (!SEGMENT.test(value) || value.length > 200) throw badRequest(`Invalid ${what} for an object key.`);
  return value;
}

export function originalKey(orgId: string, assetId: string, versionId: string): string {
  return `originals/${segment(orgId, 'organization id')}/${segment(assetId, 'asset id')}/${segment(versionId, 'version id')}`;
}

export function derivativeKey(orgId: string, hash: string): string {
  const h = segment(hash, 'derivative hash');
  if (h.length < 3) throw badRequest('Invalid derivative hash for an object key.');
  return `derivatives/${segment(orgId, 'organization id')}/${h.slice(0, 2)}/${h}`;
}

export function assetDerivativeKey(orgId: string, assetId: string, hash: string, ext: string): string {
  return `${assetFilesPrefix(orgId, assetId)}derivatives/${segment(`${hash}.${ext}`, 'derivative hash')}`;
}

const TYPES_BY_EXTENSION: Record<string, string> = {
  jpg: 'image/jpeg',
  png: 'image/png',
  webp: 'image/webp',
  avif: 'image/avif',
  gif: 'image/gif',
};

/** The content type a key's extension names (image formats only), or null. */
export function contentTypeOfKey(key: string): string | null {
  const dot = key.lastIndexOf('.');
  return dot > key.lastIndexOf('/') ? (TYPES_BY_EXTENSION[key.slice(dot + 1)] ?? null) : null;
}

export function posterKey(orgId: string, assetId: string, versionId: string): string {
  return `${assetFilesPrefix(orgId, assetId)}posters/${segment(versionId, 'version id')}`;
}

/** Everything generated from one asset (derivatives, posters); originals are under originalsPrefix. */
export function assetFilesPrefix(orgId: string, assetId: string): string {
  return `assets/${segment(orgId, 'organization id')}/${segment(assetId, 'asset id')}/`;
}

export function originalsPrefix(orgId: string, assetId: string): string {
  return `originals/${segment(orgId, 'organization id')}/${segment(assetId, 'asset id')}/`;
}

/** Every prefix under which the product writes an organization's objects (deleting the organization clears them). */
export function organizationPrefixes(orgId: string): string[] {
  const org = segment(orgId, 'organization id');
  return ['originals', 'derivatives', 'ingest', 'assets'].map((area) => `${area}/${org}/`);
}

export function ingestSpoolKey(orgId: string, distributionId: string, batchId: string): string {
  return `ingest/${segment(orgId, 'organization id')}/${segment(distributionId, 'distribution id')}/${segment(batchId, 'batch id')}`;
}

/**
 * The rules both stores enforce on any key: relative, '/'-separated, no empty, '.' or '..'
 * segments, no backslashes or control characters. The folder store depends on this to stay
 * inside its root; S3 enforces it too so both behave the same.
 */
export function assertValidKey(key: string): void {
  if (typeof key !== 'string' || key.length === 0 || key.length > 1024) throw badRequest('Invalid object key.');
  // eslint-disable-next-line no-control-regex
  if (/[\\\u0000-\u001f\u007f]/.test(key)) throw badRequest('Invalid object key.');
  for (const part of key.split('/')) {
    if (part === '' || part === '.' || part === '..') throw badRequest('Invalid object key.');
  }
}

/** A list prefix may be empty or end with '/', but must not climb out of the store either. */
export function assertValidPrefix(prefix: string): void {
  if (prefix === '') return;
  if (prefix.startsWith('/')) throw badRequest('Invalid object key prefix.');
  assertValidKey(prefix.endsWith('/') ? prefix.slice(0, -1) : prefix);
}
