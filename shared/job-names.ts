import type { JobName } from './adapters/queue/jobs.js';

/**
 * Every queue, for metrics and readiness: names only, so that a process reading them (the API's
 * `/metrics`) loads no job's code. `workers/register.ts` fails to compile unless this list and
 * the jobs it registers name the same queues.
 */
export const JOB_NAMES = [
  'echo',
  'image-transform',
  'log-ingest',
  'entry-publish-scheduled',
  'webhook-dispatch',
  'webhook-deliver',
  'organization-delete',
] as const satisfies readonly JobName[];
