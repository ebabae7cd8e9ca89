import type { Queryable } from '../adapters/db/index.js';
import { pruneWebhookHistory } from './delivery-repository.js';

/** Dispatched events and finished deliveries are kept this long (the delivery log's reach). */
export const EVENT_DAYS = 7;
export const DELIVERY_DAYS = 30;

/** Forgets dispatched events and finished deliveries past their retention. */
export function pruneDeliveryHistory(db: Queryable): Promise<void> {
  return pruneWebhookHistory(db, EVENT_DAYS, DELIVERY_DAYS);
}
