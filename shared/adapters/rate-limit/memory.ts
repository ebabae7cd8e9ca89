import { LRUCache } from 'lru-cache';
import { decide, type BucketOptions, type Hold, type RateLimiter } from './rate-limiter.js';

export function createMemoryRateLimiter(defaults: BucketOptions): RateLimiter {
  const buckets = new LRUCache<string, { tokens: number; at: number }>({ max: 100_000 });
  // key → holds in flight: cost and expiry (epoch ms) of each
  const held = new Map<string, Map<symbol, { cost: number; until: number }>>();
  return {
    async consume(key, cost = 1, bucket = defaults) {
      const now = Date.now();
      const prev = buckets.get(key) ?? { tokens: bucket.burst, at: now };
      const refilled = Math.min(bucket.burst, prev.tokens + ((now - prev.at) / 1000) * bucket.perSecond);
      const d = decide(refilled, cost, bucket);
      buckets.set(key, { tokens: d.tokens, at: now });
      return d;
    },
    async hold(key, cost, limit, ttlMs) {
      const now = Date.now();
      const holds = held.get(key) ?? new Map<symbol, { cost: number; until: number }>();
      let total = 0;
      for (const [id, h] of holds) {
        if (h.until <= now) holds.delete(id);
        else total += h.cost;
      }
      if (holds.size > 0 && total + cost > limit) return null;
      const id = Symbol(key);
      holds.set(id, { cost, until: now + ttlMs });
      held.set(key, holds);
      const release: Hold['release'] = async () => {
        holds.delete(id);
        if (holds.size === 0 && held.get(key) === holds) held.delete(key);
      };
      return { release };
    },
    async close() {},
  };
}
