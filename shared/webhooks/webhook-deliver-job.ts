import type { JobBase } from '../adapters/queue/jobs.js';
import type { JobDefinition } from '../job-definition.js';
import { concurrencyLimit } from '../concurrency.js';
import { deliverOnce, type DeliveryResult } from './deliver.js';

declare module '../adapters/queue/jobs.js' {
  interface JobMap {
    /** One attempt of each of a few deliveries of one org (the job key names the attempts). */
    'webhook-deliver': { payload: WebhookDeliverPayload; result: { results: DeliveryResult[] } };
  }
}

export interface WebhookDeliverPayload extends JobBase {
  deliveryIds?: string[];
  /** The one delivery of a job queued before jobs carried several. */
  deliveryId?: string;
}

/**
 * A worker killed mid-attempt leaves its job to be taken up again within this; the attempt then
 * runs again with the same webhook-id (at least once). Above the attempt timeout's lock renewal.
 */
export const WEBHOOK_STALLED_AFTER_MS = 10_000;

/**
 * Webhook deliveries. An attempt mostly waits on the receiver, so many run at once: at most
 * WEBHOOK_CONCURRENCY attempts per process, whichever jobs they come from; a slow receiver holds
 * one of them at most WEBHOOK_TIMEOUT_MS. As many jobs run as attempts may, so that one job
 * waiting on slow receivers leaves the others theirs.
 */
export const webhookDeliverJob: JobDefinition<'webhook-deliver'> = {
  handler: (services) => {
    const attempt = concurrencyLimit(services.config.webhooks.concurrency);
    return async (payload) => {
      const ids = payload.deliveryIds ?? (payload.deliveryId ? [payload.deliveryId] : []);
      return { results: await Promise.all(ids.map((id) => deliverOnce(services, { orgId: payload.orgId, id }, attempt))) };
    };
  },
  options: (services) => ({ concurrency: services.config.webhooks.concurrency, stalledAfterMs: WEBHOOK_STALLED_AFTER_MS }),
};
