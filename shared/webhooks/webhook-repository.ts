import type { Queryable } from '../adapters/db/index.js';
import type { PurgeConfig } from '../edge/purge-target.js';

/**
 * All SQL on `webhooks`; every statement is scoped by org and by kind: a purge target (kind
 * `purge`, see the edge folder) is a subscription of the same machinery that webhook routes
 * never see, and the reverse. The secret never leaves through here.
 */

export type SubscriptionKind = 'webhook' | 'purge';

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
  /** A purge target's provider and settings (none on a webhook). */
  purge?: PurgeConfig;
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
  purge: PurgeConfig | null;
}

const COLUMNS = 'id, url, events, models, description, enabled, disabled_reason, failed_in_a_row, created_at, updated_at, purge';

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
  ...(r.purge ? { purge: r.purge } : {}),
});

export async function insertWebhook(
  db: Queryable,
  orgId: string,
  w: { id: string; url: string; events: string[]; models: string[] | null; description: string | null; enabled: boolean; secret: string; purge?: PurgeConfig },
): Promise<WebhookRecord> {
  const { rows } = await db.query<WebhookRow>(
    `INSERT INTO webhooks (org_id, id, url, events, models, description, enabled, secret, kind, purge)
     VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9, $10) RETURNING ${COLUMNS}`,
    [orgId, w.id, w.url, w.events, w.models, w.description, w.enabled, w.secret, w.purge ? 'purge' : 'webhook', w.purge ? JSON.stringify(w.purge) : null],
  );
  return toRecord(rows[0]);
}

export async function listWebhooks(db: Queryable, orgId: string, page: { offset: number; limit: number }, kind: SubscriptionKind = 'webhook') {
  const [items, total] = await Promise.all([
    db.query<WebhookRow>(`SELECT ${COLUMNS} FROM webhooks WHERE org_id = $1 AND kind = $4 ORDER BY created_at, id LIMIT $2 OFFSET $3`, [orgId, page.limit, page.offset, kind]),
    countWebhooks(db, orgId, kind),
  ]);
  return { items: items.rows.map(toRecord), total };
}

export async function countWebhooks(db: Queryable, orgId: string, kind: SubscriptionKind = 'webhook'): Promise<number> {
  const { rows } = await db.query<{ n: number }>('SELECT count(*)::int AS n FROM webhooks WHERE org_id = $1 AND kind = $2', [orgId, kind]);
  return rows[0].n;
}

export async function findWebhook(db: Queryable, orgId: string, id: string, kind: SubscriptionKind = 'webhook'): Promise<WebhookRecord | null> {
  const { rows } = await db.query<WebhookRow>(`SELECT ${COLUMNS} FROM webhooks WHERE org_id = $1 AND id = $2 AND kind = $3`, [orgId, id, kind]);
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
  patch: { url?: string; events?: string[]; models?: string[] | null; description?: string | null; enabled?: boolean; purge?: PurgeConfig },
  kind: SubscriptionKind = 'webhook',
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
       purge = COALESCE($11::jsonb, purge),
       updated_at = now()
     WHERE org_id = $1 AND id = $2 AND kind = $10 RETURNING ${COLUMNS}`,
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
      kind,
      patch.purge ? JSON.stringify(patch.purge) : null,
    ],
  );
  return rows[0] ? toRecord(rows[0]) : null;
}

export async function deleteWebhook(db: Queryable, orgId: string, id: string, kind: SubscriptionKind = 'webhook'): Promise<boolean> {
  const r = await db.query('DELETE FROM webhooks WHERE org_id = $1 AND id = $2 AND kind = $3', [orgId, id, kind]);
  return r.rowCount > 0;
}

/** A new secret; the current one keeps signing beside it until `previousUntil`. */
export async function rotateWebhookSecret(db: Queryable, orgId: string, id: string, secret: string, previousUntil: Date): Promise<boolean> {
  const r = await db.query(
    `UPDATE webhooks SET previous_secret = secret, previous_secret_until = $4, secret = $3, updated_at = now() WHERE org_id = $1 AND id = $2 AND kind = 'webhook'`,
    [orgId, id, secret, previousUntil],
  );
  return r.rowCount > 0;
}
