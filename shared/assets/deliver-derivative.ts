import type { Readable } from 'node:stream';
import type { BlobObject } from '../adapters/blobs/index.js';
import { JobTimeoutError } from '../adapters/queue/index.js';
import { notFound } from '../errors/index.js';
import type { Services } from '../services.js';
import { resolveDerivativeSource } from './derivative-source.js';
import { encodeOps, extOfFormat } from './image-ops.js';
import { admitMiss, type MissBudgetDeps } from './miss-budget.js';
import type { VerifiedImagePath } from './verified-image-paths.js';

/**
 * Longer than a transform job can live (three tries of the worker's 60-s transform timeout, with
 * backoff): a miss's hold on its organization's share expires after it if this process dies.
 */
const TRANSFORM_HOLD_MS = 4 * 60_000;

/** Derivatives up to this size are kept in process memory after a storage read. */
const MEMORY_ENTRY_BYTES = 2 * 1024 * 1024;

/** What the answer's headers say about a derivative. */
export interface DerivativeHead {
  contentType?: string;
  size: number;
  etag: string;
  /** HIT: it existed; MISS: this request (or one it joined) made it. */
  cache: 'HIT' | 'MISS';
  /** False for video posters: the same URL may show another poster later. */
  immutable: boolean;
}

/**
 * One image request's answer: the client's copy is current (`etag` it holds), or the bytes —
 * from memory (`data`) or streamed from the blob store (`body`, for large ones).
 */
export type Delivery =
  | { kind: 'current'; etag: string }
  | { kind: 'buffer'; head: DerivativeHead; data: Buffer }
  | { kind: 'stream'; head: DerivativeHead; body: Readable };

export interface DeliveryRequest {
  requestId: string;
  /** True when the client already holds the representation with this ETag (`If-None-Match`). */
  holds(etag: string): boolean;
}

export interface DeliveryOptions {
  /** How long a request waits for its transform before answering 504. @default 30000 */
  timeoutMs?: number;
  /** Tries per transform job (a crashed worker's job is retried). @default 3 */
  attempts?: number;
}

export type DeliveryDeps = Pick<Services, 'db' | 'blobs' | 'queue' | 'assetCaches'> & MissBudgetDeps;

/** Delivers the derivative a verified `/img/…` path names; throws an AppError for an error answer. */
export type DeliverDerivative = (image: VerifiedImagePath, request: DeliveryRequest) => Promise<Delivery>;

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
 * Signed derivatives: a hit comes from memory or the blob store without touching Postgres; a
 * miss resolves the source, is admitted within the organization's share and budget (`admitMiss`), runs (or joins) the one
 * `image-transform` job for the key, then reads what the worker wrote. The returned function
 * holds the derivatives being made for requests of this process, so make one per server.
 */
export function derivativeDelivery(deps: DeliveryDeps, options: DeliveryOptions = {}): DeliverDerivative {
  const timeoutMs = options.timeoutMs ?? 30_000;
  const attempts = options.attempts ?? 3;
  const lookups = deps.metrics.cacheLookups;
  const memory = deps.assetCaches.derivatives;

  /** From memory when this process holds it; else from the blob store (small ones are kept in memory). */
  const read = async (key: string, etag: string, cache: 'HIT' | 'MISS', immutable: boolean): Promise<Delivery | null> => {
    const held = memory.get(key);
    if (held) return { kind: 'buffer', head: { contentType: held.contentType, size: held.data.length, etag, cache, immutable }, data: held.data };
    const blob = usable(await deps.blobs.get(key));
    if (!blob) return null;
    if (blob.size > MEMORY_ENTRY_BYTES) return { kind: 'stream', head: { contentType: blob.contentType, size: blob.size, etag, cache, immutable }, body: blob.body };
    const chunks: Buffer[] = [];
    for await (const chunk of blob.body) chunks.push(chunk as Buffer);
    const data = Buffer.concat(chunks);
    if (data.length === blob.size) memory.set(key, { data, contentType: blob.contentType ?? 'application/octet-stream' });
    return { kind: 'buffer', head: { contentType: blob.contentType, size: data.length, etag, cache, immutable }, data };
  };

  // Derivatives being made for requests of this process: later requests for the same key wait
  // for that job instead of reading an object that may still be in the middle of its write.
  const inflight = new Map<string, Promise<unknown>>();

  return async (image, request) => {
    const { parts } = image;
    // Images: the URL alone names the derivative, so a hit needs no database round trip.
    if (request.holds(image.etag)) return { kind: 'current', etag: image.etag };
    await inflight.get(image.key)?.catch(() => undefined);
    const hit = await read(image.key, image.etag, 'HIT', true);
    if (hit) {
      lookups.inc({ cache: 'image-derivatives', result: 'hit' });
      return hit;
    }

    const source = await resolveDerivativeSource(deps.db, deps.assetCaches, parts);
    if (source.key !== image.key) {
      if (request.holds(source.etag)) return { kind: 'current', etag: source.etag };
      const posterHit = await read(source.key, source.etag, 'HIT', source.immutable);
      if (posterHit) return posterHit;
    }
    lookups.inc({ cache: 'image-derivatives', result: 'miss' });
    let job = inflight.get(source.key);
    if (!job) {
      const hold = await admitMiss(deps, parts, source, TRANSFORM_HOLD_MS);
      const payload = {
        orgId: parts.orgId,
        requestId: request.requestId,
        version: 1 as const,
        sourceKey: source.sourceKey,
        derivativeKey: source.key,
        ops: encodeOps(parts.ops),
        ext: extOfFormat(parts.ops.format),
      };
      // One job per derivative: requests on other instances join the same execution through the jobId.
      const jobOptions = { jobId: `img-${source.etag.slice(1, -1)}`, timeoutMs, attempts };
      job = deps.queue.run('image-transform', payload, jobOptions);
      inflight.set(source.key, job);
      const forget = () => inflight.delete(source.key);
      job.then(forget, forget);
      // The organization's share is held for the job's real life: a request that stops waiting
      // (504) leaves its job running, so the hold is released once that job has ended (joined
      // again through its jobId; a finished one is not redone, the job being idempotent).
      const release = () => void hold.release();
      job.then(release, (err: unknown) => {
        if (!(err instanceof JobTimeoutError)) return release();
        deps.queue.run('image-transform', payload, { ...jobOptions, timeoutMs: TRANSFORM_HOLD_MS }).then(release, release);
      });
    }
    await job;
    const made = await read(source.key, source.etag, 'MISS', source.immutable);
    if (!made) throw notFound('Image');
    return made;
  };
}
