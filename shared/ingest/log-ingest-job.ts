import { drainSpool, processSpooledBatch } from './process-batch.js';
import { pruneDoneBatches } from './spool-repository.js';
import type { JobBase } from '../adapters/queue/jobs.js';
import type { JobDefinition } from '../job-definition.js';

declare module '../adapters/queue/jobs.js' {
  interface JobMap {
    /** Moves one spooled CDN log batch into ClickHouse. */
    'log-ingest': { payload: LogIngestPayload; result: { inserted: boolean } };
  }
}

export interface LogIngestPayload extends JobBase {
  batchId: string;
}

/** How often the drainer looks for spooled batches whose job failed or was lost. */
const DRAIN_INTERVAL_MS = 5000;
/** How often done batches older than KEEP_DONE_DAYS are forgotten. */
const PRUNE_INTERVAL_MS = 3_600_000;
const KEEP_DONE_DAYS = 7;

/**
 * CDN log batches: the job inserts one spooled batch into ClickHouse as soon as it is accepted;
 * the drainer retries whatever is still pending (ClickHouse was down, a job was lost in a crash),
 * so the backlog drains on its own once ClickHouse is back.
 */
export const logIngestJob: JobDefinition<'log-ingest'> = {
  handler: (services) => async (payload) => ({ inserted: await processSpooledBatch(services, payload.orgId, payload.batchId) }),
  options: { concurrency: 2 },
  start(services) {
    let running = false;
    let prunedAt = 0;
    const timer = setInterval(() => {
      if (running) return;
      running = true;
      const prune = Date.now() - prunedAt > PRUNE_INTERVAL_MS;
      if (prune) prunedAt = Date.now();
      drainSpool(services)
        .then(() => (prune ? pruneDoneBatches(services.db, KEEP_DONE_DAYS) : 0))
        .catch((err: unknown) => services.logger.warn({ err }, 'log-ingest: spool drain failed'))
        .finally(() => {
          running = false;
        });
    }, DRAIN_INTERVAL_MS);
    timer.unref();
  },
};
