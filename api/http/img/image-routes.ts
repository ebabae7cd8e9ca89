import { assertNotSuspended } from '../../../shared/tenancy/suspensions.js';
import type { IncomingMessage, ServerResponse } from 'node:http';
import { Router } from 'express';
import { resolveDerivativeSource, type DerivativeSource } from '../../../shared/assets/derivative-source.js';
import { outputSize, pixelBudgetProblem } from '../../../shared/assets/transform-plan.js';
import type { ImagePathParts } from '../../../shared/assets/url-grammar.js';
import { encodeOps, extOfFormat } from '../../../shared/assets/image-ops.js';
import type { BlobObject } from '../../../shared/adapters/blobs/index.js';
import { badRequest, notFound, rateLimited } from '../../../shared/errors/index.js';
import type { Services } from '../../../shared/services.js';
import { pipeBody } from '../files/pipe-body.js';
import { answeredNotModified } from '../files/send-headers.js';
import { markImage, serveFromMemory, writeImageHead } from './image-response.js';

/** Derivatives up to this size are kept in process memory after a storage read. */
const MEMORY_ENTRY_BYTES = 2 * 1024 * 1024;

export interface ImageRouteOptions {
  /** How long a request waits for its transform before answering 504. @default 30000 */
  timeoutMs?: number;
  /** Tries per transform job (a crashed worker's job is retried). @default 3 */
  attempts?: number;
}

/**
 * A derivative is never empty. Some S3 implementations (s3rver) expose an object while it is
 * still being written; such a read counts as a miss and joins the job instead.
 */
function usable(blob: BlobObject | null): BlobObject | null {
  if (blob && blob.size === 0) {
    blob.body.destroy();
    return null;
  }
  return blob;
}

/**
 * A miss starts work (a worker decodes and encodes the image): refused when the output would
 * be over the pixel budget of one image (400), or when the organization has used its minute's
 * budget of transform megapixels (429 with Retry-After; hits are never limited).
 */
async function chargeMiss(services: Services, parts: ImagePathParts, source: DerivativeSource['size']): Promise<void> {
  const size = source ? outputSize(parts.ops, source) : null;
  const problem = size ? pixelBudgetProblem(size) : null;
  if (problem) throw badRequest(`Image operations: ${problem}.`);
  const megapixels = size ? Math.max(1, Math.ceil((size.width * size.height) / 1_000_000)) : 1;
  const budget = services.config.imageMissBudget;
  const decision = await services.rateLimiter.consume(`img-miss:${parts.orgId}`, megapixels, budget);
  if (!decision.allowed) {
    services.metrics.imageMissesRefused.inc();
    throw rateLimited(decision.retryAfterSeconds, `This organization has started ${budget.burst} megapixels of image transforms in the last minute; retry later (cached images are not limited).`);
  }
}

/** Answers one `/img/…` GET or HEAD (`path` without the query); throws an AppError for an error answer. */
export type ImageHandler = (req: IncomingMessage & { requestId: string }, res: ServerResponse, path: string) => Promise<void>;

/**
 * `/img/{sig}/{org}/{asset}/{version}/{ops}.{ext}`: signed derivatives. A hit streams from the
 * blob store without touching Postgres; a miss resolves the source, runs (or joins) the one
 * `image-transform` job for the key, then streams what the worker wrote.
 */
export function imageRoutes(services: Services, options: ImageRouteOptions = {}): Router {
  const handle = imageHandler(services, options);
  return Router().get('/img/*rest', (req, res) => handle(req, res, req.path));
}

/**
 * The `/img` route as a plain Node handler, so that the front door can answer image requests
 * without Express (see front-door.ts); `imageRoutes` mounts the same handler in Express.
 */
export function imageHandler(services: Services, options: ImageRouteOptions = {}): ImageHandler {
  const timeoutMs = options.timeoutMs ?? 30_000;
  const attempts = options.attempts ?? 3;
  const lookups = services.metrics.cacheLookups;

  const memory = services.assetCaches.derivatives;

  /** From memory when this process holds it; else from the blob store (small ones are kept in memory). */
  const serve = async (res: ServerResponse, key: string, etag: string, cache: 'HIT' | 'MISS', immutable: boolean): Promise<boolean> => {
    if (serveFromMemory(memory, res, key, etag, cache, immutable)) return true;
    const blob = usable(await services.blobs.get(key));
    if (!blob) return false;
    if (blob.size > MEMORY_ENTRY_BYTES) {
      writeImageHead(res, { contentType: blob.contentType, size: blob.size, etag, cache, immutable });
      await pipeBody(blob.body, res);
      return true;
    }
    const chunks: Buffer[] = [];
    for await (const chunk of blob.body) chunks.push(chunk as Buffer);
    const data = Buffer.concat(chunks);
    if (data.length === blob.size) memory.set(key, { data, contentType: blob.contentType ?? 'application/octet-stream' });
    writeImageHead(res, { contentType: blob.contentType, size: data.length, etag, cache, immutable });
    res.end(data);
    return true;
  };

  // Derivatives being made for requests of this process: later requests for the same key wait
  // for that job instead of reading an object that may still be in the middle of its write.
  const inflight = new Map<string, Promise<unknown>>();

  return async (req, res, path) => {
    // Images: the URL alone names the derivative, so a hit needs no database round trip.
    const direct = services.verifyImagePath(path, req.headers.accept);
    const { parts } = direct;
    assertNotSuspended(services.suspensions, parts.orgId);
    if (direct.negotiated) res.setHeader('Vary', 'Accept');
    markImage(services, res, path, direct);
    if (answeredNotModified(req, res, direct.etag)) return;
    await inflight.get(direct.key)?.catch(() => undefined);
    if (await serve(res, direct.key, direct.etag, 'HIT', true)) {
      lookups.inc({ cache: 'image-derivatives', result: 'hit' });
      return;
    }

    const source = await resolveDerivativeSource(services.db, services.assetCaches, parts);
    if (source.key !== direct.key) {
      if (answeredNotModified(req, res, source.etag)) return;
      if (await serve(res, source.key, source.etag, 'HIT', source.immutable)) return;
    }
    lookups.inc({ cache: 'image-derivatives', result: 'miss' });
    let job = inflight.get(source.key);
    if (!job) {
      await chargeMiss(services, parts, source.size);
      job = services.queue.run(
        'image-transform',
        {
          orgId: parts.orgId,
          requestId: req.requestId,
          version: 1,
          sourceKey: source.sourceKey,
          derivativeKey: source.key,
          ops: encodeOps(parts.ops),
          ext: extOfFormat(parts.ops.format),
        },
        // One job per derivative: requests on other instances join the same execution through the jobId.
        { jobId: `img-${source.etag.slice(1, -1)}`, timeoutMs, attempts },
      );
      inflight.set(source.key, job);
      const forget = () => inflight.delete(source.key);
      job.then(forget, forget);
    }
    await job;
    if (!(await serve(res, source.key, source.etag, 'MISS', source.immutable))) throw notFound('Image');
  };
}
