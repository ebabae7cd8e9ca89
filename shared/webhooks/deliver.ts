import { findEdgeUrls } from '../edge/edge-url-repository.js';
import { PATHS_PER_PURGE, sendPurge } from '../edge/purge-sender.js';
import type { Services } from '../services.js';
import { claimDelivery, recordAttempt, type AttemptRecord, type DeliveryKey } from './delivery-repository.js';
import { signDelivery } from './signing.js';

export type DeliveryResult = 'succeeded' | 'retrying' | 'failed' | 'skipped';

/**
 * Queues one attempt of a delivery. The job key names the delivery and the attempts already made,
 * so queueing the same attempt twice (the dispatcher and the sweep for lost jobs) joins one job.
 * A queue that is down or full loses nothing: the delivery stays pending in Postgres and the
 * dispatcher's tick queues it later. Resolves to the error, or null once queued.
 */
function tryEnqueue(queue: Services['queue'], key: DeliveryKey, attemptsMade: number, delayMs = 0): Promise<unknown> {
  return queue
    .enqueue('webhook-deliver', { orgId: key.orgId, deliveryId: key.id, version: 1 }, { jobId: `webhook-deliver:${key.id}:${attemptsMade}`, delayMs })
    .then(
      () => null,
      (err: unknown) => err ?? new Error('enqueue failed'),
    );
}

export async function enqueueDelivery(services: Pick<Services, 'queue' | 'logger'>, key: DeliveryKey, attemptsMade: number, delayMs = 0): Promise<void> {
  const err = await tryEnqueue(services.queue, key, attemptsMade, delayMs);
  if (err) services.logger.warn({ err, deliveryId: key.id }, 'webhook delivery not queued; the tick queues it again');
}

/**
 * Queues many deliveries, a hundred at a time, stopping at the first chunk the queue refuses
 * (full or down): the rest stay pending for the tick, with one log line for all of them.
 */
export async function enqueueDeliveries(services: Pick<Services, 'queue' | 'logger'>, items: (DeliveryKey & { attempts: number; delayMs?: number })[]): Promise<number> {
  for (let i = 0; i < items.length; i += 100) {
    const errors = await Promise.all(items.slice(i, i + 100).map((d) => tryEnqueue(services.queue, d, d.attempts, d.delayMs)));
    const failed = errors.filter((e) => e !== null);
    if (failed.length > 0) {
      const queued = i + errors.length - failed.length;
      services.logger.warn({ err: failed[0], left: items.length - queued }, 'the webhook queue refused deliveries (full or down); they stay pending and the tick queues them');
      return queued;
    }
  }
  return items.length;
}

/** A claim outlives the attempt's timeout by this much (recording it included). */
const CLAIM_MARGIN_MS = 5000;

/**
 * Makes one attempt of a delivery, if it can claim it (pending, due, at the head of its lane,
 * not claimed by another worker): signs it for this attempt's time, POSTs it, records the
 * outcome and queues what follows — the retry after the schedule's next delay, or the lane's next
 * delivery once this one is final. The outcome is recorded only after the receiver answered, so
 * a worker killed mid-attempt leaves the delivery pending and claimed; once the claim runs out,
 * its job taken over or the tick's re-queue sends it again (at least once, same webhook-id).
 */
export async function deliverOnce(services: Services, key: DeliveryKey): Promise<DeliveryResult> {
  const { db, config, logger } = services;
  const d = await claimDelivery(db, key, config.webhooks.timeoutMs + CLAIM_MARGIN_MS);
  if (!d) return 'skipped';

  let record: AttemptRecord;
  if (!d.enabled) {
    // Its webhook was disabled: the delivery ends without an attempt (redeliver sends it later).
    record = { statusCode: null, durationMs: null, error: 'webhook disabled', excerpt: null, outcome: { status: 'failed' }, counted: false };
  } else {
    const sent = d.purge
      ? await sendPurge(
          { sender: services.webhookSender, apis: config.purgeApis, urlsFor: (keys) => findEdgeUrls(db, d.orgId, keys, PATHS_PER_PURGE) },
          d.purge,
          (JSON.parse(d.body) as { keys: string[] }).keys,
        )
      : await services.webhookSender.send(d.url, signDelivery(d.secrets, d.id, new Date(), d.body), d.body);
    const attempt = d.attempts + 1;
    const delay = config.webhooks.retryDelaysMs[attempt - 1];
    const outcome: AttemptRecord['outcome'] = sent.ok
      ? { status: 'succeeded' }
      : delay !== undefined
        ? { status: 'pending', retryAt: new Date(Date.now() + delay) }
        : { status: 'failed' };
    record = { statusCode: sent.statusCode, durationMs: sent.durationMs, error: sent.error, excerpt: sent.excerpt, outcome, counted: true };
  }

  const { next, disabled } = await recordAttempt(db, d, record, config.webhooks.disableAfter);
  const result: DeliveryResult = record.outcome.status === 'pending' ? 'retrying' : record.outcome.status;
  if (record.counted) services.metrics.webhookAttempts.inc({ result });
  if (result !== 'succeeded') {
    logger.info({ deliveryId: d.id, webhookId: d.webhookId, attempt: d.attempts + 1, statusCode: record.statusCode, error: record.error, result }, 'webhook attempt failed');
  }
  if (disabled) logger.warn({ webhookId: d.webhookId, orgId: d.orgId }, `webhook disabled after ${config.webhooks.disableAfter} failed deliveries in a row`);
  if (record.outcome.status === 'pending') await enqueueDelivery(services, key, d.attempts + 1, record.outcome.retryAt.getTime() - Date.now());
  if (next) await enqueueDelivery(services, next, next.attempts);
  return result;
}
