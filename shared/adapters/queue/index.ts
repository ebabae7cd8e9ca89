import type { Config } from '../../config.js';
import type { JobQueue, QueueDeps } from './job-queue.js';

export * from './job-queue.js';

/** BullMQ when `REDIS_URL` is set, else the in-process queue. */
export async function createQueue(config: Pick<Config, 'redisUrl'>, deps: QueueDeps = {}): Promise<JobQueue> {
  if (config.redisUrl) {
    const { createBullmqQueue } = await import('./bullmq.js');
    return createBullmqQueue({ ...deps, redisUrl: config.redisUrl });
  }
  const { createInProcessQueue } = await import('./in-process.js');
  return createInProcessQueue(deps);
}
