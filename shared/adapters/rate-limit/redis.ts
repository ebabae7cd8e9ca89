import { randomUUID } from 'node:crypto';
import { Redis } from 'ioredis';
import { decide, type BucketOptions, type Hold, type RateLimiter } from './rate-limiter.js';
import { createMemoryRateLimiter } from './memory.js';

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

// Holds: a sorted set of `id:cost` members scored by their expiry (server clock); expired ones
// are dropped before the total is summed, so a holder that died frees its share after its TTL.
const HOLD_SCRIPT = `
local t = redis.call('TIME')
local now = tonumber(t[1]) * 1000 + math.floor(tonumber(t[2]) / 1000)
local cost = tonumber(ARGV[2])
local limit = tonumber(ARGV[3])
local ttl = tonumber(ARGV[4])
redis.call('ZREMRANGEBYSCORE', KEYS[1], '-inf', now)
local members = redis.call('ZRANGE', KEYS[1], 0, -1)
local total = 0
for _, m in ipairs(members) do total = total + tonumber(string.match(m, ':([%d.]+)$')) end
if #members > 0 and total + cost > limit then return 0 end
redis.call('ZADD', KEYS[1], now + ttl, ARGV[1] .. ':' .. ARGV[2])
redis.call('PEXPIRE', KEYS[1], ttl)
return 1
`;

export interface RedisRateLimiterOptions extends BucketOptions {
  url: string;
  keyPrefix: string;
  /**
   * While Redis does not answer, decide from a bucket in this process's memory (each instance
   * limits on its own) for at most this long after the first failure; past it, fail with the
   * error (answered 503), so a lasting outage is not an unlimited one.
   */
  failOpenMs: number;
  /** Counts each decision made without Redis. */
  onFailOpen?: () => void;
}

export function createRedisRateLimiter(options: RedisRateLimiterOptions): RateLimiter {
  // One retry at most and a short connect timeout: a request waits on Redis for well under a
  // second before the fallback decides.
  const redis = new Redis(options.url, { maxRetriesPerRequest: 1, connectTimeout: 1000 });
  redis.on('error', () => {}); // reconnects on its own; commands in flight reject and fall back
  const local = createMemoryRateLimiter(options);
  let failingSince: number | undefined;
  return {
    async consume(key, cost = 1, bucket: BucketOptions = options) {
      try {
        const before = Number(await redis.eval(SCRIPT, 1, options.keyPrefix + key, bucket.burst, bucket.perSecond, cost));
        failingSince = undefined;
        return decide(before, cost, bucket);
      } catch (err) {
        failingSince ??= Date.now();
        if (Date.now() - failingSince > options.failOpenMs) throw err;
        options.onFailOpen?.();
        return local.consume(key, cost, bucket);
      }
    },
    async hold(key, cost, limit, ttlMs): Promise<Hold | null> {
      const member = randomUUID();
      const fullKey = options.keyPrefix + key;
      try {
        const admitted = Number(await redis.eval(HOLD_SCRIPT, 1, fullKey, member, cost, limit, ttlMs)) === 1;
        failingSince = undefined;
        if (!admitted) return null;
        // a release that cannot reach Redis leaves the hold to expire with its TTL
        return { release: () => redis.zrem(fullKey, `${member}:${cost}`).then(() => undefined, () => undefined) };
      } catch (err) {
        failingSince ??= Date.now();
        if (Date.now() - failingSince > options.failOpenMs) throw err;
        options.onFailOpen?.();
        return local.hold(key, cost, limit, ttlMs);
      }
    },
    async close() {
      redis.disconnect();
    },
  };
}
