import type { Queryable } from '../adapters/db/index.js';

// All SQL on `webhooks`; every statement is scoped by org and by kind: a plugged-in target's
// subscription (a purge target, see the edge folder and delivery-target.ts) belongs to the same
// machinery but webhook routes never see it, and the reverse. The secret never leaves through here.

/** `WEBHOOK_KIND`, or the kind a plugged-in delivery target stores its subscriptions with. */
export type SubscriptionKind = string;

/** The kind every HTTP webhook is stored with. */
export const WEBHOOK_KIND = 'webhook';

/**
 * A plugged-in target's own settings, stored with its subscription as JSON (none for an HTTP
 * webhook); the domain that plugs the target in gives them their type.
 */
export type TargetSettings = Record<string, unknown>;

export interface WebhookRecord<S extends TargetSettings = TargetSettings> {
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
  /** A plugged-in target's settings (none on a webhook). */
  settings?: S;
}

interface WebhookRow<S extends TargetSettings> {
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
  purge: S | null;
}

const COLUMNS = 'id, url, events, models, description, enabled, disabled_reason, failed_in_a_row, created_at, updated_at, purge';

const toRecord = <S extends TargetSettings>(r: WebhookRow<S>): WebhookRecord<S> => ({
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
  ...(r.purge ? { settings: r.purge } : {}),
});

export async function insertWebhook<S extends TargetSettings = TargetSettings>(
  db: Queryable,
  orgId: string,
  w: { id: string; url: string; events: string[]; models: string[] | null; description: string | null; enabled: boolean; secret: string; settings?: S },
  kind: SubscriptionKind = WEBHOOK_KIND,
): Promise<WebhookRecord<S>> {
  const { rows } = await db.query<WebhookRow<S>>(
    `INSERT INTO webhooks (org_id, id, url, events, models, description, enabled, secret, kind, purge)
     VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9, $10) RETURNING ${COLUMNS}`,
    [orgId, w.id, w.url, w.events, w.models, w.description, w.enabled, w.secret, kind, w.settings ? JSON.stringify(w.settings) : null],
  );
  return toRecord(rows[0]);
}

export async function listWebhooks<S extends TargetSettings = TargetSettings>(
  db: Queryable,
  orgId: string,
  page: { offset: number; limit: number },
  kind: SubscriptionKind = WEBHOOK_KIND,
) {
  const [items, total] = await Promise.all([
    db.query<WebhookRow<S>>(`SELECT ${COLUMNS} FROM webhooks WHERE org_id = $1 AND kind = $4 ORDER BY created_at, id LIMIT $2 OFFSET $3`, [orgId, page.limit, page.offset, kind]),
    countWebhooks(db, orgId, kind),
  ]);
  return { items: items.rows.map(toRecord), total };
}

export async function countWebhooks(db: Queryable, orgId: string, kind: SubscriptionKind = WEBHOOK_KIND): Promise<number> {
  const { rows } = await db.query<{ n: number }>('SELECT count(*)::int AS n FROM webhooks WHERE org_id = $1 AND kind = $2', [orgId, kind]);
  return rows[0].n;
}

export async function findWebhook<S extends TargetSettings = TargetSettings>(
  db: Queryable,
  orgId: string,
  id: string,
  kind: SubscriptionKind = WEBHOOK_KIND,
): Promise<WebhookRecord<S> | null> {
  const { rows } = await db.query<WebhookRow<S>>(`SELECT ${COLUMNS} FROM webhooks WHERE org_id = $1 AND id = $2 AND kind = $3`, [orgId, id, kind]);
  return rows[0] ? toRecord(rows[0]) : null;
}

/**
 * Changes the given members. Enabling a webhook clears why it was disabled and its failure
 * count: it starts afresh.
 */
export async function updateWebhook<S extends TargetSettings = TargetSettings>(
  db: Queryable,
  orgId: string,
  id: string,
  patch: { url?: string; events?: string[]; models?: string[] | null; description?: string | null; enabled?: boolean; settings?: S },
  kind: SubscriptionKind = WEBHOOK_KIND,
): Promise<WebhookRecord<S> | null> {
  const { rows } = await db.query<WebhookRow<S>>(
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
      patch.settings ? JSON.stringify(patch.settings) : null,
    ],
  );
  return rows[0] ? toRecord(rows[0]) : null;
}

export async function deleteWebhook(db: Queryable, orgId: string, id: string, kind: SubscriptionKind = WEBHOOK_KIND): Promise<boolean> {
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
