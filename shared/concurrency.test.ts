import { describe, expect, it } from 'vitest';
import { batchWhileBusy, concurrencyLimit } from './concurrency.js';

const later = () => {
  let resolve!: () => void;
  const promise = new Promise<void>((r) => (resolve = r));
  return { promise, resolve };
};

describe('batchWhileBusy', () => {
  it('sends a burst as one call, and what comes while calls run as the next, in order', async () => {
    const calls: number[][] = [];
    const gates: ReturnType<typeof later>[] = [];
    const double = batchWhileBusy(
      async (items: number[]) => {
        calls.push(items);
        const gate = later();
        gates.push(gate);
        await gate.promise;
        return items.map((i) => i * 2);
      },
      { maxBatch: 3, parallel: 1 },
    );
    const first = [1, 2].map(double);
    await Promise.resolve();
    expect(calls).toEqual([[1, 2]]);
    const next = [3, 4, 5, 6].map(double); // while the first call runs
    await Promise.resolve();
    expect(calls).toHaveLength(1);
    gates[0].resolve();
    expect(await Promise.all(first)).toEqual([2, 4]);
    await new Promise((r) => setImmediate(r));
    expect(calls).toEqual([[1, 2], [3, 4, 5]]); // at most maxBatch
    gates[1].resolve();
    await new Promise((r) => setImmediate(r));
    gates[2].resolve();
    expect(await Promise.all(next)).toEqual([6, 8, 10, 12]);
    expect(calls).toEqual([[1, 2], [3, 4, 5], [6]]);
  });

  it('runs up to `parallel` calls at once', async () => {
    let running = 0;
    let most = 0;
    const run = batchWhileBusy(
      async (items: number[]) => {
        most = Math.max(most, ++running);
        await new Promise((r) => setTimeout(r, 5));
        running--;
        return items;
      },
      { maxBatch: 1, parallel: 2 },
    );
    expect(await Promise.all([1, 2, 3, 4, 5].map(run))).toEqual([1, 2, 3, 4, 5]);
    expect(most).toBe(2);
  });

  it('gives a failed call its error, each of its callers, and goes on with the next', async () => {
    const run = batchWhileBusy(
      async (items: number[]) => {
        if (items.includes(0)) throw new Error('zero');
        return items;
      },
      { maxBatch: 10, parallel: 1 },
    );
    const failed = [0, 1].map(run);
    await expect(failed[0]).rejects.toThrow('zero');
    await expect(failed[1]).rejects.toThrow('zero');
    expect(await run(7)).toBe(7);
  });
});

describe('concurrencyLimit', () => {
  it('runs at most `limit` at once, the others in turn, and frees a slot when one throws', async () => {
    const limit = concurrencyLimit(2);
    let running = 0;
    let most = 0;
    const order: number[] = [];
    const task = (i: number) => async () => {
      most = Math.max(most, ++running);
      await new Promise((r) => setTimeout(r, 2));
      running--;
      order.push(i);
      if (i === 1) throw new Error('one');
      return i;
    };
    const results = await Promise.allSettled([1, 2, 3, 4, 5].map((i) => limit(task(i))));
    expect(most).toBe(2);
    expect(results.map((r) => r.status)).toEqual(['rejected', 'fulfilled', 'fulfilled', 'fulfilled', 'fulfilled']);
    expect(order.slice(2).sort()).toEqual([3, 4, 5]);
  });
});
