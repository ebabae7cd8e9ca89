import type { JobName } from '../shared/adapters/queue/jobs.js';
import type { JobDefinition } from '../shared/job-definition.js';
import type { Services } from '../shared/services.js';
import { echoJob } from './echo.js';
import { imageTransformJob } from './image-transform.js';
import { logIngestJob } from './log-ingest.js';
import { organizationDeleteJob } from './organization-delete.js';
import { scheduledPublishJob } from './scheduled-publish.js';
import { webhookDeliverJob } from './webhook-deliver.js';
import { webhookDispatchJob } from './webhook-dispatch.js';

/**
 * Every job, one line each. A job declared in the map (its file under `workers/`) but missing
 * here fails to compile.
 */
const JOBS: { [N in JobName]: JobDefinition<N> } = {
  echo: echoJob,
  'image-transform': imageTransformJob,
  'log-ingest': logIngestJob,
  'entry-publish-scheduled': scheduledPublishJob,
  'webhook-dispatch': webhookDispatchJob,
  'webhook-deliver': webhookDeliverJob,
  'organization-delete': organizationDeleteJob,
};

/** Every queue, for metrics and readiness. */
export const JOB_NAMES = Object.keys(JOBS) as JobName[];

/** Runs every job's handler in this process. */
export function registerWorkers(services: Services): void {
  for (const name of JOB_NAMES) register(services, name, JOBS[name]);
}

function register<N extends JobName>(services: Services, name: N, job: JobDefinition<N>): void {
  const options = typeof job.options === 'function' ? job.options(services) : job.options;
  services.queue.process(name, job.handler(services), options);
  job.start?.(services);
}
