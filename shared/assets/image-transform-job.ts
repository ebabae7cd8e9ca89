import os from 'node:os';
import { runTransformJob } from './run-transform-job.js';
import type { JobBase } from '../adapters/queue/jobs.js';
import type { JobDefinition } from '../job-definition.js';

declare module '../adapters/queue/jobs.js' {
  interface JobMap {
    /** Writes one image derivative to the blob store. */
    'image-transform': { payload: ImageTransformPayload; result: ImageTransformResult };
  }
}

export interface ImageTransformPayload extends JobBase {
  sourceKey: string;
  derivativeKey: string;
  /** The derivative's operations, encoded as in its URL. */
  ops: string;
  ext: string;
}

export interface ImageTransformResult {
  derivativeKey: string;
  size: number;
  contentType: string;
  /** False when the derivative existed already (a retried or duplicated job). */
  transformed: boolean;
}

/**
 * A client waits for its derivative (30 s before a 504): when a worker process dies mid-transform
 * the job must be taken up again within seconds, not after BullMQ's default 30-s lock. Locks are
 * renewed at half of this while a transform runs, so a long transform is not taken twice.
 */
export const TRANSFORM_STALLED_AFTER_MS = 4000;

/**
 * Image derivatives. The handler runs on the process's event loop but sharp does the pixel work
 * on libuv's thread pool (asynchronously), so the loop stays free: BullMQ lock renewals and
 * other jobs keep running during a long transform.
 */
export const imageTransformJob: JobDefinition<'image-transform'> = {
  handler: (services) => {
    const counter = services.metrics.imageTransforms;
    return (payload) =>
      runTransformJob(
        {
          blobs: services.blobs,
          assetCaches: services.assetCaches,
          onTransform: (format) => {
            counter.inc({ format });
            services.usageMeter.count(payload.orgId, 'imageTransforms');
          },
          timeoutSeconds: 60,
        },
        payload,
      );
  },
  // libuv's default pool has 4 threads: 4 jobs keep it busy while one waits on storage.
  options: { concurrency: Math.max(4, os.availableParallelism()), stalledAfterMs: TRANSFORM_STALLED_AFTER_MS },
};
