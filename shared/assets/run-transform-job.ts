import type { BlobStore } from '../adapters/blobs/index.js';
import { AppError, isAppError, notFound, unprocessable } from '../errors/index.js';
import type { JobPayload, JobResult } from '../adapters/queue/jobs.js';
import { originalKey } from '../adapters/blobs/keys.js';
import { parseOps } from './image-ops.js';
import { loadSource } from './load-source.js';
import type { AssetCaches } from './asset-caches.js';
import { transformImage } from './transform-image.js';
import type { OutputFormat } from './types.js';

/**
 * The `image-transform` job: idempotent, so a retried or duplicated job never transforms twice
 * once the derivative exists (a worker killed after writing it, two keys racing).
 */
export async function runTransformJob(
  deps: { blobs: BlobStore; assetCaches: AssetCaches; onTransform?: (format: OutputFormat) => void; timeoutSeconds?: number },
  payload: JobPayload<'image-transform'>,
): Promise<JobResult<'image-transform'>> {
  const existing = await deps.blobs.head(payload.derivativeKey);
  if (existing && existing.size > 0) return { derivativeKey: payload.derivativeKey, size: existing.size, contentType: existing.contentType ?? 'application/octet-stream', transformed: false };

  const ops = parseOps(payload.ops, payload.ext) as ReturnType<typeof parseOps> & { format: OutputFormat };
  const { input, header } = await loadSource(deps.blobs, deps.assetCaches, payload.sourceKey);
  // The overlay is named by the URL within the job's organization: another's cannot be reached.
  const overlay = ops.overlay ? await loadSource(deps.blobs, deps.assetCaches, originalKey(payload.orgId, ops.overlay.assetId, ops.overlay.versionId)) : undefined;
  const out = await transformImage(input, ops, { timeoutSeconds: deps.timeoutSeconds, header, overlay }).catch((err: unknown) => {
    if (isAppError(err)) throw err;
    // libvips refuses corrupt or truncated data with an error (never a crash): retrying cannot help.
    if (err instanceof Error && /timeout/i.test(err.message)) throw new AppError('GATEWAY_TIMEOUT', 'The image transform took too long.');
    throw unprocessable('The source image could not be decoded.');
  });
  deps.onTransform?.(out.format);
  // A derivative is a cache entry: lost in a crash, it is rebuilt on the next request.
  await deps.blobs.put(payload.derivativeKey, out.data, { contentType: out.contentType, durable: false });
  // An asset deleted while this job ran has lost its original by now (deletion removes originals
  // before sweeping derivatives): drop what we wrote, or hits would keep serving it.
  const caches = deps.assetCaches;
  if (!(await deps.blobs.head(payload.sourceKey))) {
    await deps.blobs.delete(payload.derivativeKey);
    caches.sources.delete(payload.sourceKey);
    throw notFound('Image');
  }
  // The API in this process serves it from memory, without reading it back.
  caches.derivatives.set(payload.derivativeKey, { data: out.data, contentType: out.contentType });
  return { derivativeKey: payload.derivativeKey, size: out.data.length, contentType: out.contentType, transformed: true };
}
