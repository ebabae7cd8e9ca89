import type { JobBase } from '../adapters/queue/jobs.js';
import type { JobDefinition } from '../job-definition.js';
import type { Services } from '../services.js';
import { enqueueDeliveries } from './deliver.js';
import { dispatchPendingEvents } from './dispatch.js';
import { findOverdueHeads, releaseClaims } from './delivery-repository.js';
import { pruneDeliveryHistory } from './webhook-retention.js';

declare module '../adapters/queue/jobs.js' {
  interface JobMap {
    /**
     * The dispatcher's safety net, in all orgs (`orgId: '*'`): dispatches events a notification
     * missed, queues deliveries whose job was lost, forgets old history; re-enqueues itself.
     */
    'webhook-dispatch': { payload: JobBase; result: { dispatched: number; requeued: number } };
  }
}

const TICK_MS = 5000;
/**
 * The tick queues again the pending deliveries this long past their time — lost with a process,
 * or left out by a full queue. One that still has its job joins it, and a job for an attempt
 * another worker has claimed does nothing, so the only cost of a short grace is a lookup; the
 * tick skips this while the queue is busy (its jobs will run anyway).
 */
const LOST_AFTER_MS = 5000;
const SWEEP_WHILE_WAITING_BELOW = 1000;
const SWEEP_BATCH = 2000;
const PRUNE_EVERY_MS = 3600_000;
/** A grace reaching this far ahead takes every pending head (retries wait at most a week). */
const EVERY_HEAD_MS = 8 * 86_400_000;

function enqueueNextTick(services: Services): void {
  const slot = Math.floor(Date.now() / TICK_MS) + 1;
  services.queue
    .enqueue('webhook-dispatch', { orgId: '*', version: 1 }, { jobId: `webhook-dispatch:${slot}`, delayMs: TICK_MS })
    .catch((err: unknown) => services.logger.debug({ err }, 'webhook-dispatch: next tick not enqueued'));
}

/** Queues the pending lane heads past their time by `graceMs` again (joining jobs that still exist). */
async function requeueLostDeliveries(services: Services, graceMs: number): Promise<number> {
  const lost = await findOverdueHeads(services.db, graceMs, SWEEP_BATCH);
  return enqueueDeliveries(services, lost.map((d) => ({ ...d, delayMs: Math.max(0, d.nextAttemptAt.getTime() - Date.now()) })));
}

/**
 * Runs `task` now, or — when a run is under way — once more right after it: any number of
 * wake-ups during a run cost one more run, and none is lost.
 */
function coalesced(task: () => Promise<unknown>, onError: (err: unknown) => void): () => void {
  let running = false;
  let again = false;
  const run = async (): Promise<void> => {
    running = true;
    do {
      again = false;
      await task().catch(onError);
    } while (again);
    running = false;
  };
  return () => {
    if (running) again = true;
    else void run();
  };
}

/**
 * Webhooks dispatch from the outbox. Each worker process LISTENs for committed events and
 * dispatches at once (the low-latency path); the tick catches whatever a lost notification, a
 * down queue or a killed process left behind.
 */
export const webhookDispatchJob: JobDefinition<'webhook-dispatch'> = {
  handler: (services) => {
    let prunedAt = 0; // this process's last pruning (every process prunes hourly; twice is harmless)
    return async () => {
      try {
        const dispatched = await dispatchPendingEvents(services);
        const waiting = (await services.queue.counts(['webhook-deliver']))['webhook-deliver']?.waiting ?? 0;
        const requeued = waiting < SWEEP_WHILE_WAITING_BELOW ? await requeueLostDeliveries(services, LOST_AFTER_MS) : 0;
        if (Date.now() - prunedAt > PRUNE_EVERY_MS) {
          prunedAt = Date.now();
          await pruneDeliveryHistory(services.db);
          for (const target of services.deliveryTargets.values()) await target.prune?.();
        }
        return { dispatched, requeued };
      } finally {
        enqueueNextTick(services);
      }
    };
  },
  start: (services) => {
    if (!services.config.webhooks.dispatch) return;
    const dispatch = coalesced(
      () => dispatchPendingEvents(services),
      (err) => services.logger.warn({ err }, 'webhook dispatch failed; the next tick retries'),
    );
    services.eventFeed.onCommitted(dispatch);
    // An in-process queue died with the process that held it: every pending delivery's job is
    // gone, so a restart queues them all again at once (each at its time) instead of after the
    // grace. Embedded, this process is the only one, so the claims of the one before are void.
    if (services.queue.kind === 'in-process') {
      (async () => {
        if (services.db.kind === 'pglite') await releaseClaims(services.db);
        await requeueLostDeliveries(services, -EVERY_HEAD_MS);
      })().catch((err: unknown) => services.logger.warn({ err }, 'pending webhook deliveries not queued at start; the tick retries'));
    }
    enqueueNextTick(services);
  },
};
