import type { Queryable } from '../../adapters/db/index.js';

export const RELEASE_STATUSES = ['OPEN', 'SCHEDULED', 'PUBLISHED', 'UNPUBLISHED', 'FAILED'] as const;
export type ReleaseStatus = (typeof RELEASE_STATUSES)[number];
export type ReleaseAction = 'publish' | 'unpublish';

export interface ReleaseEntry {
  entryId: string;
  /** The entry's version when it was added: the one the release publishes. */
  versionId: string;
}

export interface Release {
  id: string;
  name: string;
  status: ReleaseStatus;
  scheduledAction: ReleaseAction | null;
  scheduledAt: string | null;
  /** Why the last scheduled run changed nothing: one line per blocking entry. */
  problems: string[] | null;
  entries: ReleaseEntry[];
  createdAt: string;
  updatedAt: string;
  publishedAt: string | null;
  unpublishedAt: string | null;
}

interface ReleaseRow {
  id: string;
  name: string;
  status: ReleaseStatus;
  scheduled_action: ReleaseAction | null;
  scheduled_at: Date | null;
  problems: string[] | null;
  created_at: Date;
  updated_at: Date;
  published_at: Date | null;
  unpublished_at: Date | null;
  entries: ReleaseEntry[];
}

const iso = (d: Date | null) => (d ? new Date(d).toISOString() : null);

const toRelease = (r: ReleaseRow): Release => ({
  id: r.id,
  name: r.name,
  status: r.status,
  scheduledAction: r.scheduled_action,
  scheduledAt: iso(r.scheduled_at),
  problems: r.problems,
  entries: r.entries,
  createdAt: iso(r.created_at)!,
  updatedAt: iso(r.updated_at)!,
  publishedAt: iso(r.published_at),
  unpublishedAt: iso(r.unpublished_at),
});

const SELECT = `SELECT r.id, r.name, r.status, r.scheduled_action, r.scheduled_at, r.problems, r.created_at, r.updated_at, r.published_at, r.unpublished_at,
  COALESCE((SELECT jsonb_agg(jsonb_build_object('entryId', e.entry_id, 'versionId', e.version_id) ORDER BY e.position)
            FROM release_entries e WHERE e.org_id = r.org_id AND e.release_id = r.id), '[]'::jsonb) AS entries
  FROM releases r`;

export async function insertRelease(tx: Queryable, orgId: string, id: string, name: string): Promise<void> {
  await tx.query('INSERT INTO releases (org_id, id, name) VALUES ($1, $2, $3)', [orgId, id, name]);
}

/** Adds entries at the given versions after those already there; an entry already in the release takes the new version. */
export async function putReleaseEntries(tx: Queryable, orgId: string, releaseId: string, entries: ReleaseEntry[]): Promise<void> {
  await tx.query(
    `INSERT INTO release_entries (org_id, release_id, entry_id, version_id, position)
     SELECT $1, $2, e.entry_id, e.version_id,
            COALESCE((SELECT max(position) FROM release_entries WHERE org_id = $1 AND release_id = $2), 0) + e.ord
     FROM jsonb_to_recordset($3::jsonb) AS e(entry_id text, version_id text, ord int)
     ON CONFLICT (org_id, release_id, entry_id) DO UPDATE SET version_id = EXCLUDED.version_id`,
    [orgId, releaseId, JSON.stringify(entries.map((e, i) => ({ entry_id: e.entryId, version_id: e.versionId, ord: i + 1 })))],
  );
  await tx.query('UPDATE releases SET updated_at = now() WHERE org_id = $1 AND id = $2', [orgId, releaseId]);
}

export async function findRelease(db: Queryable, orgId: string, id: string, options: { forUpdate?: boolean } = {}): Promise<Release | null> {
  if (options.forUpdate) await db.query('SELECT 1 FROM releases WHERE org_id = $1 AND id = $2 FOR UPDATE', [orgId, id]);
  const { rows } = await db.query<ReleaseRow>(`${SELECT} WHERE r.org_id = $1 AND r.id = $2`, [orgId, id]);
  return rows[0] ? toRelease(rows[0]) : null;
}

export async function listReleases(db: Queryable, orgId: string, page: { offset: number; limit: number }): Promise<{ items: Release[]; total: number }> {
  const [items, total] = await Promise.all([
    db.query<ReleaseRow>(`${SELECT} WHERE r.org_id = $1 ORDER BY r.created_at DESC, r.id LIMIT $2 OFFSET $3`, [orgId, page.limit, page.offset]),
    db.query<{ n: number }>('SELECT count(*)::int AS n FROM releases WHERE org_id = $1', [orgId]),
  ]);
  return { items: items.rows.map(toRelease), total: total.rows[0].n };
}

export async function updateReleaseState(
  tx: Queryable,
  orgId: string,
  id: string,
  state: { status: ReleaseStatus; scheduledAction?: ReleaseAction | null; scheduledAt?: Date | null; problems?: string[] | null; publishedAt?: Date; unpublishedAt?: Date },
): Promise<void> {
  await tx.query(
    `UPDATE releases SET status = $3, scheduled_action = $4, scheduled_at = $5, problems = $6::jsonb,
       published_at = COALESCE($7, published_at), unpublished_at = COALESCE($8, unpublished_at), updated_at = now()
     WHERE org_id = $1 AND id = $2`,
    [orgId, id, state.status, state.scheduledAction ?? null, state.scheduledAt ?? null, state.problems ? JSON.stringify(state.problems) : null, state.publishedAt ?? null, state.unpublishedAt ?? null],
  );
}

/** Scheduled releases whose time has come, in every organization, oldest first. */
export async function findDueReleases(db: Queryable, now: Date, limit: number): Promise<{ orgId: string; id: string }[]> {
  const { rows } = await db.query<{ org_id: string; id: string }>(
    `SELECT org_id, id FROM releases WHERE status = 'SCHEDULED' AND scheduled_at <= $1 ORDER BY scheduled_at, id LIMIT $2`,
    [now, limit],
  );
  return rows.map((r) => ({ orgId: r.org_id, id: r.id }));
}

/** Deletes the release and (by the foreign key) the list of its entries. */
export async function deleteReleaseRow(tx: Queryable, orgId: string, id: string): Promise<void> {
  await tx.query('DELETE FROM releases WHERE org_id = $1 AND id = $2', [orgId, id]);
}
