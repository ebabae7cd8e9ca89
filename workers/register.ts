import type { JobName } from '../shared/adapters/queue/jobs.js';
import { imageTransformJob } from '../shared/assets/image-transform-job.js';
import { scheduledPublishJob } from '../shared/content/scheduled-publish-job.js';
import { logIngestJob } from '../shared/ingest/log-ingest-job.js';
import type { JobDefinition } from '../shared/job-definition.js';
import { JOB_NAMES } from '../shared/job-names.js';
import type { Services } from '../shared/services.js';
import { organizationDeleteJob } from '../shared/tenancy/organization-delete-job.js';
import { webhookDeliverJob } from '../shared/webhooks/webhook-deliver-job.js';
import { webhookDispatchJob } from '../shared/webhooks/webhook-dispatch-job.js';
import { echoJob } from './echo.js';

/**
 * Every job, one line each; each is declared in its domain's folder (payload, handler, options,
 * timers). A job declared in the map but missing here fails to compile.
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

/** `JOB_NAMES` (what the API reads) names every job registered here: compiles only when true. */
const namesEveryJob: Exclude<JobName, (typeof JOB_NAMES)[number]> extends never ? true : never = true;
void namesEveryJob;

/** Runs every job's handler in this process. */
export function registerWorkers(services: Services): void {
  for (const name of JOB_NAMES) register(services, name, JOBS[name]);
}

function register<N extends JobName>(services: Services, name: N, job: JobDefinition<N>): void {
  const options = typeof job.options === 'function' ? job.options(services) : job.options;
  services.queue.process(name, job.handler(services), options);
  job.start?.(services);
}
