import { z } from 'zod';
import type { Db, Queryable } from '../adapters/db/index.js';
import { auditRetentionDaysOf, findAuditRetentionDays, updateAuditRetentionDays } from '../tenancy/organization-repository.js';

/** Reading the audit log: filters, pages, the NDJSON export, and the retention that prunes it. */

export const auditFilterSchema = z.strictObject({
  /** A member's or token's id. */
  actor: z.string().min(1).max(128).optional(),
  actorType: z.enum(['member', 'token', 'system']).optional(),
  /** An action (`entry.published`) or a family (`entry.*`). */
  action: z.string().regex(/^[a-z_]+(\.[a-z_]+|\.\*)$/, 'an action such as entry.published, or a family such as entry.*').optional(),
  subjectType: z.string().min(1).max(64).optional(),
  subjectId: z.string().min(1).max(256).optional(),
  from: z.iso.datetime({ offset: true }).optional(),
  to: z.iso.datetime({ offset: true }).optional(),
  pageIndex: z.string().optional(),
  pageSize: z.string().optional(),
});
export type AuditFilter = z.output<typeof auditFilterSchema>;

export const auditRetentionSchema = z.strictObject({ retentionDays: z.number().int().min(1).max(3650) });

export interface AuditRow {
  id: string;
  at: Date;
  actor: { type: string; id: string | null; name: string | null };
  action: string;
  subject: { type: string; id: string };
  changes: unknown;
  requestId: string | null;
  clientAddress: string | null;
  userAgent: string | null;
}

interface Row {
  id: number;
  at: Date;
  actor_type: string;
  actor_id: string | null;
  actor_name: string | null;
  action: string;
  subject_type: string;
  subject_id: string;
  changes: unknown;
  request_id: string | null;
  client_address: string | null;
  user_agent: string | null;
}

const toRow = (r: Row): AuditRow => ({
  id: String(r.id),
  at: r.at,
  actor: { type: r.actor_type, id: r.actor_id, name: r.actor_name },
  action: r.action,
  subject: { type: r.subject_type, id: r.subject_id },
  changes: r.changes,
  requestId: r.request_id,
  clientAddress: r.client_address,
  userAgent: r.user_agent,
});

/** The WHERE clause of `filter` (rows within the organization's retention only) and its parameters from $2. */
function where(orgId: string, filter: AuditFilter): { sql: string; params: unknown[] } {
  const params: unknown[] = [orgId];
  const parts = ['a.org_id = $1', `a.at > now() - ${auditRetentionDaysOf('$1')} * interval '1 day'`];
  const add = (sql: (p: string) => string, value: unknown) => {
    params.push(value);
    parts.push(sql(`$${params.length}`));
  };
  if (filter.actor) add((p) => `a.actor_id = ${p}`, filter.actor);
  if (filter.actorType) add((p) => `a.actor_type = ${p}`, filter.actorType);
  if (filter.action?.endsWith('.*')) add((p) => `a.action LIKE ${p}`, filter.action.slice(0, -1) + '%');
  else if (filter.action) add((p) => `a.action = ${p}`, filter.action);
  if (filter.subjectType) add((p) => `a.subject_type = ${p}`, filter.subjectType);
  if (filter.subjectId) add((p) => `a.subject_id = ${p}`, filter.subjectId);
  if (filter.from) add((p) => `a.at >= ${p}::timestamptz`, filter.from);
  if (filter.to) add((p) => `a.at < ${p}::timestamptz`, filter.to);
  return { sql: parts.join(' AND '), params };
}

const COLUMNS = 'a.id, a.at, a.actor_type, a.actor_id, a.actor_name, a.action, a.subject_type, a.subject_id, a.changes, a.request_id, a.client_address, a.user_agent';

/** Newest first. */
export async function listAudit(db: Queryable, orgId: string, filter: AuditFilter, page: { offset: number; limit: number }): Promise<{ items: AuditRow[]; total: number }> {
  const w = where(orgId, filter);
  const n = w.params.length;
  const [items, total] = await Promise.all([
    db.query<Row>(`SELECT ${COLUMNS} FROM audit_log a WHERE ${w.sql} ORDER BY a.id DESC LIMIT $${n + 1} OFFSET $${n + 2}`, [...w.params, page.limit, page.offset]),
    db.query<{ n: number }>(`SELECT count(*)::int AS n FROM audit_log a WHERE ${w.sql}`, w.params),
  ]);
  return { items: items.rows.map(toRow), total: total.rows[0].n };
}

/** Every matching row, oldest first, 1,000 at a time (by id), for the NDJSON export. */
export async function* exportAudit(db: Queryable, orgId: string, filter: AuditFilter): AsyncGenerator<AuditRow[]> {
  const w = where(orgId, filter);
  const n = w.params.length;
  let after = 0;
  for (;;) {
    const { rows } = await db.query<Row>(`SELECT ${COLUMNS} FROM audit_log a WHERE ${w.sql} AND a.id > $${n + 1} ORDER BY a.id LIMIT 1000`, [...w.params, after]);
    if (rows.length === 0) return;
    yield rows.map(toRow);
    after = rows[rows.length - 1].id;
  }
}

/**
 * Deletes the organization's rows older than its retention: the only deletion of the log (it is
 * never updated). Run when the log is read, and by the retention setting.
 */
export async function pruneAudit(db: Queryable, orgId: string): Promise<number> {
  const { rowCount } = await db.query(
    `DELETE FROM audit_log WHERE org_id = $1 AND at <= now() - ${auditRetentionDaysOf('$1')} * interval '1 day'`,
    [orgId],
  );
  return rowCount;
}

export function getRetention(db: Queryable, orgId: string): Promise<number> {
  return findAuditRetentionDays(db, orgId);
}

export async function setRetention(db: Db, orgId: string, days: number): Promise<void> {
  await db.transaction(async (tx) => {
    await updateAuditRetentionDays(tx, orgId, days);
    await pruneAudit(tx, orgId);
  });
}
