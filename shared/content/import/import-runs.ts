import type { Queryable } from '../../adapters/db/index.js';
import { newId } from '../../ids.js';

/** How far an import got: `running` until it ends; `stopped` ended early, `reason` says why. */
export interface ImportRun {
  id: string;
  state: 'running' | 'completed' | 'stopped';
  reason: string | null;
  lines: number;
  succeeded: number;
  failed: number;
  startedAt: string;
  updatedAt: string;
  finishedAt: string | null;
}

export type ImportCounts = Pick<ImportRun, 'lines' | 'succeeded' | 'failed'>;

interface ImportRunRow {
  id: string;
  state: ImportRun['state'];
  reason: string | null;
  lines: number;
  succeeded: number;
  failed: number;
  started_at: Date;
  updated_at: Date;
  finished_at: Date | null;
}

const fromDb = (r: ImportRunRow): ImportRun => ({
  id: r.id,
  state: r.state,
  reason: r.reason,
  lines: r.lines,
  succeeded: r.succeeded,
  failed: r.failed,
  startedAt: r.started_at.toISOString(),
  updatedAt: r.updated_at.toISOString(),
  finishedAt: r.finished_at?.toISOString() ?? null,
});

export async function insertImportRun(db: Queryable, orgId: string): Promise<string> {
  const id = newId();
  await db.query("INSERT INTO import_runs (org_id, id, state) VALUES ($1, $2, 'running')", [orgId, id]);
  return id;
}

/** Records the counts of a run still going. */
export async function updateImportRun(db: Queryable, orgId: string, id: string, c: ImportCounts): Promise<void> {
  await db.query("UPDATE import_runs SET lines = $3, succeeded = $4, failed = $5, updated_at = now() WHERE org_id = $1 AND id = $2 AND state = 'running'", [
    orgId,
    id,
    c.lines,
    c.succeeded,
    c.failed,
  ]);
}

export async function finishImportRun(db: Queryable, orgId: string, id: string, c: ImportCounts, end: { state: 'completed' | 'stopped'; reason: string | null }): Promise<void> {
  await db.query('UPDATE import_runs SET state = $3, reason = $4, lines = $5, succeeded = $6, failed = $7, updated_at = now(), finished_at = now() WHERE org_id = $1 AND id = $2', [
    orgId,
    id,
    end.state,
    end.reason,
    c.lines,
    c.succeeded,
    c.failed,
  ]);
}

/** The organization's latest import, or null when it never ran one. */
export async function findLatestImportRun(db: Queryable, orgId: string): Promise<ImportRun | null> {
  const { rows } = await db.query<ImportRunRow>(
    'SELECT id, state, reason, lines, succeeded, failed, started_at, updated_at, finished_at FROM import_runs WHERE org_id = $1 ORDER BY started_at DESC, id DESC LIMIT 1',
    [orgId],
  );
  return rows[0] ? fromDb(rows[0]) : null;
}
