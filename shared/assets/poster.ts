import { createWriteStream } from 'node:fs';
import { mkdtemp, rm } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { pipeline } from 'node:stream/promises';
import type { BlobStore } from '../adapters/blobs/index.js';
import { posterKey } from '../adapters/blobs/keys.js';
import { extractFrame } from './ffmpeg.js';

/**
 * Extracts a poster frame from a stored video into the blob store. Optional by design: any
 * failure (no binary, unreadable video, timeout) leaves the video without an extracted poster.
 */
export async function extractPoster(
  deps: { blobs: BlobStore; ffmpeg: string | null },
  ids: { orgId: string; assetId: string; versionId: string; originalKey: string; duration: number | null },
): Promise<string | null> {
  if (!deps.ffmpeg) return null;
  const dir = await mkdtemp(path.join(os.tmpdir(), 'folio-poster-'));
  try {
    const original = await deps.blobs.get(ids.originalKey);
    if (!original) return null;
    const file = path.join(dir, 'video');
    await pipeline(original.body, createWriteStream(file));
    const at = ids.duration && ids.duration > 2 ? 1 : 0;
    const frame = await extractFrame(deps.ffmpeg, file, { atSeconds: at, timeoutMs: 20_000 });
    if (!frame) return null;
    const key = posterKey(ids.orgId, ids.assetId, ids.versionId);
    await deps.blobs.put(key, frame, { contentType: 'image/jpeg' });
    return key;
  } catch {
    return null;
  } finally {
    await rm(dir, { recursive: true, force: true });
  }
}
