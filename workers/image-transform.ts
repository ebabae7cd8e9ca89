import os from 'node:os';
import { runTransformJob } from '../shared/assets/run-transform-job.js';
import { transformCounter } from '../shared/assets/transform-metrics.js';
import type { Services } from '../shared/services.js';

/**
 * Image derivatives. The handler runs on the process's event loop but sharp does the pixel work
 * on libuv's thread pool (asynchronously), so the loop stays free: BullMQ lock renewals and
 * other jobs keep running during a long transform.
 */
/**
 * A client waits for its derivative (30 s before a 504): when a worker process dies mid-transform
 * the job must be taken up again within seconds, not after BullMQ's default 30-s lock. Locks are
 * renewed at half of this while a transform runs, so a long transform is not taken twice.
 */
export const TRANSFORM_STALLED_AFTER_MS = 4000;

export function registerImageTransform(services: Services): void {
  const counter = transformCounter(services.metrics.registry);
  services.queue.process(
    'image-transform',
    (payload) => runTransformJob({ blobs: services.blobs, onTransform: (format) => counter.inc({ format }), timeoutSeconds: 60 }, payload),
    // libuv's default pool has 4 threads: 4 jobs keep it busy while one waits on storage.
    { concurrency: Math.max(4, os.availableParallelism()), stalledAfterMs: TRANSFORM_STALLED_AFTER_MS },
  );
}
