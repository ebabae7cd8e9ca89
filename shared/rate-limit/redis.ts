import { Redis } from 'ioredis';
import { decide, type BucketOptions, type RateLimiter } from './index.js';

// Refill and take in one atomic step on the server, using the server's clock so instances with
// skewed clocks share one bucket fairly.
const SCRIPT = `
local t = redis.call('TIME')
local now = tonumber(t[1]) * 1000 + math.floor(tonumber(t[2]) / 1000)
local burst = tonumber(ARGV[1])
local rate = tonumber(ARGV[2])
local cost = tonumber(ARGV[3])
local b = redis.call('HMGET', KEYS[1], 'tokens', 'at')
local tokens = tonumber(b[1]) or burst
local at = tonumber(b[2]) or now
tokens = math.min(burst, tokens + (now - at) / 1000 * rate)
local before = tokens
if tokens >= cost then tokens = tokens - cost end
redis.call('HSET', KEYS[1], 'tokens', tostring(tokens), 'at', tostring(now))
redis.call('PEXPIRE', KEYS[1], math.ceil(burst / rate * 1000) + 1000)
return tostring(before)
`;

export function createRedisRateLimiter(options: BucketOptions & { url: string; keyPrefix: string }): RateLimiter {
  const redis = new Redis(options.url, { maxRetriesPerRequest: 2 });
  return {
    async consume(key, cost = 1) {
      const before = Number(await redis.eval(SCRIPT, 1, options.keyPrefix + key, options.burst, options.perSecond, cost));
      return decide(before, cost, options);
    },
    async close() {
      redis.disconnect();
    },
  };
}
