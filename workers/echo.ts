import type { JobBase } from '../shared/adapters/queue/jobs.js';
import type { JobDefinition } from '../shared/job-definition.js';

declare module '../shared/adapters/queue/jobs.js' {
  interface JobMap {
    /** Test and health-check job: echoes its input. */
    echo: { payload: EchoPayload; result: { value: unknown; attempt: number } };
  }
}

export interface EchoPayload extends JobBase {
  value: unknown;
  /** The queue tests: fail this many attempts first, sleep this long. */
  failTimes?: number;
  sleepMs?: number;
}

/** A trivial job used by health checks and the queue's end-to-end tests. */
export const echoJob: JobDefinition<'echo'> = {
  handler: () => async (payload, ctx) => ({ value: payload.value, attempt: ctx.attempt }),
  options: { concurrency: 4 },
};
