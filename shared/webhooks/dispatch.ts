import type { Queryable } from '../adapters/db/index.js';
import { matchesEvent } from '../events/event-types.js';
import { newId } from '../ids.js';
import type { Services } from '../services.js';
import { enqueueDeliveries } from './deliver.js';
import { targetOf, type DeliveryTarget, type DeliveryTargets } from './delivery-target.js';
import {
  countedDeliveryRows,
  enabledSubscribers,
  hasUndispatchedEvents,
  insertDeliveries,
  refreshDeliveryStatistics,
  takeUndispatchedEvents,
  type DeliveryKey,
  type NewDelivery,
  type PendingEvent,
  type Subscriber,
} from './delivery-repository.js';

/**
 * Events turned into deliveries per transaction: the first batch small, so that the first
 * deliveries leave soon, then larger (fewer statements per event) while a backlog lasts.
 */
const FIRST_BATCH = 250;
const LARGEST_BATCH = 2000;
/**
 * A run that has added this many deliveries, and more than the table's statistics count, has
 * them renewed (see refreshDeliveryStatistics); at most once per doubling of the table.
 */
const STATISTICS_AFTER = 500;

/**
 * Turns every undispatched event into one delivery per matching enabled webhook of its org, and
 * enqueues the deliveries that head their lane. Safe to run anywhere at any time: dispatchers
 * take turns on a lock, and an event is dispatched once. Returns the number of events handled.
 */
export async function dispatchPendingEvents(services: Pick<Services, 'db' | 'queue' | 'logger' | 'deliveryTargets'>): Promise<number> {
  let handled = 0;
  let added = 0; // deliveries added since this run last renewed the statistics
  let renewing: Promise<void> | undefined; // beside the dispatching, which it need not hold up
  if (!(await hasUndispatchedEvents(services.db))) return 0;
  try {
    for (let batch = FIRST_BATCH; ; batch = Math.min(batch * 2, LARGEST_BATCH)) {
      const { heads, count, deliveries } = await services.db.transaction((tx) => dispatchBatch(tx, batch, services.deliveryTargets));
      handled += count;
      added += deliveries;
      if (!renewing && added >= STATISTICS_AFTER && added > (await countedDeliveryRows(services.db))) {
        added = 0;
        renewing = refreshDeliveryStatistics(services.db)
          .catch((err: unknown) => services.logger.warn({ err }, 'webhook delivery statistics not renewed; autovacuum will'))
          .finally(() => (renewing = undefined));
      }
      await enqueueDeliveries(services, heads.map((h) => ({ ...h, attempts: 0 })));
      if (count < batch) return handled;
    }
  } finally {
    await renewing;
  }
}

async function dispatchBatch(tx: Queryable, batch: number, targets: DeliveryTargets): Promise<{ heads: DeliveryKey[]; count: number; deliveries: number }> {
  const events = await takeUndispatchedEvents(tx, batch);
  if (events.length === 0) return { heads: [], count: 0, deliveries: 0 };
  const subscribers = await enabledSubscribers(tx, [...new Set(events.map((e) => e.orgId))]);
  const deliveries: NewDelivery[] = [];
  for (const event of events) {
    for (const s of subscribers) {
      if (s.orgId !== event.orgId || !wants(s, event)) continue;
      const delivery = deliveryOf(event, s, targetOf(targets, s.kind));
      if (delivery) deliveries.push(delivery);
    }
  }
  const heads = await insertDeliveries(tx, deliveries);
  return { heads, count: events.length, deliveries: deliveries.length };
}

/** A model filter narrows entry and model events; events of no model (assets, lists…) pass it. */
const wants = (s: Subscriber, e: PendingEvent): boolean =>
  matchesEvent(s.events, e.type) && (s.models === null || e.model === null || s.models.includes(e.model));

/**
 * The body is fixed here, once, by the subscriber's target: every attempt sends the same bytes
 * under the same id. A target may give an event no delivery (a purge target a draft saved).
 */
function deliveryOf(event: PendingEvent, s: Subscriber, target: DeliveryTarget): NewDelivery | null {
  const body = target.bodyOf(event);
  if (body === null) return null;
  return { orgId: event.orgId, id: `msg_${newId()}`, webhookId: s.id, eventId: event.id, eventType: event.type, lane: event.subject, body };
}
