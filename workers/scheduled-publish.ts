import { publishDueEntries } from '../shared/content/entry-lifecycle.js';
import type { Services } from '../shared/services.js';

/** How often due entries are looked for. */
export const SCHEDULE_TICK_MS = 3000;

/**
 * Scheduled publishing: one job per tick, keyed by its time slot, so every worker replica
 * enqueueing the next tick joins the same job instead of adding another. Each run publishes
 * what is due (idempotently, under row locks) and enqueues the next tick, success or not.
 */
export function registerScheduledPublish(services: Services): void {
  const enqueueNext = () => {
    const slot = Math.floor(Date.now() / SCHEDULE_TICK_MS) + 1;
    services.queue
      .enqueue('entry-publish-scheduled', { orgId: '*', version: 1 }, { jobId: `entry-publish-scheduled:${slot}`, delayMs: SCHEDULE_TICK_MS })
      .catch((err: unknown) => services.logger.debug({ err }, 'entry-publish-scheduled: next tick not enqueued'));
  };
  services.queue.process('entry-publish-scheduled', async () => {
    try {
      const published = await publishDueEntries(services);
      if (published > 0) services.logger.info({ published }, 'scheduled entries published');
      return { published };
    } finally {
      enqueueNext();
    }
  });
  enqueueNext();
}
