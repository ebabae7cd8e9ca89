import type { Queryable } from '../adapters/db/index.js';

/** All SQL on `webhooks`; every statement is scoped by org. The secret never leaves through here. */

export interface WebhookRecord {
  id: string;
  url: string;
  events: string[];
  models: string[] | null;
  description: string | null;
  enabled: boolean;
  /** Why Folio disabled it (failures), or null. */
  disabledReason: string | null;
  /** Deliveries in a row that failed every attempt. */
  failedInARow: number;
  createdAt: Date;
  updatedAt: Date;
}

interface WebhookRow {
  id: string;
  url: string;
  events: string[];
  models: string[] | null;
  description: string | null;
  enabled: boolean;
  disabled_reason: string | null;
  failed_in_a_row: number;
  created_at: Date;
  updated_at: Date;
}

const COLUMNS = 'id, url, events, models, description, enabled, disabled_reason, failed_in_a_row, created_at, updated_at';

const toRecord = (r: WebhookRow): WebhookRecord => ({
  id: r.id,
  url: r.url,
  events: r.events,
  models: r.models,
  description: r.description,
  enabled: r.enabled,
  disabledReason: r.disabled_reason,
  failedInARow: r.failed_in_a_row,
  createdAt: r.created_at,
  updatedAt: r.updated_at,
});

export async function insertWebhook(
  db: Queryable,
  orgId: string,
  w: { id: string; url: string; events: string[]; models: string[] | null; description: string | null; enabled: boolean; secret: string },
): Promise<WebhookRecord> {
  const { rows } = await db.query<WebhookRow>(
    `INSERT INTO webhooks (org_id, id, url, events, models, description, enabled, secret)
     VALUES ($1, $2, $3, $4, $5, $6, $7, $8) RETURNING ${COLUMNS}`,
    [orgId, w.id, w.url, w.events, w.models, w.description, w.enabled, w.secret],
  );
  return toRecord(rows[0]);
}

export async function listWebhooks(db: Queryable, orgId: string, page: { offset: number; limit: number }) {
  const [items, total] = await Promise.all([
    db.query<WebhookRow>(`SELECT ${COLUMNS} FROM webhooks WHERE org_id = $1 ORDER BY created_at, id LIMIT $2 OFFSET $3`, [orgId, page.limit, page.offset]),
    db.query<{ n: number }>('SELECT count(*)::int AS n FROM webhooks WHERE org_id = $1', [orgId]),
  ]);
  return { items: items.rows.map(toRecord), total: total.rows[0].n };
}

export async function countWebhooks(db: Queryable, orgId: string): Promise<number> {
  const { rows } = await db.query<{ n: number }>('SELECT count(*)::int AS n FROM webhooks WHERE org_id = $1', [orgId]);
  return rows[0].n;
}

export async function findWebhook(db: Queryable, orgId: string, id: string): Promise<WebhookRecord | null> {
  const { rows } = await db.query<WebhookRow>(`SELECT ${COLUMNS} FROM webhooks WHERE org_id = $1 AND id = $2`, [orgId, id]);
  return rows[0] ? toRecord(rows[0]) : null;
}

/**
 * Changes the given members. Enabling a webhook clears why it was disabled and its failure
 * count: it starts afresh.
 */
export async function updateWebhook(
  db: Queryable,
  orgId: string,
  id: string,
  patch: { url?: string; events?: string[]; models?: string[] | null; description?: string | null; enabled?: boolean },
): Promise<WebhookRecord | null> {
  const { rows } = await db.query<WebhookRow>(
    `UPDATE webhooks SET
       url = COALESCE($3, url),
       events = COALESCE($4, events),
       models = CASE WHEN $5::boolean THEN $6 ELSE models END,
       description = CASE WHEN $7::boolean THEN $8 ELSE description END,
       enabled = COALESCE($9, enabled),
       disabled_reason = CASE WHEN $9 IS TRUE THEN NULL ELSE disabled_reason END,
       failed_in_a_row = CASE WHEN $9 IS TRUE THEN 0 ELSE failed_in_a_row END,
       updated_at = now()
     WHERE org_id = $1 AND id = $2 RETURNING ${COLUMNS}`,
    [
      orgId,
      id,
      patch.url ?? null,
      patch.events ?? null,
      patch.models !== undefined,
      patch.models ?? null,
      patch.description !== undefined,
      patch.description ?? null,
      patch.enabled ?? null,
    ],
  );
  return rows[0] ? toRecord(rows[0]) : null;
}

export async function deleteWebhook(db: Queryable, orgId: string, id: string): Promise<boolean> {
  const r = await db.query('DELETE FROM webhooks WHERE org_id = $1 AND id = $2', [orgId, id]);
  return r.rowCount > 0;
}

/** A new secret; the current one keeps signing beside it until `previousUntil`. */
export async function rotateWebhookSecret(db: Queryable, orgId: string, id: string, secret: string, previousUntil: Date): Promise<boolean> {
  const r = await db.query(
    `UPDATE webhooks SET previous_secret = secret, previous_secret_until = $4, secret = $3, updated_at = now() WHERE org_id = $1 AND id = $2`,
    [orgId, id, secret, previousUntil],
  );
  return r.rowCount > 0;
}
