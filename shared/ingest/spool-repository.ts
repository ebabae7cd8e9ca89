import type { Queryable } from '../db/index.js';

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
}
const COLUMNS = 'org_id, id, distribution_id, dedup_token, blob_key, accepted, rejected, state, attempts';
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

export async function markBatchDone(db: Queryable, orgId: string, id: string): Promise<void> {
  await db.query(`UPDATE ingest_batches SET state = 'done', done_at = now(), last_error = NULL WHERE org_id = $1 AND id = $2`, [
    orgId,
    id,
  ]);
}

/** Records a failed attempt; the drainer retries after `retryInSeconds`. */
export async function markBatchFailed(db: Queryable, orgId: string, id: string, error: string, retryInSeconds: number): Promise<void> {
  await db.query(
    `UPDATE ingest_batches SET attempts = attempts + 1, last_error = $3,
       next_attempt_at = now() + make_interval(secs => $4)
     WHERE org_id = $1 AND id = $2 AND state = 'pending'`,
    [orgId, id, error.slice(0, 500), retryInSeconds],
  );
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
