import type { Config } from '../../config.js';
import type { EventBus } from './event-bus.js';

export * from './event-bus.js';

export async function createEventBus(config: Pick<Config, 'redisUrl'>, options: { channelPrefix?: string } = {}): Promise<EventBus> {
  if (config.redisUrl) {
    const { createRedisBus } = await import('./redis.js');
    return createRedisBus({ url: config.redisUrl, channelPrefix: options.channelPrefix ?? 'folio:' });
  }
  const { createLocalBus } = await import('./local.js');
  return createLocalBus();
}
