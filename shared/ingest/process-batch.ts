import { buffer } from 'node:stream/consumers';
import type { Services } from '../services.js';
import { ROW_COLUMNS } from './row-tsv.js';
import { claimGroup, dueBatches, findBatch, groupBatches, markGroupDead, markGroupDone, markGroupFailed, splitGroup } from './spool-repository.js';

export type ProcessDeps = Pick<Services, 'db' | 'blobs' | 'analytics' | 'logger' | 'metrics'>;

/** Spooled rows gone from the blob store: no retry brings them back. */
class SpooledRowsMissing extends Error {}

/**
 * ClickHouse refusing the rows themselves (a value it cannot parse or store), as opposed to a
 * connection or server fault: retrying the same bytes fails the same way.
 */
const DATA_ERROR = /CANNOT_PARSE|Cannot parse|Cannot read|INCORRECT_DATA|VALUE_IS_OUT_OF_RANGE|TOO_LARGE_STRING_SIZE|Code: (6|26|27|38|41|69|70|72|117|131|321)\./;
const isDataError = (err: unknown) => err instanceof SpooledRowsMissing || (err instanceof Error && DATA_ERROR.test(err.message));

/** Seconds before retry number `attempt` (1-based): 2, 4, 8 … capped at 60. */
export const retryDelaySeconds = (attempt: number) => Math.min(60, 2 ** Math.min(attempt, 6));

/**
 * How much one ClickHouse insert takes. Inserting into `cdn_logs` and its rollups costs about
 * half as much per row at 50,000 rows as at 10,000 (measured with chDB), and no less beyond.
 */
export const GROUP_LIMITS = { maxRows: 50_000, maxBatches: 100 };

/**
 * The job of one accepted batch: claims it together with whatever else of its organization is
 * pending and not yet claimed, then inserts that group. Under load, batches accepted while an insert runs go in
 * together with the next one; alone, a batch goes in at once. A batch another worker has claimed
 * is left to that worker (and to the drainer, should it fail). Returns false when an insert failed.
 */
export async function processSpooledBatch(deps: ProcessDeps, orgId: string, batchId: string, limits = GROUP_LIMITS): Promise<boolean> {
  const batch = await findBatch(deps.db, orgId, batchId);
  if (!batch || batch.state === 'done' || batch.groupId) return true;
  const groupId = await claimGroup(deps.db, batch, limits);
  return groupId ? (await insertGroup(deps, groupId)) !== null : true;
}

/**
 * Moves one group's spooled rows into ClickHouse in one insert with the group's dedup token,
 * then marks its batches done and drops their spooled copies. Safe to run twice for the same
 * group (the drainer after a lost worker, a retry after a crash): the group's batches and their
 * order are recorded, so the same bytes go with the same token and ClickHouse keeps one copy.
 * On failure the group stays pending with a backoff. Returns how many batches went in, or null
 * when the insert failed.
 */
export async function insertGroup(deps: ProcessDeps, groupId: string): Promise<number | null> {
  const batches = (await groupBatches(deps.db, groupId)).filter((b) => b.state === 'pending');
  if (batches.length === 0) return 0;
  try {
    const parts: Buffer[] = [];
    for (const b of batches) {
      const blob = await deps.blobs.get(b.blobKey);
      if (!blob) throw new SpooledRowsMissing(`spooled rows missing at ${b.blobKey}`);
      parts.push(await buffer(blob.body));
    }
    await deps.analytics.insertJsonEachRow('cdn_logs', Buffer.concat(parts), { dedupToken: `group-${groupId}`, format: 'TabSeparated', columns: ROW_COLUMNS });
  } catch (err) {
    const message = err instanceof Error ? err.message : String(err);
    if (isDataError(err)) return isolate(deps, groupId, batches.length, message);
    const attempts = Math.max(...batches.map((b) => b.attempts)) + 1;
    deps.logger.warn({ err, groupId, batches: batches.length, attempts }, 'log-ingest: insert failed; will retry');
    await markGroupFailed(deps.db, groupId, message, retryDelaySeconds(attempts));
    return null;
  }
  await markGroupDone(deps.db, groupId);
  for (const b of batches) {
    await deps.blobs.delete(b.blobKey).catch((err: unknown) => deps.logger.warn({ err, batchId: b.id }, 'log-ingest: spool cleanup failed'));
  }
  return batches.length;
}

/**
 * A group whose rows ClickHouse refuses: split into one group per batch and each inserted alone,
 * so one poison batch never holds the others back; a batch refused alone is dead-lettered
 * (counted in folio_ingest_dead_letters_total, listed by GET /management/v1/ingest/dead-letters).
 */
async function isolate(deps: ProcessDeps, groupId: string, size: number, message: string): Promise<number> {
  if (size > 1) {
    deps.logger.warn({ groupId, batches: size, error: message.slice(0, 300) }, 'log-ingest: rows refused; inserting the group batch by batch');
    let done = 0;
    for (const single of await splitGroup(deps.db, groupId)) done += (await insertGroup(deps, single)) ?? 0;
    return done;
  }
  deps.logger.error({ groupId, error: message.slice(0, 300) }, 'log-ingest: batch refused by ClickHouse; dead-lettered');
  await markGroupDead(deps.db, groupId, message);
  deps.metrics.ingestDeadLetters.inc();
  return 0;
}

/**
 * Inserts every due pending batch once: the groups they were claimed for (a failed or lost
 * insert), and the rest in new groups. Returns how many batches went in.
 */
export async function drainSpool(deps: ProcessDeps, options: { limit?: number } = {}): Promise<number> {
  let done = 0;
  const tried = new Set<string>();
  for (const due of await dueBatches(deps.db, options.limit ?? 100)) {
    const batch = await findBatch(deps.db, due.orgId, due.id);
    if (!batch || batch.state === 'done') continue;
    const groupId = batch.groupId ?? (await claimGroup(deps.db, batch, GROUP_LIMITS));
    if (!groupId || tried.has(groupId)) continue;
    tried.add(groupId);
    done += (await insertGroup(deps, groupId)) ?? 0;
  }
  return done;
}
