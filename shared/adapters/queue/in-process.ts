import { createLogger } from '../../logger.js';
import {
  JobTimeoutError,
  QueueClosedError,
  QueueFullError,
  describeFailure,
  encodeReason,
  failureError,
} from './errors.js';
import type { JobName, JobQueue, QueueCounts, QueueDeps } from './job-queue.js';
import { DEFAULT_CLOSE_TIMEOUT_MS, backoffDelay, jobPolicy, maxWaitingFor, settlesWithin, withTimeout, type JobPolicy } from './policy.js';
import { createThreadPool, type ThreadPool } from './thread-pool.js';

type Handler = (payload: unknown, ctx: { jobId: string; attempt: number }) => Promise<unknown>;

interface Job {
  id: string;
  key?: string;
  payload: unknown;
  policy: JobPolicy;
  failures: number;
  timer?: NodeJS.Timeout;
  done: Promise<unknown>;
  resolve(result: unknown): void;
  reject(err: Error): void;
}

interface Lane {
  name: string;
  waiting: Job[];
  delayed: Set<Job>;
  active: Set<Job>;
  failed: number;
  /** Deduplication keys of jobs not finished yet. */
  byKey: Map<string, Job>;
  handler?: Handler;
  concurrency: number;
  executions: Set<Promise<void>>;
}

/**
 * The embedded queue: jobs live in memory (lost on restart, which is acceptable for derivable
 * work like image transforms). Payloads and results are JSON-copied, as Redis would, so a handler
 * behaves the same on both queues.
 */
export function createInProcessQueue(deps: QueueDeps = {}): JobQueue {
  const logger = deps.logger ?? createLogger('silent');
  const lanes = new Map<string, Lane>();
  const pools: ThreadPool[] = [];
  let closed = false;
  let nextId = 1;

  const lane = (name: string): Lane => {
    let l = lanes.get(name);
    if (!l) {
      l = { name, waiting: [], delayed: new Set(), active: new Set(), failed: 0, byKey: new Map(), concurrency: 1, executions: new Set() };
      lanes.set(name, l);
    }
    return l;
  };

  const add = (name: JobName, payload: unknown, options: { jobId?: string; attempts?: number; backoffMs?: number; delayMs?: number }): Job => {
    if (closed) throw new QueueClosedError();
    const policy = jobPolicy(options);
    const l = lane(name);
    const existing = options.jobId !== undefined ? l.byKey.get(options.jobId) : undefined;
    if (existing) return existing;
    if (l.waiting.length >= maxWaitingFor(deps, name)) throw new QueueFullError(name);
    let resolve!: (v: unknown) => void;
    let reject!: (e: Error) => void;
    const done = new Promise<unknown>((res, rej) => ((resolve = res), (reject = rej)));
    done.catch(() => {}); // enqueue-only jobs have nobody listening
    const job: Job = { id: String(nextId++), key: options.jobId, payload: jsonCopy(payload), policy, failures: 0, done, resolve, reject };
    if (job.key !== undefined) l.byKey.set(job.key, job);
    schedule(l, job, policy.delayMs);
    return job;
  };

  const schedule = (l: Lane, job: Job, delayMs: number) => {
    if (delayMs <= 0) {
      l.waiting.push(job);
      pump(l);
      return;
    }
    l.delayed.add(job);
    job.timer = setTimeout(() => {
      l.delayed.delete(job);
      l.waiting.push(job);
      pump(l);
    }, delayMs);
  };

  const pump = (l: Lane) => {
    while (!closed && l.handler && l.active.size < l.concurrency && l.waiting.length > 0) start(l, l.waiting.shift()!);
  };

  const settle = (l: Lane, job: Job) => {
    if (job.key !== undefined && l.byKey.get(job.key) === job) l.byKey.delete(job.key);
  };

  const start = (l: Lane, job: Job) => {
    l.active.add(job);
    const attempt = job.failures + 1;
    const execution = (async () => {
      let outcome: { ok: true; result: unknown } | { ok: false; err: unknown };
      try {
        // Copied inside the try: a result JSON cannot carry fails the attempt, as it would in Redis.
        outcome = { ok: true, result: jsonCopy(await l.handler!(job.payload, { jobId: job.id, attempt })) };
      } catch (err) {
        outcome = { ok: false, err };
      }
      l.active.delete(job);
      if (outcome.ok) {
        settle(l, job);
        job.resolve(outcome.result);
      } else {
        job.failures++;
        const failure = describeFailure(outcome.err);
        if (!failure.permanent && job.failures < job.policy.attempts && !closed) {
          logger.warn({ queue: l.name, jobId: job.id, attempt, err: failure.message }, 'job failed; retrying');
          schedule(l, job, backoffDelay(job.policy.backoffMs, job.failures));
        } else {
          logger.error({ queue: l.name, jobId: job.id, attempt, err: failure.message }, 'job failed');
          settle(l, job);
          l.failed++;
          job.reject(failureError(job.id, encodeReason(failure)));
        }
      }
      pump(l);
    })();
    l.executions.add(execution);
    void execution.then(() => l.executions.delete(execution));
  };

  const queue: JobQueue = {
    kind: 'in-process',

    async enqueue(name, payload, options = {}) {
      return add(name, payload, options).id;
    },

    async run(name, payload, options) {
      const job = add(name, payload, options);
      return (await withTimeout(job.done, options.timeoutMs, () => new JobTimeoutError(name, options.timeoutMs))) as never;
    },

    process(name, handler, options = {}) {
      const l = lane(name);
      if (l.handler) throw new Error(`A handler for the ${name} queue is already registered.`);
      l.handler = handler as Handler;
      l.concurrency = Math.max(1, options.concurrency ?? 1);
      pump(l);
    },

    processInThreads(name, options) {
      const size = Math.max(1, options.concurrency ?? 1);
      const pool = createThreadPool({ module: options.module, exportName: options.exportName ?? 'default', size });
      pools.push(pool);
      queue.process(name, (payload, ctx) => pool.run(payload, ctx) as never, { concurrency: size });
    },

    async isFull(name) {
      return lane(name).waiting.length >= maxWaitingFor(deps, name);
    },

    async counts(names = []) {
      const out: Record<string, QueueCounts> = {};
      for (const name of names) lane(name);
      for (const l of lanes.values()) {
        out[l.name] = { waiting: l.waiting.length, active: l.active.size, delayed: l.delayed.size, failed: l.failed };
      }
      return out;
    },

    async ping() {
      if (closed) throw new QueueClosedError();
    },

    async close(options = {}) {
      if (closed) return;
      closed = true;
      // Nothing new starts; queued work is refused so `run` callers are not left hanging.
      for (const l of lanes.values()) {
        for (const job of [...l.waiting.splice(0), ...l.delayed]) {
          clearTimeout(job.timer);
          settle(l, job);
          job.reject(new QueueClosedError());
        }
        l.delayed.clear();
      }
      const active = [...lanes.values()].flatMap((l) => [...l.executions]);
      const finished = await settlesWithin(Promise.all(active), options.timeoutMs ?? DEFAULT_CLOSE_TIMEOUT_MS);
      if (!finished) logger.warn({ active: active.length }, 'queue closed with jobs still running');
      await Promise.all(pools.map((p) => p.close()));
    },
  };
  return queue;
}

function jsonCopy(value: unknown): unknown {
  return value === undefined ? null : JSON.parse(JSON.stringify(value));
}
