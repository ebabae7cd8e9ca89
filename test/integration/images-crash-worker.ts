/**
 * A separate worker process for images-worker-crash.test.ts: takes `image-transform` jobs from
 * the test's BullMQ queue and tells its parent when a transform starts, so the parent can
 * SIGKILL it in the middle of one. Configuration comes from FOLIO_CRASH_WORKER (JSON).
 */
import { runTransformJob } from '../../shared/assets/run-transform-job.js';
import { createBlobStore } from '../../shared/blobs/index.js';
import type { Config } from '../../shared/config.js';
import { createQueue } from '../../shared/queue/index.js';

const options = JSON.parse(process.env.FOLIO_CRASH_WORKER ?? '{}') as { redisUrl: string; prefix: string; dataDir: string; s3?: Config['s3'] };
const blobs = await createBlobStore({ s3: options.s3, dataDir: options.dataDir });
const queue = await createQueue({ redisUrl: options.redisUrl }, { prefix: options.prefix, bullmq: { lockDurationMs: 2000, stalledIntervalMs: 1000 } });
queue.process('image-transform', async (payload) => {
  process.send?.('transform-started');
  return runTransformJob({ blobs }, payload);
});
process.send?.('ready');
