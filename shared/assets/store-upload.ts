import type { Readable } from 'node:stream';
import type { BlobStore } from '../adapters/blobs/index.js';
import type { Logger } from '../logger.js';
import { analyseUpload } from './analyse-upload.js';
import { originalKey } from '../adapters/blobs/keys.js';
import { badRequest } from '../errors/index.js';
import { newVersionId } from '../ids.js';
import type { AssetContent } from './asset-repository.js';
import { HEADER_EXTENDED_BYTES, HEADER_PREFIX_BYTES } from './limits.js';
import { probeMp4 } from './mp4-probe.js';
import { extractPoster } from './poster.js';
import { probeImage } from './probe-image.js';
import { readHead } from './read-head.js';
import { sniffType } from './sniff-type.js';
import { isTransformable } from './source-format.js';
import { svgSize } from './svg-size.js';

export interface UploadDeps {
  blobs: BlobStore;
  /** ffmpeg binary for poster frames, or null to skip extraction. */
  ffmpeg: string | null;
  /** Where a failed upload-time analysis is reported (it never fails the upload). */
  logger?: Logger;
}

/**
 * Streams one upload into the blob store as a new version of an asset. Everything that can
 * refuse the upload (empty body, unreadable or oversized image) is decided from the first bytes,
 * before anything is written; a failure while streaming removes the partial object.
 */
export async function storeUpload(deps: UploadDeps, ids: { orgId: string; assetId: string }, source: Readable, maxBytes: number): Promise<AssetContent> {
  const upload = await readHead(source, { headBytes: HEADER_PREFIX_BYTES, maxBytes });
  if (upload.head.length === 0) throw badRequest('The upload is empty: send the file as the request body.');
  const { contentType, type } = sniffType(upload.head);

  let width: number | null = null;
  let height: number | null = null;
  if (isTransformable(contentType)) {
    // Refuses unreadable images and anything over the pixel limit from the header alone. A header
    // behind large metadata (APP segments, a TIFF directory at the end) gets a longer look first.
    const header = await probeImage(upload.head, upload.complete ? undefined : () => upload.extend(HEADER_EXTENDED_BYTES));
    width = header.width;
    height = header.height;
  } else if (contentType === 'image/svg+xml') {
    const size = svgSize(upload.head);
    width = size?.width ?? null;
    height = size?.height ?? null;
  }

  const versionId = newVersionId();
  const key = originalKey(ids.orgId, ids.assetId, versionId);
  try {
    await deps.blobs.put(key, upload.body, { contentType });
  } catch (err) {
    await deps.blobs.delete(key).catch(() => undefined);
    throw err;
  }
  const size = upload.bytes();

  let duration: number | null = null;
  let posterKey: string | null = null;
  if (contentType === 'video/mp4' || contentType === 'video/quicktime' || contentType === 'audio/mp4') {
    const info = await probeMp4(async (start, length) => readRange(deps.blobs, key, start, length), size).catch(() => null);
    duration = info?.duration ?? null;
    width = info?.width ?? null;
    height = info?.height ?? null;
  }
  if (type === 'VIDEO') {
    posterKey = await extractPoster(deps, { ...ids, versionId, originalKey: key, duration });
  }
  const { placeholder, suggestedFocalPoint } = isTransformable(contentType) ? await analyseUpload(deps, key) : { placeholder: null, suggestedFocalPoint: null };
  return { versionId, type, contentType, size, width, height, duration, posterKey, placeholder, suggestedFocalPoint };
}

async function readRange(blobs: BlobStore, key: string, start: number, length: number): Promise<Buffer> {
  const obj = await blobs.get(key, { range: { start, end: start + length - 1 } });
  if (!obj) throw new Error('object vanished');
  const chunks: Buffer[] = [];
  for await (const c of obj.body) chunks.push(c as Buffer);
  return Buffer.concat(chunks);
}
