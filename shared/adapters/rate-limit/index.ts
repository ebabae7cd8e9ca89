import type { Config } from '../../config.js';
import type { RateLimiter } from './rate-limiter.js';

export * from './rate-limiter.js';

export async function createRateLimiter(
  config: Pick<Config, 'redisUrl' | 'rateLimit'>,
  options: { keyPrefix?: string; onFailOpen?: () => void } = {},
): Promise<RateLimiter> {
  if (config.redisUrl) {
    const { createRedisRateLimiter } = await import('./redis.js');
    const { failOpenMs, ...bucket } = config.rateLimit;
    return createRedisRateLimiter({ url: config.redisUrl, keyPrefix: options.keyPrefix ?? 'folio:rl:', failOpenMs, onFailOpen: options.onFailOpen, ...bucket });
  }
  const { createMemoryRateLimiter } = await import('./memory.js');
  return createMemoryRateLimiter(config.rateLimit);
}
