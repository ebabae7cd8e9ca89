import type { Db, Queryable } from '../adapters/db/index.js';
import type { TargetSettings } from './webhook-repository.js';

// All SQL on `events` (reading) and `webhook_deliveries`. Order within a lane — one webhook, one
// subject — is kept by sending only its oldest pending delivery (the head); whoever finishes a
// head enqueues the next. Adding deliveries to lanes and finishing heads take one advisory lock,
// adding exclusively (from its INSERT to its COMMIT) and finishing shared, so a delivery added
// while its lane's head finishes cannot be left without a job. Dispatchers take turns on a lock
// of their own for the whole of their transaction, so events become deliveries in their order.

/** The advisory lock key of webhook lanes (the bytes "foliow"). */
const LANE_LOCK = 0x666f6c696f77;
/** The advisory lock key dispatchers take turns on (the bytes "foliod"). */
const DISPATCH_LOCK = 0x666f6c696f64;

export interface PendingEvent {
  id: number;
  orgId: string;
  type: string;
  subject: string;
  model: string | null;
  data: Record<string, unknown>;
  createdAt: Date;
}

export interface Subscriber {
  orgId: string;
  id: string;
  events: string[];
  models: string[] | null;
  /** 'webhook', or the kind of a plugged-in target (see delivery-target.ts), which makes its bodies. */
  kind: string;
}

export interface NewDelivery {
  orgId: string;
  id: string;
  webhookId: string;
  eventId: number;
  eventType: string;
  lane: string;
  body: string;
}

export interface DeliveryKey {
  orgId: string;
  id: string;
}

/**
 * Joined into a statement, it commits without waiting for the disk (synchronous_commit off for
 * that statement's transaction alone). For claims and attempt records only: a Postgres crash may
 * forget the last fraction of a second of them, and what it forgets is an attempt sent again
 * under the same webhook-id — what at-least-once delivery allows anyway. Waiting for the disk on
 * each of them cost more than the POSTs they record.
 */
const ASYNC_COMMIT = `(SELECT set_config('synchronous_commit', 'off', true)) AS async_commit`;

/** A lock-free look, so that dispatchers woken by a commit another one handled stop here. */
export async function hasUndispatchedEvents(db: Queryable): Promise<boolean> {
  const { rows } = await db.query<{ any: boolean }>('SELECT EXISTS (SELECT 1 FROM events WHERE dispatched_at IS NULL) AS any');
  return rows[0].any;
}

/**
 * Waits for its turn among dispatchers, then takes up to `limit` undispatched events, oldest
 * first, stamping them dispatched (the transaction adds their deliveries before it commits).
 */
export async function takeUndispatchedEvents(tx: Queryable, limit: number): Promise<PendingEvent[]> {
  await tx.query('SELECT pg_advisory_xact_lock($1::bigint)', [DISPATCH_LOCK]);
  const { rows } = await tx.query<{ id: number; org_id: string; type: string; subject: string; model: string | null; data: Record<string, unknown>; created_at: Date }>(
    `UPDATE events e SET dispatched_at = now()
     WHERE e.id IN (SELECT id FROM events WHERE dispatched_at IS NULL ORDER BY id LIMIT $1)
     RETURNING e.id, e.org_id, e.type, e.subject, e.model, e.data, e.created_at`,
    [limit],
  );
  return rows
    .map((r) => ({ id: r.id, orgId: r.org_id, type: r.type, subject: r.subject, model: r.model, data: r.data, createdAt: r.created_at }))
    .sort((a, b) => a.id - b.id);
}

export async function enabledSubscribers(tx: Queryable, orgIds: string[]): Promise<Subscriber[]> {
  const { rows } = await tx.query<{ org_id: string; id: string; events: string[]; models: string[] | null; kind: string }>(
    'SELECT org_id, id, events, models, kind FROM webhooks WHERE enabled AND org_id = ANY($1::text[]) ORDER BY created_at, id',
    [orgIds],
  );
  return rows.map((r) => ({ orgId: r.org_id, id: r.id, events: r.events, models: r.models, kind: r.kind }));
}

/**
 * Inserts deliveries in the order given and returns the new lane heads. Locks out finishing
 * deliveries until the transaction ends: the lock is held for as short a time as may be, from
 * here, not from the dispatcher's first statement.
 */
export async function insertDeliveries(tx: Queryable, deliveries: NewDelivery[]): Promise<DeliveryKey[]> {
  if (deliveries.length === 0) return [];
  await tx.query('SELECT pg_advisory_xact_lock($1::bigint)', [LANE_LOCK]);
  // A new delivery heads its lane when it is the lane's first in this batch and the lane had no
  // pending delivery before (the statement's snapshot does not see the rows its INSERT adds).
  const { rows } = await tx.query<{ org_id: string; id: string }>(
    `WITH ins AS (
       INSERT INTO webhook_deliveries (org_id, id, webhook_id, event_id, event_type, lane, body)
       SELECT d.org_id, d.id, d.webhook_id, d.event_id, d.event_type, d.lane, d.body
       FROM jsonb_to_recordset($1::jsonb) AS d(org_id text, id text, webhook_id text, event_id bigint, event_type text, lane text, body text, ord int)
       ORDER BY d.ord
       RETURNING org_id, id, webhook_id, lane, seq)
     SELECT i.org_id, i.id FROM (
       SELECT ins.*, row_number() OVER (PARTITION BY org_id, webhook_id, lane ORDER BY seq) AS nth FROM ins) i
     WHERE i.nth = 1 AND NOT EXISTS (
       SELECT 1 FROM webhook_deliveries p WHERE p.org_id = i.org_id AND p.webhook_id = i.webhook_id AND p.lane = i.lane AND p.status = 'pending')
     ORDER BY i.seq`,
    [JSON.stringify(deliveries.map((d, ord) => ({ org_id: d.orgId, id: d.id, webhook_id: d.webhookId, event_id: d.eventId, event_type: d.eventType, lane: d.lane, body: d.body, ord })))],
  );
  return rows.map((r) => ({ orgId: r.org_id, id: r.id }));
}

/** Rows of `webhook_deliveries` as the planner's statistics last counted them (-1: never). */
export async function countedDeliveryRows(db: Queryable): Promise<number> {
  const { rows } = await db.query<{ n: number }>(`SELECT reltuples::float8 AS n FROM pg_class WHERE oid = 'webhook_deliveries'::regclass`);
  return rows[0]?.n ?? -1;
}

/**
 * Has Postgres sample `webhook_deliveries` again. Claims and records look deliveries up by key,
 * but their plans are made (and kept, per connection) from these statistics: planned for a table
 * of a few pending rows, they scan every pending row for each lookup, which a burst of thousands
 * turns quadratic — before autovacuum's next visit, a minute or more later. ANALYZE samples at
 * most 30,000 rows, blocks no reads or writes, and invalidates the plans it makes obsolete.
 */
export async function refreshDeliveryStatistics(db: Queryable): Promise<void> {
  await db.query('ANALYZE webhook_deliveries');
}

/** A delivery with what sending it needs. */
export interface DeliveryToSend {
  orgId: string;
  id: string;
  webhookId: string;
  attempts: number;
  body: string;
  url: string;
  enabled: boolean;
  secrets: string[];
  /** The webhook's failures in a row when read (a success resets them only when there are some). */
  failedInARow: number;
  /** The subscription's kind: 'webhook' or a plugged-in target's, which sends the attempt. */
  kind: string;
  /** A plugged-in target's settings; null for a webhook. */
  settings: TargetSettings | null;
  /** Milliseconds since the delivery was made (by the database's clock, the same for every process). */
  ageMs: number;
}

/**
 * Claims the next attempt of each delivery for `claimMs`, in one statement: it must be pending,
 * due (within a second), at the head of its lane and not claimed by another worker. The answer
 * follows `keys`, null where any of that fails — that job then has nothing to do. A key given
 * twice is claimed once (the first). The claim makes a second job for the same attempt harmless,
 * and runs out by itself when the worker that holds it dies.
 */
export async function claimDeliveries(db: Queryable, keys: DeliveryKey[], claimMs: number): Promise<(DeliveryToSend | null)[]> {
  const { rows } = await db.query<{
    org_id: string;
    id: string;
    webhook_id: string;
    attempts: number;
    body: string;
    url: string;
    enabled: boolean;
    secret: string;
    previous_secret: string | null;
    previous_valid: boolean;
    failed_in_a_row: number;
    kind: string;
    purge: TargetSettings | null;
    age_ms: number;
  }>(
    `UPDATE webhook_deliveries d SET claimed_until = now() + make_interval(secs => $3::double precision / 1000)
     FROM webhooks w, (SELECT DISTINCT * FROM unnest($1::text[], $2::text[])) AS k(org_id, id), ${ASYNC_COMMIT}
     WHERE d.org_id = k.org_id AND d.id = k.id AND w.org_id = d.org_id AND w.id = d.webhook_id
       AND d.status = 'pending' AND d.next_attempt_at <= now() + interval '1 second'
       AND (d.claimed_until IS NULL OR d.claimed_until < now())
       AND NOT EXISTS (SELECT 1 FROM webhook_deliveries p
                       WHERE p.org_id = d.org_id AND p.webhook_id = d.webhook_id AND p.lane = d.lane AND p.status = 'pending' AND p.seq < d.seq)
     RETURNING d.org_id, d.id, d.webhook_id, d.attempts, d.body, w.url, w.enabled, w.secret, w.previous_secret, w.failed_in_a_row, w.kind, w.purge,
               COALESCE(w.previous_secret_until > now(), false) AS previous_valid,
               (extract(epoch FROM now() - d.created_at) * 1000)::float8 AS age_ms`,
    [keys.map((k) => k.orgId), keys.map((k) => k.id), claimMs],
    { prepare: true },
  );
  const claimed = new Map(rows.map((r) => [`${r.org_id}\0${r.id}`, r]));
  return keys.map((key) => {
    const r = claimed.get(`${key.orgId}\0${key.id}`);
    if (!r) return null;
    claimed.delete(`${key.orgId}\0${key.id}`);
    return {
      orgId: key.orgId,
      id: key.id,
      webhookId: r.webhook_id,
      attempts: r.attempts,
      body: r.body,
      url: r.url,
      enabled: r.enabled,
      secrets: r.previous_secret && r.previous_valid ? [r.secret, r.previous_secret] : [r.secret],
      failedInARow: r.failed_in_a_row,
      kind: r.kind,
      settings: r.purge,
      ageMs: r.age_ms,
    };
  });
}

export interface AttemptRecord {
  statusCode: number | null;
  durationMs: number | null;
  error: string | null;
  excerpt: string | null;
  /** `pending` with a retry time, or final. */
  outcome: { status: 'pending'; retryAt: Date } | { status: 'succeeded' | 'failed' };
  /** Whether this attempt counts as one (a delivery skipped because its webhook is off does not). */
  counted: boolean;
}

/** The next delivery of a lane, to enqueue once the one before it is final. */
export type NextDelivery = DeliveryKey & { attempts: number };

/**
 * Whether recording this attempt changes its webhook's failures in a row: a final failure counts
 * one more (and may disable it), a success after failures resets them. Such an attempt is recorded
 * by `recordAttempt`, in a transaction of its own; every other one by `finishAttempts`.
 */
export const changesFailureCount = (d: DeliveryToSend, a: AttemptRecord): boolean =>
  a.counted && (a.outcome.status === 'failed' || (a.outcome.status === 'succeeded' && d.failedInARow > 0));

/**
 * Records attempts that leave their webhooks' failure counts alone, in one statement
 * (`folio_finish_attempts`); the answer follows `attempts`: the lane's next delivery where an
 * attempt was final and its lane has one.
 */
export async function finishAttempts(db: Queryable, attempts: { d: DeliveryToSend; a: AttemptRecord }[]): Promise<(NextDelivery | null)[]> {
  const column = <T>(f: (d: DeliveryToSend, a: AttemptRecord) => T): T[] => attempts.map(({ d, a }) => f(d, a));
  const { rows } = await db.query<{ ord: number; next_id: string; next_attempts: number }>(
    `SELECT f.ord, f.next_id, f.next_attempts
     FROM ${ASYNC_COMMIT}, folio_finish_attempts($1, $2::text[], $3::text[], $4::int[], $5::text[], $6::int[], $7::int[], $8::int[], $9::text[], $10::text[], $11::timestamptz[]) f`,
    [
      LANE_LOCK,
      column((d) => d.orgId),
      column((d) => d.id),
      column((d) => d.attempts),
      column((_, a) => a.outcome.status),
      column((_, a) => (a.counted ? 1 : 0)),
      column((_, a) => a.statusCode),
      column((_, a) => a.durationMs),
      column((_, a) => a.error),
      column((_, a) => a.excerpt),
      column((_, a) => (a.outcome.status === 'pending' ? a.outcome.retryAt.toISOString() : null)),
    ],
    { prepare: true },
  );
  const next = new Map(rows.map((r) => [r.ord, { id: r.next_id, attempts: r.next_attempts }]));
  return attempts.map(({ d }, i) => {
    const n = next.get(i + 1); // WITH ORDINALITY counts from 1
    return n ? { orgId: d.orgId, ...n } : null;
  });
}

/**
 * Records an attempt that changes its webhook's failures in a row (see changesFailureCount), in
 * a transaction with that change: a final failure counts one more (disabling the webhook at
 * `disableAfter`, saying why), a success resets them. Returns the lane's next delivery, if any.
 */
export async function recordAttempt(db: Db, d: DeliveryToSend, a: AttemptRecord, disableAfter: number): Promise<{ next: NextDelivery | null; disabled: boolean }> {
  return db.transaction(async (tx) => {
    const [next] = await finishAttempts(tx, [{ d, a }]);
    if (a.outcome.status === 'succeeded') {
      await tx.query('UPDATE webhooks SET failed_in_a_row = 0 WHERE org_id = $1 AND id = $2', [d.orgId, d.webhookId]);
      return { next, disabled: false };
    }
    const { rows } = await tx.query<{ disabled_now: boolean }>(
      `UPDATE webhooks SET failed_in_a_row = failed_in_a_row + 1,
         enabled = enabled AND failed_in_a_row + 1 < $3,
         disabled_reason = CASE WHEN enabled AND failed_in_a_row + 1 >= $3
           THEN $3 || ' deliveries in a row failed every attempt; the last: ' || $4 || ' (delivery ' || $5 || ', ' || to_char(now() AT TIME ZONE 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS"Z"') || ')'
           ELSE disabled_reason END,
         updated_at = now()
       WHERE org_id = $1 AND id = $2 RETURNING NOT enabled AND failed_in_a_row = $3 AS disabled_now`,
      [d.orgId, d.webhookId, disableAfter, a.error ?? 'failed', d.id],
    );
    return { next, disabled: rows[0]?.disabled_now === true };
  });
}

/**
 * Lane heads whose time came more than `graceMs` ago (a negative grace reaches into the future:
 * every head), oldest first: the deliveries whose job may have been lost.
 */
export async function findOverdueHeads(db: Queryable, graceMs: number, limit: number): Promise<(DeliveryKey & { attempts: number; nextAttemptAt: Date })[]> {
  const { rows } = await db.query<{ org_id: string; id: string; attempts: number; next_attempt_at: Date }>(
    `SELECT d.org_id, d.id, d.attempts, d.next_attempt_at FROM webhook_deliveries d
     WHERE d.status = 'pending' AND d.next_attempt_at < now() - make_interval(secs => $1::double precision / 1000)
       AND NOT EXISTS (SELECT 1 FROM webhook_deliveries p
                       WHERE p.org_id = d.org_id AND p.webhook_id = d.webhook_id AND p.lane = d.lane AND p.status = 'pending' AND p.seq < d.seq)
     ORDER BY d.next_attempt_at LIMIT $2`,
    [graceMs, limit],
  );
  return rows.map((r) => ({ orgId: r.org_id, id: r.id, attempts: r.attempts, nextAttemptAt: r.next_attempt_at }));
}

/** Ends every claim: for a process that knows it is the only one (embedded PGlite), at start. */
export async function releaseClaims(db: Queryable): Promise<void> {
  await db.query('UPDATE webhook_deliveries SET claimed_until = NULL WHERE claimed_until IS NOT NULL');
}

/** Forgets dispatched events after `eventDays` and finished deliveries after `deliveryDays`. */
export async function pruneWebhookHistory(db: Queryable, eventDays: number, deliveryDays: number): Promise<void> {
  await db.query(`DELETE FROM events WHERE dispatched_at < now() - make_interval(days => $1)`, [eventDays]);
  await db.query(`DELETE FROM webhook_deliveries WHERE status <> 'pending' AND finished_at < now() - make_interval(days => $1)`, [deliveryDays]);
}

/** A delivery as the log shows it. */
export interface DeliveryRecord {
  id: string;
  eventId: number;
  eventType: string;
  status: 'pending' | 'succeeded' | 'failed';
  attempts: number;
  lastStatusCode: number | null;
  lastDurationMs: number | null;
  lastError: string | null;
  responseExcerpt: string | null;
  nextAttemptAt: Date | null;
  createdAt: Date;
  finishedAt: Date | null;
}

interface DeliveryRow {
  id: string;
  event_id: number;
  event_type: string;
  status: DeliveryRecord['status'];
  attempts: number;
  last_status_code: number | null;
  last_duration_ms: number | null;
  last_error: string | null;
  response_excerpt: string | null;
  next_attempt_at: Date;
  created_at: Date;
  finished_at: Date | null;
}

const DELIVERY_COLUMNS =
  'id, event_id, event_type, status, attempts, last_status_code, last_duration_ms, last_error, response_excerpt, next_attempt_at, created_at, finished_at';

const toDelivery = (r: DeliveryRow): DeliveryRecord => ({
  id: r.id,
  eventId: r.event_id,
  eventType: r.event_type,
  status: r.status,
  attempts: r.attempts,
  lastStatusCode: r.last_status_code,
  lastDurationMs: r.last_duration_ms,
  lastError: r.last_error,
  responseExcerpt: r.response_excerpt,
  nextAttemptAt: r.status === 'pending' ? r.next_attempt_at : null,
  createdAt: r.created_at,
  finishedAt: r.finished_at,
});

/** The webhook's deliveries, newest first. */
export async function listDeliveries(db: Queryable, orgId: string, webhookId: string, page: { offset: number; limit: number }) {
  const [items, total] = await Promise.all([
    db.query<DeliveryRow>(`SELECT ${DELIVERY_COLUMNS} FROM webhook_deliveries WHERE org_id = $1 AND webhook_id = $2 ORDER BY seq DESC LIMIT $3 OFFSET $4`, [
      orgId,
      webhookId,
      page.limit,
      page.offset,
    ]),
    db.query<{ n: number }>('SELECT count(*)::int AS n FROM webhook_deliveries WHERE org_id = $1 AND webhook_id = $2', [orgId, webhookId]),
  ]);
  return { items: items.rows.map(toDelivery), total: total.rows[0].n };
}

/**
 * Sends a delivery again, with its id and body: back to pending, due now, its attempts counted
 * afresh. Returns it, and whether it heads its lane (to enqueue now) — null when there is none.
 */
export async function resetDelivery(tx: Queryable, orgId: string, webhookId: string, id: string): Promise<{ delivery: DeliveryRecord; head: boolean } | null> {
  await tx.query('SELECT pg_advisory_xact_lock_shared($1::bigint)', [LANE_LOCK]);
  const { rows } = await tx.query<DeliveryRow & { waiting: boolean }>(
    `UPDATE webhook_deliveries d SET status = 'pending', attempts = 0, next_attempt_at = now(), finished_at = NULL, claimed_until = NULL
     WHERE d.org_id = $1 AND d.webhook_id = $2 AND d.id = $3
     RETURNING ${DELIVERY_COLUMNS.split(', ').map((c) => `d.${c}`).join(', ')},
       EXISTS (SELECT 1 FROM webhook_deliveries p
               WHERE p.org_id = d.org_id AND p.webhook_id = d.webhook_id AND p.lane = d.lane AND p.status = 'pending' AND p.seq < d.seq) AS waiting`,
    [orgId, webhookId, id],
  );
  return rows[0] ? { delivery: toDelivery(rows[0]), head: !rows[0].waiting } : null;
}
