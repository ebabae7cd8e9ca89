import type { Queryable } from '../adapters/db/index.js';

/**
 * Audit rows written with the caller's transaction, so they commit or roll back with the change.
 * The actor, client address, user agent and request id come from the transaction's `folio.*`
 * settings (set from the request at BEGIN, see audit-actor.ts); without them the change is the
 * system's (the scheduler). A token's name is read from its row.
 */

export interface AuditRecord {
  /** Named like the events: `member.invited`, `token.created`, `entry.published`, … */
  action: string;
  subject: { type: string; id: string };
  /** Field names, or before/after of settings; never a secret. Absent: the request's own `changes`, if any. */
  changes?: Record<string, unknown> | null;
  /** Who acted, when the request has no actor yet (accepting an invitation, signing in). */
  actor?: { type: 'member'; id: string; name: string };
}

/** The audit columns read from the transaction's settings, as SQL (for `INSERT … SELECT`). */
export const AUDIT_ACTOR_SQL = `
  COALESCE(NULLIF(current_setting('folio.actor_type', true), ''), 'system'),
  NULLIF(current_setting('folio.actor', true), ''),
  COALESCE(NULLIF(current_setting('folio.actor_name', true), ''),
           (SELECT t.name FROM tokens t WHERE t.id = NULLIF(current_setting('folio.actor', true), ''))),
  NULLIF(current_setting('folio.client_address', true), ''),
  NULLIF(current_setting('folio.user_agent', true), ''),
  NULLIF(current_setting('folio.request_id', true), '')`;

/** The request's `changes` setting, as SQL jsonb. */
export const AUDIT_CHANGES_SQL = `NULLIF(current_setting('folio.changes', true), '')::jsonb`;

export async function recordAudit(tx: Queryable, orgId: string, records: AuditRecord[]): Promise<void> {
  if (records.length === 0) return;
  await tx.query(
    `INSERT INTO audit_log (org_id, actor_type, actor_id, actor_name, client_address, user_agent, request_id, action, subject_type, subject_id, changes)
     SELECT $1, COALESCE(r.actor_type, a.actor_type), COALESCE(r.actor_id, a.actor_id), COALESCE(r.actor_name, a.actor_name),
            a.client_address, a.user_agent, a.request_id, r.action, r.subject_type, r.subject_id, COALESCE(r.changes, ${AUDIT_CHANGES_SQL})
     FROM jsonb_to_recordset($2::jsonb) AS r(action text, subject_type text, subject_id text, changes jsonb, actor_type text, actor_id text, actor_name text, ord int)
     CROSS JOIN (SELECT ${AUDIT_ACTOR_SQL}) AS a(actor_type, actor_id, actor_name, client_address, user_agent, request_id)
     ORDER BY r.ord`,
    [
      orgId,
      JSON.stringify(
        records.map((r, ord) => ({
          action: r.action,
          subject_type: r.subject.type,
          subject_id: r.subject.id,
          changes: r.changes ?? null,
          actor_type: r.actor?.type ?? null,
          actor_id: r.actor?.id ?? null,
          actor_name: r.actor?.name ?? null,
          ord,
        })),
      ),
    ],
  );
}
