import { badRequest, forbidden } from '../errors/index.js';
import { encodeOps, extOfFormat, parseOps } from './image-ops.js';
import { signPath, verifyPath } from './signing.js';
import type { ImageOps, OutputFormat } from './types.js';

/**
 * Public asset paths (documented in the README, "Assets and images"):
 *
 *   /files/{sig}/{orgId}/{assetId}/{versionId}/{fileName}      original bytes
 *   /img/{sig}/{orgId}/{assetId}/{versionId}/{ops}.{ext}       derivative (ops: see image-ops.ts)
 *   /embed/{orgId}/{assetId}.{html|js|json}[?orientation=vertical]
 *
 * `sig` = base64url(HMAC-SHA256(secret, path after the signature, without the leading slash))
 * truncated to 16 bytes, e.g. the message for an image is `img/{orgId}/{assetId}/{versionId}/{ops}.{ext}`.
 */
const ID = /^[A-Za-z0-9_-]{1,64}$/;

export interface ImagePathParts {
  orgId: string;
  assetId: string;
  versionId: string;
  ops: ImageOps & { format: OutputFormat };
}

export interface FilePathParts {
  orgId: string;
  assetId: string;
  versionId: string;
  fileName: string;
}

export function imagePath(secret: Buffer, p: ImagePathParts): string {
  const message = `img/${p.orgId}/${p.assetId}/${p.versionId}/${encodeOps(p.ops)}.${extOfFormat(p.ops.format)}`;
  return `/img/${signPath(secret, message)}/${message.slice(4)}`;
}

export function filePath(secret: Buffer, p: FilePathParts): string {
  const message = `files/${p.orgId}/${p.assetId}/${p.versionId}/${encodeURIComponent(p.fileName || 'file')}`;
  return `/files/${signPath(secret, message)}/${message.slice(6)}`;
}

export function embedPath(p: { orgId: string; assetId: string; kind: 'html' | 'js' | 'json'; vertical?: boolean }): string {
  return `/embed/${p.orgId}/${p.assetId}.${p.kind}${p.vertical ? '?orientation=vertical' : ''}`;
}

/** Splits `{sig}/{a}/{b}/{c}/{last}` (raw, still percent-encoded) and checks the signature first. */
function verifiedSegments(secret: Buffer, prefix: 'img' | 'files', rawPath: string): string[] {
  const segments = rawPath.split('/');
  if (segments.length !== 5 || segments.some((s) => s === '')) throw forbidden('Invalid or missing URL signature.');
  const [sig, ...rest] = segments;
  if (!verifyPath(secret, `${prefix}/${rest.join('/')}`, sig)) throw forbidden('Invalid or missing URL signature.');
  const [orgId, assetId, versionId] = rest;
  if (!ID.test(orgId) || !ID.test(assetId) || !ID.test(versionId)) throw badRequest('Malformed asset path.');
  return rest;
}

/** Parses the path after `/img/`: 403 for any signature mismatch, then 400 for malformed operations. */
export function parseImagePath(secret: Buffer, rawPath: string): ImagePathParts {
  const [orgId, assetId, versionId, last] = verifiedSegments(secret, 'img', rawPath);
  const dot = last.lastIndexOf('.');
  if (dot <= 0) throw badRequest('Malformed image path: expected {operations}.{extension}.');
  const ops = parseOps(last.slice(0, dot), last.slice(dot + 1)) as ImageOps & { format: OutputFormat };
  return { orgId, assetId, versionId, ops };
}

export function parseFilePath(secret: Buffer, rawPath: string): FilePathParts {
  const [orgId, assetId, versionId, last] = verifiedSegments(secret, 'files', rawPath);
  let fileName: string;
  try {
    fileName = decodeURIComponent(last);
  } catch {
    throw badRequest('Malformed file name in path.');
  }
  return { orgId, assetId, versionId, fileName };
}
