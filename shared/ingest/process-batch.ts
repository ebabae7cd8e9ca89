import { buffer } from 'node:stream/consumers';
import type { Services } from '../services.js';
import { ROW_COLUMNS } from './row-tsv.js';
import { dueBatches, findBatch, markBatchDone, markBatchFailed } from './spool-repository.js';

export type ProcessDeps = Pick<Services, 'db' | 'blobs' | 'analytics' | 'logger'>;

/** Seconds before retry number `attempt` (1-based): 2, 4, 8 … capped at 60. */
export const retryDelaySeconds = (attempt: number) => Math.min(60, 2 ** Math.min(attempt, 6));

/**
 * Moves one spooled batch into ClickHouse with its dedup token, then marks it done and drops the
 * spooled copy. Safe to run twice for the same batch (two workers, a retry after a crash): the
 * token makes ClickHouse keep one copy. On failure the batch stays pending with a backoff.
 * Returns false when the insert failed.
 */
export async function processSpooledBatch(deps: ProcessDeps, orgId: string, batchId: string): Promise<boolean> {
  const batch = await findBatch(deps.db, orgId, batchId);
  if (!batch || batch.state === 'done') return true;
  try {
    const blob = await deps.blobs.get(batch.blobKey);
    if (!blob) throw new Error(`spooled rows missing at ${batch.blobKey}`);
    const rows = await buffer(blob.body);
    await deps.analytics.insertJsonEachRow('cdn_logs', rows, { dedupToken: batch.dedupToken, format: 'TabSeparated', columns: ROW_COLUMNS });
  } catch (err) {
    const message = err instanceof Error ? err.message : String(err);
    deps.logger.warn({ err, orgId, batchId, attempts: batch.attempts + 1 }, 'log-ingest: insert failed; will retry');
    await markBatchFailed(deps.db, orgId, batchId, message, retryDelaySeconds(batch.attempts + 1));
    return false;
  }
  await markBatchDone(deps.db, orgId, batchId);
  await deps.blobs.delete(batch.blobKey).catch((err: unknown) => deps.logger.warn({ err, batchId }, 'log-ingest: spool cleanup failed'));
  return true;
}

/** Processes every due pending batch once; returns how many went in. */
export async function drainSpool(deps: ProcessDeps, options: { limit?: number } = {}): Promise<number> {
  let done = 0;
  for (const b of await dueBatches(deps.db, options.limit ?? 100)) {
    if (await processSpooledBatch(deps, b.orgId, b.id)) done++;
  }
  return done;
}
