import { describe, expect, it } from 'vitest';
import { freePort } from '../../../test/support/free-port.js';
import { createRedisProcess } from '../../../test/support/redis-process.js';
import { randomBase62 } from '../../ids.js';
import { createMemoryRateLimiter } from './memory.js';
import { createRedisRateLimiter } from './redis.js';
import type { BucketOptions, RateLimiter } from './rate-limiter.js';

const targets: Array<[string, (b: BucketOptions) => RateLimiter]> = [['memory', (b) => createMemoryRateLimiter(b)]];
if (process.env.REDIS_URL) {
  targets.push(['redis', (b) => createRedisRateLimiter({ ...b, url: process.env.REDIS_URL!, keyPrefix: `folio:test-${randomBase62(8)}:`, failOpenMs: 1000 })]);
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

describe.each(targets)('RateLimiter holds: %s', (_name, make) => {
  it('admit work in flight up to the limit (one piece alone even over it), per key, until released or expired', async () => {
    const rl = make({ burst: 1, perSecond: 1 });
    try {
      const first = await rl.hold('org-a', 3000, 4000, 60_000);
      expect(first).not.toBeNull();
      expect(await rl.hold('org-a', 2000, 4000, 60_000)).toBeNull();
      const small = await rl.hold('org-a', 1000, 4000, 60_000);
      expect(small).not.toBeNull();
      // another key has its own limit
      expect(await rl.hold('org-b', 1000, 4000, 60_000)).not.toBeNull();
      await first!.release();
      await small!.release();
      // nothing held: one piece over the limit runs, alone
      const big = await rl.hold('org-a', 25_000, 4000, 150);
      expect(big).not.toBeNull();
      expect(await rl.hold('org-a', 10, 4000, 60_000)).toBeNull();
      // a holder that never releases frees the key after its TTL
      await new Promise((r) => setTimeout(r, 250));
      expect(await rl.hold('org-a', 10, 4000, 60_000)).not.toBeNull();
    } finally {
      await rl.close();
    }
  });
});

describe('Redis rate limiter while Redis is down', () => {
  it('decides from process memory for failOpenMs, counting each such decision, then fails; back to Redis once it answers', async () => {
    const server = createRedisProcess(await freePort());
    await server.start();
    let failOpen = 0;
    const rl = createRedisRateLimiter({ url: server.url, keyPrefix: 'folio:failopen:', burst: 2, perSecond: 1, failOpenMs: 1500, onFailOpen: () => failOpen++ });
    try {
      expect((await rl.consume('k')).allowed).toBe(true);
      expect(failOpen).toBe(0);
      await server.stop();
      // Still limited, per process: the local bucket starts full and holds the burst.
      const during = [await rl.consume('k'), await rl.consume('k'), await rl.consume('k')];
      expect(during.map((d) => d.allowed)).toEqual([true, true, false]);
      expect(failOpen).toBe(3);
      await new Promise((r) => setTimeout(r, 1600));
      await expect(rl.consume('k')).rejects.toThrow();
      await server.start();
      let back = false;
      for (let i = 0; i < 50 && !back; i++) {
        back = await rl.consume('fresh-' + i).then(() => true, () => false);
        if (!back) await new Promise((r) => setTimeout(r, 100));
      }
      expect(back).toBe(true);
      const counted = failOpen;
      await rl.consume('again');
      expect(failOpen).toBe(counted);
    } finally {
      await rl.close();
      await server.stop();
    }
  }, 30_000);
});
