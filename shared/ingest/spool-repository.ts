import type { Queryable } from '../adapters/db/index.js';
import { randomBase62 } from '../ids.js';

/** One spooled batch (table `ingest_batches`). */
export interface SpoolBatch {
  orgId: string;
  id: string;
  distributionId: string;
  dedupToken: string;
  blobKey: string;
  accepted: number;
  rejected: number;
  state: 'pending' | 'done';
  attempts: number;
  /** The insert group this batch was claimed for, if any (see `claimGroup`). */
  groupId: string | null;
}

interface Row {
  org_id: string;
  id: string;
  distribution_id: string;
  dedup_token: string;
  blob_key: string;
  accepted: number;
  rejected: number;
  state: 'pending' | 'done';
  attempts: number;
  group_id: string | null;
}
const COLUMNS = 'org_id, id, distribution_id, dedup_token, blob_key, accepted, rejected, state, attempts, group_id';
const toBatch = (r: Row): SpoolBatch => ({
  orgId: r.org_id,
  id: r.id,
  distributionId: r.distribution_id,
  dedupToken: r.dedup_token,
  blobKey: r.blob_key,
  accepted: r.accepted,
  rejected: r.rejected,
  state: r.state,
  attempts: r.attempts,
  groupId: r.group_id,
});

export async function findBatchByToken(db: Queryable, orgId: string, dedupToken: string): Promise<SpoolBatch | null> {
  const { rows } = await db.query<Row>(`SELECT ${COLUMNS} FROM ingest_batches WHERE org_id = $1 AND dedup_token = $2`, [
    orgId,
    dedupToken,
  ]);
  return rows[0] ? toBatch(rows[0]) : null;
}

export async function findBatch(db: Queryable, orgId: string, id: string): Promise<SpoolBatch | null> {
  const { rows } = await db.query<Row>(`SELECT ${COLUMNS} FROM ingest_batches WHERE org_id = $1 AND id = $2`, [orgId, id]);
  return rows[0] ? toBatch(rows[0]) : null;
}

/** Records a batch; false when the same token is already recorded (a resent batch). */
export async function insertBatch(
  db: Queryable,
  b: Pick<SpoolBatch, 'orgId' | 'id' | 'distributionId' | 'dedupToken' | 'blobKey' | 'accepted' | 'rejected'>,
): Promise<boolean> {
  const { rowCount } = await db.query(
    // the job inserts it at once; the drainer only steps in if that has not happened in 30 s
    `INSERT INTO ingest_batches (org_id, id, distribution_id, dedup_token, blob_key, accepted, rejected, next_attempt_at)
     VALUES ($1, $2, $3, $4, $5, $6, $7, now() + interval '30 seconds') ON CONFLICT (org_id, dedup_token) DO NOTHING`,
    [b.orgId, b.id, b.distributionId, b.dedupToken, b.blobKey, b.accepted, b.rejected],
  );
  return rowCount === 1;
}

/** Pending batches due for a (re)try, oldest first, across organizations (the drainer's view). */
export async function dueBatches(db: Queryable, limit: number): Promise<Array<{ orgId: string; id: string }>> {
  const { rows } = await db.query<{ org_id: string; id: string }>(
    `SELECT org_id, id FROM ingest_batches WHERE state = 'pending' AND next_attempt_at <= now()
     ORDER BY next_attempt_at LIMIT $1`,
    [limit],
  );
  return rows.map((r) => ({ orgId: r.org_id, id: r.id }));
}

/**
 * Claims pending batches that no group holds yet for one ClickHouse insert: `first` (when still
 * free) and then the oldest others of its organization — fresh ones whose jobs have not run
 * yet, and failed ones whose retry is due — up to `maxRows` rows. Batches another claim is
 * locking are skipped, so two workers never claim the same batch. A group holds one
 * organization's batches only: an insert fails as a whole, and one organization's bad batch
 * must not hold back another's. Returns the group id, or null when nothing was free.
 */
export async function claimGroup(
  db: Queryable,
  first: { orgId: string; id: string },
  limits: { maxRows: number; maxBatches: number },
): Promise<string | null> {
  // The candidates are chosen first and only those are locked: locking every candidate (more
  // than fit) would make a concurrent job skip its own batch although this claim leaves it free.
  const { rows } = await db.query<{ id: string; accepted: number }>(
    `SELECT id, accepted FROM ingest_batches
     WHERE org_id = $1 AND state = 'pending' AND group_id IS NULL AND (attempts = 0 OR next_attempt_at <= now())
     ORDER BY (id = $2) DESC, created_at, id
     LIMIT $3`,
    [first.orgId, first.id, limits.maxBatches],
  );
  const taken: typeof rows = [];
  let total = 0;
  for (const r of rows) {
    if (taken.length > 0 && total + r.accepted > limits.maxRows) break;
    taken.push(r);
    total += r.accepted;
  }
  if (taken.length === 0) return null;
  // One statement: another claim may have taken some meanwhile (now claimed) or be taking them
  // (locked, skipped).
  const groupId = randomBase62(20);
  const { rowCount } = await db.query(
    `UPDATE ingest_batches SET group_id = $1 WHERE org_id = $2 AND id IN (
       SELECT id FROM ingest_batches WHERE org_id = $2 AND id = ANY($3::text[]) AND state = 'pending' AND group_id IS NULL
       FOR UPDATE SKIP LOCKED)`,
    [groupId, first.orgId, taken.map((r) => r.id)],
  );
  return rowCount > 0 ? groupId : null;
}

/** The batches of a group in the one order its insert uses (the same on every retry). */
export async function groupBatches(db: Queryable, groupId: string): Promise<SpoolBatch[]> {
  const { rows } = await db.query<Row>(`SELECT ${COLUMNS} FROM ingest_batches WHERE group_id = $1 ORDER BY org_id, id`, [groupId]);
  return rows.map(toBatch);
}

export async function markGroupDone(db: Queryable, groupId: string): Promise<void> {
  await db.query(`UPDATE ingest_batches SET state = 'done', done_at = now(), last_error = NULL WHERE group_id = $1`, [groupId]);
}

/** Records a failed attempt of the whole group; the drainer retries it after `retryInSeconds`. */
export async function markGroupFailed(db: Queryable, groupId: string, error: string, retryInSeconds: number): Promise<void> {
  await db.query(
    `UPDATE ingest_batches SET attempts = attempts + 1, last_error = $2, next_attempt_at = now() + make_interval(secs => $3)
     WHERE group_id = $1 AND state = 'pending'`,
    [groupId, error.slice(0, 500), retryInSeconds],
  );
}

/**
 * Gives every pending batch of a group a group of its own (`<group>-<batch id>`), so each is
 * inserted, and fails, alone. ClickHouse inserted nothing of the failed group (an insert of
 * this size is one block, atomic), so no row goes in twice.
 */
export async function splitGroup(db: Queryable, groupId: string): Promise<string[]> {
  const { rows } = await db.query<{ group_id: string }>(
    `UPDATE ingest_batches SET group_id = group_id || '-' || id WHERE group_id = $1 AND state = 'pending' RETURNING group_id`,
    [groupId],
  );
  return rows.map((r) => r.group_id).sort();
}

/** A group (of one batch) ClickHouse refuses as data: kept with its error, never retried. */
export async function markGroupDead(db: Queryable, groupId: string, error: string): Promise<void> {
  await db.query(
    `UPDATE ingest_batches SET state = 'dead', attempts = attempts + 1, last_error = $2, done_at = now() WHERE group_id = $1 AND state = 'pending'`,
    [groupId, error.slice(0, 500)],
  );
}

export interface DeadLetter {
  id: string;
  distributionId: string;
  accepted: number;
  error: string;
  createdAt: string;
  failedAt: string;
}

/** An organization's dead-lettered batches, newest first. */
export async function listDeadLetters(db: Queryable, orgId: string, page: { offset: number; limit: number }): Promise<{ items: DeadLetter[]; total: number }> {
  const [items, total] = await Promise.all([
    db.query<{ id: string; distribution_id: string; accepted: number; last_error: string | null; created_at: Date; done_at: Date | null }>(
      `SELECT id, distribution_id, accepted, last_error, created_at, done_at FROM ingest_batches
       WHERE org_id = $1 AND state = 'dead' ORDER BY created_at DESC, id LIMIT $2 OFFSET $3`,
      [orgId, page.limit, page.offset],
    ),
    db.query<{ n: number }>(`SELECT count(*)::int AS n FROM ingest_batches WHERE org_id = $1 AND state = 'dead'`, [orgId]),
  ]);
  return {
    items: items.rows.map((r) => ({
      id: r.id,
      distributionId: r.distribution_id,
      accepted: r.accepted,
      error: r.last_error ?? '',
      createdAt: new Date(r.created_at).toISOString(),
      failedAt: new Date(r.done_at ?? r.created_at).toISOString(),
    })),
    total: total.rows[0].n,
  };
}

export async function countPendingBatches(db: Queryable, orgId: string): Promise<number> {
  const { rows } = await db.query<{ n: number }>(
    `SELECT count(*)::int AS n FROM ingest_batches WHERE org_id = $1 AND state = 'pending'`,
    [orgId],
  );
  return rows[0].n;
}

/**
 * Forgets batches inserted more than `days` ago. Their rows stay in ClickHouse; only the record
 * that recognizes a resent copy goes (shippers retry within minutes, not days).
 */
export async function pruneDoneBatches(db: Queryable, days: number): Promise<number> {
  const { rowCount } = await db.query(
    `DELETE FROM ingest_batches WHERE state = 'done' AND done_at < now() - make_interval(days => $1)`,
    [days],
  );
  return rowCount;
}
