import type { JobHandler, JobName, ProcessOptions } from './adapters/queue/index.js';
import type { Services } from './services.js';

/** One job, as its domain declares it (`shared/<domain>/*-job.ts`); `workers/register.ts` runs it. */
export interface JobDefinition<N extends JobName> {
  /** The handler this process runs for the job. */
  handler(services: Services): JobHandler<N>;
  /** Static, or read from the services (a concurrency the operator sets). */
  options?: ProcessOptions | ((services: Services) => ProcessOptions);
  /** Called once after the handler is registered (timers, a first enqueue). */
  start?(services: Services): void;
}
