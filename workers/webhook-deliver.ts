import type { JobBase, JobDefinition } from '../shared/adapters/queue/jobs.js';
import { deliverOnce, type DeliveryResult } from '../shared/webhooks/deliver.js';

declare module '../shared/adapters/queue/jobs.js' {
  interface JobMap {
    /** One attempt of one webhook delivery (the job key names the attempt). */
    'webhook-deliver': { payload: WebhookDeliverPayload; result: { result: DeliveryResult } };
  }
}

export interface WebhookDeliverPayload extends JobBase {
  deliveryId: string;
}

/**
 * A worker killed mid-attempt leaves its job to be taken up again within this; the attempt then
 * runs again with the same webhook-id (at least once). Above the attempt timeout's lock renewal.
 */
export const WEBHOOK_STALLED_AFTER_MS = 10_000;

/**
 * Webhook deliveries. An attempt mostly waits on the receiver, so many run at once
 * (WEBHOOK_CONCURRENCY per process); a slow receiver holds one slot at most WEBHOOK_TIMEOUT_MS.
 */
export const webhookDeliverJob: JobDefinition<'webhook-deliver'> = {
  handler: (services) => async (payload) => ({ result: await deliverOnce(services, { orgId: payload.orgId, id: payload.deliveryId }) }),
  options: (services) => ({ concurrency: services.config.webhooks.concurrency, stalledAfterMs: WEBHOOK_STALLED_AFTER_MS }),
};
