import { mkdtemp, readFile, rm } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { threadId } from 'node:worker_threads';
import { Redis } from 'ioredis';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { AppError, isAppError, unprocessable } from '../../errors/index.js';
import { randomBase62 } from '../../ids.js';
import { createBullmqQueue } from './bullmq.js';
import { createInProcessQueue } from './in-process.js';
import {
  JobFailedError,
  JobTimeoutError,
  QueueClosedError,
  QueueFullError,
  QueueUnavailableError,
  type JobPayload,
  type JobQueue,
  type QueueDeps,
} from './index.js';

const redisUrl = process.env.REDIS_URL;
const threadModule = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../../../test/fixtures/queue/thread-handlers.ts');

type Open = (deps?: QueueDeps) => JobQueue;
const prefixes: string[] = [];
const implementations: [string, Open][] = [['in-process', (deps) => createInProcessQueue(deps)]];
if (redisUrl) {
  implementations.push([
    'bullmq',
    (deps) => {
      const prefix = deps?.prefix ?? `folio-test-${randomBase62(10)}`;
      prefixes.push(prefix);
      return createBullmqQueue({ ...deps, prefix, redisUrl });
    },
  ]);
}

afterAll(async () => {
  if (!redisUrl || prefixes.length === 0) return;
  const redis = new Redis(redisUrl);
  for (const prefix of new Set(prefixes)) {
    let cursor = '0';
    do {
      const [next, keys] = await redis.scan(cursor, 'MATCH', `${prefix}:*`, 'COUNT', 1000);
      if (keys.length > 0) await redis.del(...keys);
      cursor = next;
    } while (cursor !== '0');
  }
  await redis.quit();
});

const payload = (value: unknown, extra: Partial<JobPayload<'echo'>> = {}): JobPayload<'echo'> => ({
  orgId: 'org-test',
  version: 1,
  value,
  ...extra,
});

const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

/** A promise the test opens by hand, for holding jobs in the active state. */
function gate() {
  let open!: () => void;
  const opened = new Promise<void>((r) => (open = r));
  return { open, opened };
}

async function until(check: () => boolean | Promise<boolean>, what: string, ms = 20_000) {
  const deadline = Date.now() + ms;
  while (!(await check())) {
    if (Date.now() > deadline) throw new Error(`timed out waiting for ${what}`);
    await sleep(10);
  }
}

describe.each(implementations)('JobQueue contract: %s', (_name, open) => {
  let opened: JobQueue[] = [];
  const fresh = (deps?: QueueDeps) => {
    const q = open(deps);
    opened.push(q);
    return q;
  };
  afterEach(async () => {
    await Promise.all(opened.map((q) => q.close({ timeoutMs: 2000 })));
    opened = [];
  });

  it('round-trips a payload to a result', async () => {
    const q = fresh();
    q.process('echo', async (p, ctx) => ({ value: p.value, attempt: ctx.attempt }));
    const result = await q.run('echo', payload({ nested: [1, 'two'] }), { timeoutMs: 10_000 });
    expect(result).toEqual({ value: { nested: [1, 'two'] }, attempt: 1 });
    const id = await q.enqueue('echo', payload('x'));
    expect(typeof id).toBe('string');
    expect(id.length).toBeGreaterThan(0);
  });

  it('retries with backoff, then succeeds', async () => {
    const q = fresh();
    const seen: number[] = [];
    q.process('echo', async (p, ctx) => {
      seen.push(ctx.attempt);
      if (ctx.attempt <= (p.failTimes ?? 0)) throw new Error(`flaky ${ctx.attempt}`);
      return { value: p.value, attempt: ctx.attempt };
    });
    const pending = q.run('echo', payload('ok', { failTimes: 2 }), { attempts: 3, backoffMs: 1000, timeoutMs: 30_000 });
    // Between tries the job waits in the delayed state (the backoff), not in the waiting list.
    await until(async () => (await q.counts()).echo?.delayed === 1, 'the job to wait out its backoff');
    await expect(pending).resolves.toEqual({ value: 'ok', attempt: 3 });
    expect(seen).toEqual([1, 2, 3]);
  });

  it('fails for good after its attempts, with the last error', async () => {
    const q = fresh();
    let calls = 0;
    q.process('echo', async (_p, ctx) => {
      calls++;
      throw new Error(`broken on attempt ${ctx.attempt}`);
    });
    const failure = q.run('echo', payload('x'), { attempts: 2, backoffMs: 10, timeoutMs: 10_000 });
    await expect(failure).rejects.toBeInstanceOf(JobFailedError);
    await expect(failure).rejects.toThrow('broken on attempt 2');
    expect(calls).toBe(2);
    expect((await q.counts()).echo.failed).toBe(1);
  });

  it('brings a handler AppError back with its code and does not retry it', async () => {
    const q = fresh();
    let calls = 0;
    q.process('echo', async () => {
      calls++;
      throw unprocessable('The image cannot be decoded.');
    });
    const failure = q.run('echo', payload('x'), { attempts: 3, backoffMs: 10, timeoutMs: 10_000 });
    await expect(failure).rejects.toSatisfy(
      (e: unknown) => isAppError(e) && e.status === 422 && e.message === 'The image cannot be decoded.',
    );
    expect(calls).toBe(1);
  });

  it('deduplicates by jobId while the job is waiting or active, not after', async () => {
    const q = fresh();
    const hold = gate();
    let calls = 0;
    q.process('echo', async (p, ctx) => {
      calls++;
      await hold.opened;
      return { value: p.value, attempt: ctx.attempt };
    });
    const first = await q.enqueue('echo', payload('a'), { jobId: 'same-key' });
    const second = await q.enqueue('echo', payload('b'), { jobId: 'same-key' });
    expect(second).toBe(first);
    await until(async () => (await q.counts()).echo.active === 1, 'the job to start');
    // Still deduplicated while active.
    expect(await q.enqueue('echo', payload('c'), { jobId: 'same-key' })).toBe(first);
    const other = await q.enqueue('echo', payload('d'), { jobId: 'other-key' });
    expect(other).not.toBe(first);
    hold.open();
    // Joins job 'a' unless that finished in the meantime (then 'e' is a new job).
    const result = await q.run('echo', payload('e'), { jobId: 'same-key', timeoutMs: 10_000 });
    expect(['a', 'e']).toContain(result.value);
    const expectedCalls = result.value === 'a' ? 3 : 4;
    await until(async () => {
      const c = (await q.counts()).echo;
      return c.active + c.waiting === 0;
    }, 'the queue to drain');
    // Finished: the key is free again and makes a new job.
    const later = await q.enqueue('echo', payload('f'), { jobId: 'same-key' });
    expect(later).not.toBe(first);
    await until(() => calls === expectedCalls, 'the new job to run');
  });

  it('gives 50 concurrent run() calls with one jobId the result of one execution', async () => {
    const q = fresh();
    let executions = 0;
    q.process('echo', async (p, ctx) => {
      executions++;
      await sleep(200);
      return { value: { n: executions, v: p.value }, attempt: ctx.attempt };
    }, { concurrency: 8 });
    const results = await Promise.all(
      Array.from({ length: 50 }, (_, i) => q.run('echo', payload(i), { jobId: 'img-abc', timeoutMs: 20_000 })),
    );
    expect(executions).toBe(1);
    expect(new Set(results.map((r) => JSON.stringify(r))).size).toBe(1);
  });

  it('never runs more jobs at once than its concurrency', async () => {
    const q = fresh();
    let current = 0;
    let max = 0;
    const three = gate();
    q.process('echo', async (p, ctx) => {
      current++;
      max = Math.max(max, current);
      if (current === 3) three.open();
      await three.opened;
      await sleep(5);
      current--;
      return { value: p.value, attempt: ctx.attempt };
    }, { concurrency: 3 });
    await Promise.all(Array.from({ length: 12 }, (_, i) => q.run('echo', payload(i), { timeoutMs: 20_000 })));
    expect(max).toBe(3);
  });

  it('rejects run() with JobTimeoutError when the job takes too long', async () => {
    const q = fresh();
    const hold = gate();
    q.process('echo', async (p, ctx) => {
      await hold.opened;
      return { value: p.value, attempt: ctx.attempt };
    });
    const slow = q.run('echo', payload('slow'), { timeoutMs: 300 });
    await expect(slow).rejects.toBeInstanceOf(JobTimeoutError);
    await expect(slow).rejects.toMatchObject({ status: 504, code: 'GATEWAY_TIMEOUT' });
    hold.open();
  });

  it('refuses new jobs with QueueFullError past maxWaiting, but lets callers join', async () => {
    const q = fresh({ maxWaiting: { echo: 2 } });
    await q.enqueue('echo', payload(1), { jobId: 'k1' });
    expect(await q.isFull('echo')).toBe(false);
    await q.enqueue('echo', payload(2));
    expect(await q.isFull('echo')).toBe(true);
    const refused = q.enqueue('echo', payload(3));
    await expect(refused).rejects.toBeInstanceOf(QueueFullError);
    await expect(refused).rejects.toSatisfy((e: unknown) => e instanceof AppError && e.status === 503 && (e.retryAfter ?? 0) > 0);
    await expect(q.run('echo', payload(3), { timeoutMs: 5000 })).rejects.toBeInstanceOf(QueueFullError);
    // Joining the waiting job with its key is not a new job.
    const joined = q.run('echo', payload(1), { jobId: 'k1', timeoutMs: 10_000 });
    q.process('echo', async (p, ctx) => ({ value: p.value, attempt: ctx.attempt }));
    await expect(joined).resolves.toEqual({ value: 1, attempt: 1 });
    await until(async () => !(await q.isFull('echo')), 'the queue to drain');
  });

  it('counts jobs per queue and state', async () => {
    const q = fresh();
    await q.enqueue('echo', payload(1));
    await q.enqueue('echo', payload(2), { delayMs: 60_000 });
    expect((await q.counts()).echo).toEqual({ waiting: 1, active: 0, delayed: 1, failed: 0 });
    await expect(q.ping()).resolves.toBeUndefined();
  });

  it('close() waits for active jobs, then refuses new ones', async () => {
    const q = fresh();
    let finished = false;
    const started = gate();
    q.process('echo', async (p, ctx) => {
      started.open();
      await sleep(400);
      finished = true;
      return { value: p.value, attempt: ctx.attempt };
    });
    const result = q.run('echo', payload('last'), { timeoutMs: 10_000 }).catch((e: unknown) => e);
    await started.opened;
    await q.close({ timeoutMs: 10_000 });
    expect(finished).toBe(true);
    expect(await result).toEqual({ value: 'last', attempt: 1 });
    await expect(q.enqueue('echo', payload('late'))).rejects.toBeInstanceOf(QueueClosedError);
  });

  it('close() releases run() callers still waiting with QueueClosedError', async () => {
    const q = fresh();
    const outcome = q.run('echo', payload('never started'), { timeoutMs: 30_000 }).catch((e: unknown) => e);
    await until(async () => (await q.counts()).echo?.waiting === 1, 'the job to be queued');
    await q.close({ timeoutMs: 1000 });
    expect(await outcome).toBeInstanceOf(QueueClosedError);
  });

  describe('worker threads', () => {
    let dir: string;
    beforeAll(async () => {
      dir = await mkdtemp(path.join(os.tmpdir(), 'folio-queue-'));
    });
    afterAll(async () => {
      await rm(dir, { recursive: true, force: true });
    });

    it('runs a .ts handler module off the main thread', async () => {
      const q = fresh();
      q.processInThreads('echo', { module: threadModule, exportName: 'echoInThread', concurrency: 2 });
      const results = await Promise.all(
        ['a', 'b', 'c'].map((text) => q.run('echo', payload({ text }), { timeoutMs: 30_000 })),
      );
      for (const [i, r] of results.entries()) {
        const value = r.value as { text: string; threadId: number };
        expect(value.text).toBe(['a', 'b', 'c'][i]);
        expect(value.threadId).not.toBe(threadId);
        expect(value.threadId).toBeGreaterThan(0);
      }
    });

    it('retries a job whose thread died mid-job on a fresh thread, completing it once', async () => {
      const q = fresh();
      q.processInThreads('echo', { module: threadModule, exportName: 'echoInThread', concurrency: 1 });
      const log = path.join(dir, 'crash.log');
      const marker = path.join(dir, 'crash.marker');
      const result = await q.run('echo', payload({ text: 'survivor', log, crashOnce: marker }), {
        attempts: 3,
        backoffMs: 50,
        timeoutMs: 30_000,
      });
      expect(result.attempt).toBe(2);
      expect((result.value as { text: string }).text).toBe('survivor');
      expect((await readFile(log, 'utf8')).trim().split('\n')).toEqual(['start 1', 'start 2', 'done 2']);
      // The pool replaced the dead thread: later jobs still run.
      await expect(q.run('echo', payload({ text: 'next' }), { timeoutMs: 30_000 })).resolves.toMatchObject({ attempt: 1 });
    });
  });
});

// Defined only with Redis (not skipped): it needs a second worker process's worth of BullMQ.
if (redisUrl) describe('BullMQ only', () => {
  it('hands a job stalled by a dead worker to another worker, which completes it', async () => {
    const prefix = `folio-test-${randomBase62(10)}`;
    prefixes.push(prefix);
    const bullmq = { lockDurationMs: 1000, stalledIntervalMs: 500 };
    const a = createBullmqQueue({ redisUrl: redisUrl!, prefix, bullmq });
    const b = createBullmqQueue({ redisUrl: redisUrl!, prefix, bullmq });
    const starts: string[] = [];
    const stuck = gate();
    const releaseA = gate();
    a.process('echo', async (p, ctx) => {
      starts.push(`a${ctx.attempt}`);
      stuck.open();
      await releaseA.opened; // never finishes while the test needs it stuck
      return { value: 'from a', attempt: ctx.attempt };
    });
    try {
      const id = await b.enqueue('echo', payload('stalled'), { jobId: 'stuck-1' });
      await stuck.opened;
      // "Kill" worker a: give up on its job at once and drop its connections, so its lock is
      // no longer renewed.
      await a.close({ timeoutMs: 0 });
      b.process('echo', async (p, ctx) => {
        starts.push(`b${ctx.attempt}`);
        return { value: `from b: ${String(p.value)}`, attempt: ctx.attempt };
      });
      // The key is still held by the stalled job, so this joins it and waits for its outcome.
      const result = await b.run('echo', payload('not this one'), { jobId: 'stuck-1', timeoutMs: 30_000 });
      expect(result.value).toBe('from b: stalled');
      expect(starts).toEqual(['a1', 'b1']);
      expect(await b.enqueue('echo', payload('new'), { jobId: 'stuck-1' })).not.toBe(id);
    } finally {
      releaseA.open();
      await a.close({ timeoutMs: 0 });
      await b.close({ timeoutMs: 5000 });
    }
  });
});

describe('BullMQ with Redis unreachable', () => {
  it('fails fast instead of hanging callers', async () => {
    // Port 1 on loopback: connection refused, a fault we can cause for real.
    const q = createBullmqQueue({
      redisUrl: 'redis://127.0.0.1:1',
      prefix: 'folio-test-unreachable',
      bullmq: { enqueueTimeoutMs: 500 },
    });
    try {
      await expect(q.ping()).rejects.toThrow();
      await expect(q.enqueue('echo', payload('x'))).rejects.toBeInstanceOf(QueueUnavailableError);
      await expect(q.run('echo', payload('x'), { timeoutMs: 20_000 })).rejects.toBeInstanceOf(QueueUnavailableError);
    } finally {
      await q.close({ timeoutMs: 1000 });
    }
  });
});
