import type { AnalyticsStore } from '../adapters/clickhouse/index.js';
import type { BlobStore } from '../adapters/blobs/index.js';
import { organizationPrefixes } from '../adapters/blobs/keys.js';
import type { Db, Queryable } from '../adapters/db/index.js';
import type { JobQueue } from '../adapters/queue/index.js';
import { notFound } from '../errors/index.js';
import { deleteOrganization, markOrganizationDeleting } from './organization-repository.js';

/** What a deletion removed: rows of Postgres, objects of the blob store, rows of ClickHouse. */
export interface RemovedCounts {
  rows: number;
  blobs: number;
  analyticsRows: number;
}

export interface DeletionStatus {
  id: string;
  slug: string;
  /** deleting: the job has not finished (yet); deleted: nothing of the organization is left. */
  status: 'deleting' | 'deleted';
  requestedAt: Date;
  finishedAt: Date | null;
  removed: RemovedCounts | null;
  /** The last failure of the job, while it is retried or after it gave up. */
  error: string | null;
}

interface DeletionRow {
  id: string;
  slug: string;
  requested_at: Date;
  finished_at: Date | null;
  removed: RemovedCounts | null;
  error: string | null;
}

const toStatus = (r: DeletionRow): DeletionStatus => ({
  id: r.id,
  slug: r.slug,
  status: r.finished_at ? 'deleted' : 'deleting',
  requestedAt: r.requested_at,
  finishedAt: r.finished_at,
  removed: r.removed,
  error: r.error,
});

/**
 * Marks the organization for deletion — suspended at once, so every door refuses it — and
 * records the deletion whose status can be polled. Repeating it while the deletion runs returns
 * the same status (the caller enqueues the job again: it is keyed, so that joins the running one).
 * 404 for an unknown organization or one already deleted.
 */
export async function requestDeletion(db: Db, orgId: string): Promise<DeletionStatus> {
  return db.transaction(async (tx) => {
    const slug = await markOrganizationDeleting(tx, orgId);
    if (slug === null) throw notFound('Organization');
    const inserted = await tx.query<DeletionRow>(
      `INSERT INTO organization_deletions (id, slug) VALUES ($1, $2)
       ON CONFLICT (id) DO UPDATE SET error = organization_deletions.error RETURNING *`,
      [orgId, slug],
    );
    return toStatus(inserted.rows[0]);
  });
}

/** Tries of one deletion job; after the last, the operator's DELETE starts it again. */
const DELETE_ATTEMPTS = 5;

/** Enqueues the deletion job of `orgId` (`organization-delete`), joining the one queued or running. */
export function enqueueDeletion(queue: JobQueue, orgId: string, requestId?: string): Promise<string> {
  return queue.enqueue('organization-delete', { orgId, requestId, version: 1 }, { jobId: `organization-delete:${orgId}`, attempts: DELETE_ATTEMPTS, backoffMs: 5000 });
}

export async function findDeletion(db: Queryable, orgId: string): Promise<DeletionStatus | null> {
  const { rows } = await db.query<DeletionRow>('SELECT * FROM organization_deletions WHERE id = $1', [orgId]);
  return rows[0] ? toStatus(rows[0]) : null;
}

export async function recordDeletionError(db: Queryable, orgId: string, error: string): Promise<void> {
  await db.query('UPDATE organization_deletions SET error = $2 WHERE id = $1', [orgId, error.slice(0, 1000)]);
}

/**
 * Removes everything of an organization whose deletion was requested: its objects in the blob
 * store, its rows in every ClickHouse table with an `org_id` column, then in one transaction its
 * rows in every Postgres table with an `org_id` column and the organization itself; the blob
 * prefixes are swept once more for objects a job still running wrote meanwhile. Tables are found
 * by their column, not listed here, so a table added later is covered. Each step is idempotent:
 * a retried job finishes the work. Returns the counts, also recorded in its deletion's row.
 */
export async function deleteOrganizationData(deps: { db: Db; blobs: BlobStore; analytics: AnalyticsStore }, orgId: string): Promise<RemovedCounts> {
  const deletion = await findDeletion(deps.db, orgId);
  if (!deletion) throw notFound('Organization deletion');
  if (deletion.removed) return deletion.removed;
  let blobs = await deleteBlobs(deps.blobs, orgId);
  const analyticsRows = await deleteAnalyticsRows(deps.analytics, orgId);
  const rows = await deleteRows(deps.db, orgId);
  blobs += await deleteBlobs(deps.blobs, orgId);
  const removed = { rows, blobs, analyticsRows };
  await deps.db.query('UPDATE organization_deletions SET finished_at = now(), removed = $2, error = NULL WHERE id = $1', [orgId, JSON.stringify(removed)]);
  return removed;
}

async function deleteBlobs(store: BlobStore, orgId: string): Promise<number> {
  let n = 0;
  for (const prefix of organizationPrefixes(orgId)) {
    for await (const key of store.list(prefix)) {
      await store.delete(key);
      n++;
    }
  }
  return n;
}

/** The tables (not views) of the current database with an `org_id` column. */
async function analyticsTablesWithOrgId(store: AnalyticsStore): Promise<string[]> {
  // (aliased `tbl`: an alias `name` would replace the columns' `name` in the WHERE clause)
  const rows = await store.query<{ tbl: string }>(
    `SELECT t.name AS tbl FROM system.tables t
     INNER JOIN system.columns c ON c.database = t.database AND c.table = t.name
     WHERE t.database = currentDatabase() AND c.name = 'org_id' AND t.engine LIKE '%MergeTree'
     ORDER BY tbl`,
  );
  return rows.map((r) => r.tbl);
}

async function deleteAnalyticsRows(store: AnalyticsStore, orgId: string): Promise<number> {
  let n = 0;
  for (const table of await analyticsTablesWithOrgId(store)) {
    const [{ rows }] = await store.query<{ rows: number }>(`SELECT count() AS rows FROM \`${table}\` WHERE org_id = {org:String}`, { org: orgId });
    if (rows === 0) continue;
    // mutations_sync = 2: the statement returns once the rows are gone on every replica
    await store.command(`ALTER TABLE \`${table}\` DELETE WHERE org_id = {org:String} SETTINGS mutations_sync = 2`, { org: orgId });
    n += rows;
  }
  return n;
}

/** The tables of the current schema with an `org_id` column. */
async function tablesWithOrgId(db: Queryable): Promise<string[]> {
  const { rows } = await db.query<{ table_name: string }>(
    `SELECT c.table_name FROM information_schema.columns c
     JOIN information_schema.tables t ON t.table_schema = c.table_schema AND t.table_name = c.table_name
     WHERE c.table_schema = current_schema() AND c.column_name = 'org_id' AND t.table_type = 'BASE TABLE'
     ORDER BY c.table_name`,
  );
  return rows.map((r) => r.table_name);
}

async function deleteRows(db: Db, orgId: string): Promise<number> {
  return db.transaction(async (tx) => {
    const tables = await tablesWithOrgId(tx);
    let n = 0;
    for (const table of tables) {
      const { rows } = await tx.query<{ n: number }>(`SELECT count(*)::int AS n FROM "${table}" WHERE org_id = $1`, [orgId]);
      n += rows[0].n;
    }
    // Foreign keys cascade from organizations; tables without one are cleared one by one.
    const org = await deleteOrganization(tx, orgId);
    for (const table of tables) await tx.query(`DELETE FROM "${table}" WHERE org_id = $1`, [orgId]);
    return n + org;
  });
}
