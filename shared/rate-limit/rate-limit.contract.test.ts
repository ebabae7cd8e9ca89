import { describe, expect, it } from 'vitest';
import { randomBase62 } from '../ids.js';
import { createMemoryRateLimiter } from './memory.js';
import { createRedisRateLimiter } from './redis.js';
import type { BucketOptions, RateLimiter } from './index.js';

const targets: Array<[string, (b: BucketOptions) => RateLimiter]> = [['memory', (b) => createMemoryRateLimiter(b)]];
if (process.env.REDIS_URL) {
  targets.push(['redis', (b) => createRedisRateLimiter({ ...b, url: process.env.REDIS_URL!, keyPrefix: `folio:test-${randomBase62(8)}:` })]);
}

describe.each(targets)('RateLimiter contract: %s', (_name, make) => {
  it('allows the burst, then refuses with a retry time, per key', async () => {
    const rl = make({ burst: 3, perSecond: 1 });
    try {
      const decisions = [];
      for (let i = 0; i < 4; i++) decisions.push(await rl.consume('k'));
      expect(decisions.map((d) => d.allowed)).toEqual([true, true, true, false]);
      expect(decisions.map((d) => d.remaining)).toEqual([2, 1, 0, 0]);
      expect(decisions[3].retryAfterSeconds).toBe(1);
      expect(decisions[0].limit).toBe(3);
      expect((await rl.consume('other')).allowed).toBe(true);
    } finally {
      await rl.close();
    }
  });

  it('refills over time', async () => {
    const rl = make({ burst: 1, perSecond: 20 });
    try {
      expect((await rl.consume('k')).allowed).toBe(true);
      expect((await rl.consume('k')).allowed).toBe(false);
      await new Promise((r) => setTimeout(r, 120));
      expect((await rl.consume('k')).allowed).toBe(true);
    } finally {
      await rl.close();
    }
  });
});
