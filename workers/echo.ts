import type { Services } from '../shared/services.js';

/** A trivial job used by health checks and the queue's end-to-end tests. */
export function registerEcho(services: Services): void {
  services.queue.process('echo', async (payload, ctx) => ({ value: payload.value, attempt: ctx.attempt }), { concurrency: 4 });
}
