import type { DeliveryToSend, PendingEvent } from './delivery-repository.js';
import { signDelivery } from './signing.js';
import type { AttemptOutcome, WebhookSender } from './webhook-sender.js';

import { WEBHOOK_KIND } from './webhook-repository.js';

/**
 * What a subscription delivers to. The HTTP webhook is built in (`httpWebhookTarget`); another
 * domain plugs in a kind of its own (`Services.deliveryTargets`), stored in the same table and
 * delivered by the same machinery — dispatch, lanes, claims, retries, the delivery log — which
 * knows none of them.
 */
export interface DeliveryTarget {
  /**
   * The body of `event`'s delivery, fixed at dispatch (every attempt sends the same bytes under
   * the same id); null when the event gives this target nothing to do.
   */
  bodyOf(event: PendingEvent): string | null;
  /** Sends one attempt of a claimed delivery (its subscription's url, secrets and settings). */
  send(delivery: DeliveryToSend, sender: WebhookSender): Promise<AttemptOutcome>;
  /** Forgets what the target keeps beside its deliveries; run hourly with the delivery history. */
  prune?(): Promise<unknown>;
}

/** The plugged-in targets, by the kind their subscriptions are stored with. */
export type DeliveryTargets = ReadonlyMap<string, DeliveryTarget>;

/** The HTTP webhook: the event as JSON, signed for each attempt's time (Standard Webhooks). */
export const httpWebhookTarget: DeliveryTarget = {
  bodyOf: (event) => JSON.stringify({ type: event.type, timestamp: event.createdAt.toISOString(), data: event.data }),
  send: (d, sender) => sender.send(d.url, signDelivery(d.secrets, d.id, new Date(), d.body), d.body),
};

/** The target of a subscription kind; a kind nothing plugged in is an error of the process's setup. */
export function targetOf(targets: DeliveryTargets, kind: string): DeliveryTarget {
  if (kind === WEBHOOK_KIND) return httpWebhookTarget;
  const target = targets.get(kind);
  if (!target) throw new Error(`no delivery target is registered for subscriptions of kind "${kind}"`);
  return target;
}
