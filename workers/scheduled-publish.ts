import { publishDueEntries } from '../shared/content/entry-lifecycle.js';
import type { JobBase, JobDefinition } from '../shared/adapters/queue/jobs.js';
import type { Services } from '../shared/services.js';

declare module '../shared/adapters/queue/jobs.js' {
  interface JobMap {
    /** Publishes every SCHEDULED entry whose time has come, in all orgs (`orgId: '*'`); re-enqueues itself. */
    'entry-publish-scheduled': { payload: JobBase; result: { published: number } };
  }
}

/** How often due entries are looked for. */
export const SCHEDULE_TICK_MS = 3000;

/** Enqueues the next tick, keyed by its time slot: every replica enqueueing it joins one job. */
function enqueueNextTick(services: Services): void {
  const slot = Math.floor(Date.now() / SCHEDULE_TICK_MS) + 1;
  services.queue
    .enqueue('entry-publish-scheduled', { orgId: '*', version: 1 }, { jobId: `entry-publish-scheduled:${slot}`, delayMs: SCHEDULE_TICK_MS })
    .catch((err: unknown) => services.logger.debug({ err }, 'entry-publish-scheduled: next tick not enqueued'));
}

/**
 * Scheduled publishing: one job per tick, so every worker replica enqueueing the next tick joins
 * the same job instead of adding another. Each run publishes what is due (idempotently, under
 * row locks) and enqueues the next tick, success or not.
 */
export const scheduledPublishJob: JobDefinition<'entry-publish-scheduled'> = {
  handler: (services) => async () => {
    try {
      const published = await publishDueEntries(services);
      if (published > 0) services.logger.info({ published }, 'scheduled entries published');
      return { published };
    } finally {
      enqueueNextTick(services);
    }
  },
  start: enqueueNextTick,
};
