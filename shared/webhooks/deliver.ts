import { createHash } from 'node:crypto';
import type { Services } from '../services.js';
import type { AttemptRecord, DeliveryKey, DeliveryToSend } from './delivery-repository.js';
import { targetOf } from './delivery-target.js';

export type DeliveryResult = 'succeeded' | 'retrying' | 'failed' | 'skipped';

/** Deliveries of one org queued as one job: a queue round trip serves this many attempts. */
export const DELIVERIES_PER_JOB = 50;

type Queued = DeliveryKey & { attempts: number };

/**
 * The job key names the deliveries and the attempts already made, so queueing the same attempts
 * twice (the dispatcher and the sweep for lost jobs) joins one job.
 */
function jobIdOf(items: Queued[]): string {
  if (items.length === 1) return `webhook-deliver:${items[0].id}:${items[0].attempts}`;
  const digest = createHash('sha256').update(items.map((i) => `${i.id}:${i.attempts}`).join(',')).digest('base64url');
  return `webhook-deliver:${items.length}:${digest.slice(0, 24)}`;
}

/**
 * Queues one job for attempts of one org's deliveries. A queue that is down or full loses
 * nothing: the deliveries stay pending in Postgres and the dispatcher's tick queues them later.
 * Resolves to the error, or null once queued.
 */
function tryEnqueue(queue: Services['queue'], items: Queued[], delayMs = 0): Promise<unknown> {
  return queue
    .enqueue('webhook-deliver', { orgId: items[0].orgId, deliveryIds: items.map((i) => i.id), version: 1 }, { jobId: jobIdOf(items), delayMs })
    .then(
      () => null,
      (err: unknown) => err ?? new Error('enqueue failed'),
    );
}

export async function enqueueDelivery(services: Pick<Services, 'queue' | 'logger'>, key: DeliveryKey, attemptsMade: number, delayMs = 0): Promise<void> {
  const err = await tryEnqueue(services.queue, [{ ...key, attempts: attemptsMade }], delayMs);
  if (err) services.logger.warn({ err, deliveryId: key.id }, 'webhook delivery not queued; the tick queues it again');
}

/**
 * Queues many deliveries: those due now in jobs of up to DELIVERIES_PER_JOB of one org (in the
 * order given), those due later in a job each, at their time; twenty jobs at a time, stopping at
 * the first the queue refuses (full or down) — the rest stay pending for the tick, with one log
 * line for all of them. Returns the number of deliveries queued.
 */
export async function enqueueDeliveries(services: Pick<Services, 'queue' | 'logger'>, items: (Queued & { delayMs?: number })[]): Promise<number> {
  const jobs: { items: Queued[]; delayMs: number }[] = [];
  const filling = new Map<string, Queued[]>();
  for (const item of items) {
    if (item.delayMs) {
      jobs.push({ items: [item], delayMs: item.delayMs });
      continue;
    }
    let job = filling.get(item.orgId);
    if (!job || job.length === DELIVERIES_PER_JOB) {
      job = [];
      filling.set(item.orgId, job);
      jobs.push({ items: job, delayMs: 0 });
    }
    job.push(item);
  }
  let queued = 0;
  for (let i = 0; i < jobs.length; i += 20) {
    const chunk = jobs.slice(i, i + 20);
    const errors = await Promise.all(chunk.map((j) => tryEnqueue(services.queue, j.items, j.delayMs)));
    const failed = errors.filter((e) => e !== null);
    queued += chunk.filter((_, k) => errors[k] === null).reduce((n, j) => n + j.items.length, 0);
    if (failed.length > 0) {
      services.logger.warn({ err: failed[0], left: items.length - queued }, 'the webhook queue refused deliveries (full or down); they stay pending and the tick queues them');
      return queued;
    }
  }
  return queued;
}

/** Sends a claimed delivery once (unless its webhook is off) and says what to record. */
async function attemptOnce(services: Services, d: DeliveryToSend): Promise<AttemptRecord> {
  const { config } = services;
  if (!d.enabled) {
    // Its webhook was disabled: the delivery ends without an attempt (redeliver sends it later).
    return { statusCode: null, durationMs: null, error: 'webhook disabled', excerpt: null, outcome: { status: 'failed' }, counted: false };
  }
  const sent = await targetOf(services.deliveryTargets, d.kind).send(d, services.webhookSender);
  // a request Node refused to make (a header value with CR or LF, say) fails the same every time
  const delay = sent.unsendable ? undefined : config.webhooks.retryDelaysMs[d.attempts];
  const outcome: AttemptRecord['outcome'] = sent.ok
    ? { status: 'succeeded' }
    : delay !== undefined
      ? { status: 'pending', retryAt: new Date(Date.now() + delay) }
      : { status: 'failed' };
  return { statusCode: sent.statusCode, durationMs: sent.durationMs, error: sent.error, excerpt: sent.excerpt, outcome, counted: true };
}

/**
 * Makes one attempt of a delivery, if it can claim it (pending, due, at the head of its lane,
 * not claimed by another worker): signs it for this attempt's time, POSTs it, records the
 * outcome and queues what follows — the retry after the schedule's next delay, or the lane's next
 * delivery once this one is final. The outcome is recorded only after the receiver answered, so
 * a worker killed mid-attempt leaves the delivery pending and claimed; once the claim runs out,
 * its job taken over or the tick's re-queue sends it again (at least once, same webhook-id).
 * `slot` holds the claim and the POST (the part that occupies a receiver), not the record.
 */
export async function deliverOnce(services: Services, key: DeliveryKey, slot: <T>(send: () => Promise<T>) => Promise<T> = (send) => send()): Promise<DeliveryResult> {
  const { config, logger, webhookLedger } = services;
  const attempt = await slot(async () => {
    const d = await webhookLedger.claim(key);
    return d && { d, record: await attemptOnce(services, d) };
  });
  if (!attempt) return 'skipped';
  const { d, record } = attempt;
  const { next, disabled } = await webhookLedger.record(d, record);
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
