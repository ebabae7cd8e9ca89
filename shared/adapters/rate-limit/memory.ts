import { LRUCache } from 'lru-cache';
import { decide, type BucketOptions, type RateLimiter } from './rate-limiter.js';

export function createMemoryRateLimiter(defaults: BucketOptions): RateLimiter {
  const buckets = new LRUCache<string, { tokens: number; at: number }>({ max: 100_000 });
  return {
    async consume(key, cost = 1, bucket = defaults) {
      const now = Date.now();
      const prev = buckets.get(key) ?? { tokens: bucket.burst, at: now };
      const refilled = Math.min(bucket.burst, prev.tokens + ((now - prev.at) / 1000) * bucket.perSecond);
      const d = decide(refilled, cost, bucket);
      buckets.set(key, { tokens: d.tokens, at: now });
      return d;
    },
    async close() {},
  };
}
