import type { Queryable } from '../adapters/db/index.js';
import type { EventType } from './event-types.js';
import { AUDIT_ACTOR_SQL, AUDIT_CHANGES_SQL } from '../audit/record-audit.js';

// The transactional outbox: every function here writes `events` rows with the caller's
// transaction, so the events commit or roll back with the change they describe. Committing wakes
// the dispatcher (a trigger NOTIFYs `folio_events`).
//
// Each event is also an audit row, in the same statement: its type is the action, its subject
// (`<kind>:<id>`) the audited subject, with the actor and request the transaction carries (see
// record-audit.ts) — content, models and assets are audited where their events are written.

/** Wraps an `INSERT INTO events … ` statement so the events it inserts are audited too. */
const audited = (insertEvents: string) => `
  WITH ev AS (${insertEvents} RETURNING org_id, type, subject)
  INSERT INTO audit_log (org_id, actor_type, actor_id, actor_name, client_address, user_agent, request_id, action, subject_type, subject_id, changes)
  SELECT ev.org_id, a.actor_type, a.actor_id, a.actor_name, a.client_address, a.user_agent, a.request_id,
         ev.type, split_part(ev.subject, ':', 1), substr(ev.subject, strpos(ev.subject, ':') + 1), ${AUDIT_CHANGES_SQL}
  FROM ev CROSS JOIN (SELECT ${AUDIT_ACTOR_SQL}) AS a(actor_type, actor_id, actor_name, client_address, user_agent, request_id)`;

export interface NewEvent {
  type: EventType;
  /** What it is about, `<kind>:<id>`: one subject's events are delivered in order. */
  subject: string;
  /** The model alias of entry and model events (webhooks may filter on it). */
  model?: string | null;
  data: Record<string, unknown>;
}

export async function recordEvents(tx: Queryable, orgId: string, events: NewEvent[]): Promise<void> {
  if (events.length === 0) return;
  await tx.query(
    audited(`INSERT INTO events (org_id, type, subject, model, data)
     SELECT $1, e.type, e.subject, e.model, jsonb_build_object('orgId', $1::text) || e.data
     FROM jsonb_to_recordset($2::jsonb) AS e(type text, subject text, model text, data jsonb, ord int)
     ORDER BY e.ord`),
    [orgId, JSON.stringify(events.map((e, ord) => ({ type: e.type, subject: e.subject, model: e.model ?? null, data: e.data, ord })))],
  );
}

/** An entry as an event describes it, read from its stored row (`e`) and that row's edges. */
const ENTRY_DATA = `jsonb_build_object(
  'orgId', e.org_id, 'id', e.id, 'model', e.model_alias, 'status', e.status, 'versionId', e.version_id, 'slug', e.slug,
  'references', COALESCE((SELECT jsonb_agg(DISTINCT g.target_id) FROM entry_edges g WHERE g.row_id = e.row_id), '[]'::jsonb))`;

/**
 * One event per entry version row (the preview row a write left), in the order given: `data`
 * carries the org, the entry's id, model, status, versionId, slug and every id it references,
 * enough for a receiver to purge or refetch without another call.
 */
export async function recordEntryEvents(tx: Queryable, orgId: string, items: { type: EventType; rowId: number }[]): Promise<void> {
  if (items.length === 0) return;
  await tx.query(
    audited(`INSERT INTO events (org_id, type, subject, model, data)
     SELECT e.org_id, i.type, 'entry:' || e.id, e.model_alias, ${ENTRY_DATA}
     FROM jsonb_to_recordset($2::jsonb) AS i(type text, row_id bigint, ord int)
     JOIN entries e ON e.row_id = i.row_id AND e.org_id = $1
     ORDER BY i.ord`),
    [orgId, JSON.stringify(items.map((i, ord) => ({ type: i.type, row_id: i.rowId, ord })))],
  );
}

/**
 * A batch of a bulk import as `entry.imported` events, one per model of the batch: `data.entries`
 * lists each entry as the single events do, with `event` (created, saved or published) saying what
 * happened to it. A 100,000-line import thus makes about 100 events per model, not 100,000.
 */
export async function recordImportedEntries(tx: Queryable, orgId: string, batchKey: string, items: { event: 'created' | 'saved' | 'published'; rowId: number }[]): Promise<void> {
  if (items.length === 0) return;
  await tx.query(
    audited(`INSERT INTO events (org_id, type, subject, model, data)
     SELECT $1, 'entry.imported', 'import:' || $3 || ':' || e.model_alias, e.model_alias,
            jsonb_build_object('orgId', $1::text, 'model', e.model_alias, 'count', count(*),
                               'entries', jsonb_agg(${ENTRY_DATA} || jsonb_build_object('event', i.event) ORDER BY i.ord))
     FROM jsonb_to_recordset($2::jsonb) AS i(event text, row_id bigint, ord int)
     JOIN entries e ON e.row_id = i.row_id AND e.org_id = $1
     GROUP BY e.model_alias
     ORDER BY min(i.ord)`),
    [orgId, JSON.stringify(items.map((i, ord) => ({ event: i.event, row_id: i.rowId, ord }))), batchKey],
  );
}
