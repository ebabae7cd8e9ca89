/**
 * A separate worker process for images-worker-crash.test.ts: takes `image-transform` jobs from
 * the test's BullMQ queue and tells its parent when a transform starts, so the parent can
 * SIGKILL it in the middle of one. Configuration comes from FOLIO_CRASH_WORKER (JSON).
 */
import { runTransformJob } from '../../shared/assets/run-transform-job.js';
import { createBlobStore } from '../../shared/adapters/blobs/index.js';
import type { Config } from '../../shared/config.js';
import { createQueue } from '../../shared/adapters/queue/index.js';
import { TRANSFORM_STALLED_AFTER_MS } from '../../shared/assets/image-transform-job.js';
import { createAssetCaches } from '../../shared/assets/asset-caches.js';

const options = JSON.parse(process.env.FOLIO_CRASH_WORKER ?? '{}') as { redisUrl: string; prefix: string; dataDir: string; s3?: Config['s3'] };
const blobs = await createBlobStore({ s3: options.s3, dataDir: options.dataDir });
const assetCaches = createAssetCaches();
// The product's own stall setting for transforms, not a test-only one.
const queue = await createQueue({ redisUrl: options.redisUrl }, { prefix: options.prefix });
queue.process(
  'image-transform',
  async (payload) => {
    process.send?.('transform-started');
    return runTransformJob({ blobs, assetCaches }, payload);
  },
  { stalledAfterMs: TRANSFORM_STALLED_AFTER_MS },
);
process.send?.('ready');
