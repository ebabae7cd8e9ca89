import { publishDueEntries, unpublishDueEntries } from './entry-lifecycle.js';
import { pruneVersions } from './version-repository.js';
import { runDueReleases } from './releases/releases.js';
import type { JobBase } from '../adapters/queue/jobs.js';
import type { JobDefinition } from '../job-definition.js';
import type { Services } from '../services.js';

declare module '../adapters/queue/jobs.js' {
  interface JobMap {
    /**
     * Publishes every SCHEDULED entry whose time has come, then unpublishes every entry whose
     * scheduled unpublish has, then runs the scheduled releases that are due, in all orgs
     * (`orgId: '*'`); re-enqueues itself.
     */
    'entry-publish-scheduled': { payload: JobBase; result: { published: number; unpublished: number; releases: number } };
  }
}

/** How often entry versions past their organization's retention are dropped. */
const PRUNE_VERSIONS_EVERY_MS = 3600_000;

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
 * Scheduled publishing and unpublishing: one job per tick, so every worker replica enqueueing
 * the next tick joins the same job instead of adding another. Each run publishes, then
 * unpublishes, what is due (idempotently, under row locks), prunes entry versions hourly, and
 * enqueues the next tick, success or not.
 */
export const scheduledPublishJob: JobDefinition<'entry-publish-scheduled'> = {
  handler: (services) => {
    let prunedAt = 0; // this process's last pruning of entry versions (hourly; twice is harmless)
    return async () => {
      try {
        if (Date.now() - prunedAt > PRUNE_VERSIONS_EVERY_MS) {
          prunedAt = Date.now();
          const pruned = await pruneVersions(services.db);
          if (pruned > 0) services.logger.info({ pruned }, 'entry versions past retention pruned');
        }
        const published = await publishDueEntries(services);
        if (published > 0) services.logger.info({ published }, 'scheduled entries published');
        const unpublished = await unpublishDueEntries(services);
        if (unpublished > 0) services.logger.info({ unpublished }, 'scheduled entries unpublished');
        const releases = await runDueReleases(services);
        if (releases > 0) services.logger.info({ releases }, 'scheduled releases run');
        return { published, unpublished, releases };
      } finally {
        enqueueNextTick(services);
      }
    };
  },
  start: enqueueNextTick,
};
