import { Queue, QueueEvents, UnrecoverableError, Worker, type Job } from 'bullmq';
import { Redis } from 'ioredis';
import type { EventEmitter } from 'node:events';
import { isAppError } from '../../errors/index.js';
import { createLogger } from '../../logger.js';
import {
  JobFailedError,
  JobTimeoutError,
  QueueClosedError,
  QueueFullError,
  QueueUnavailableError,
  describeFailure,
  encodeReason,
  failureError,
} from './errors.js';
import type { JobName, JobQueue, QueueCounts, QueueDeps } from './job-queue.js';
import { CLOSE_STEP_TIMEOUT_MS, DEFAULT_CLOSE_TIMEOUT_MS, jobPolicy, maxWaitingFor, settlesWithin, withTimeout } from './policy.js';
import { createThreadPool, type ThreadPool } from './thread-pool.js';

export interface BullmqQueueOptions extends QueueDeps {
  redisUrl: string;
}

// Finished jobs stay a while so `run` callers that arrive late still read the outcome, and
// failures stay longer for inspection; the deduplication key is released as soon as a job ends.
const KEEP_COMPLETED = { age: 3600, count: 1000 };
const KEEP_FAILED = { age: 7 * 24 * 3600, count: 10_000 };

type Handler = (payload: unknown, ctx: { jobId: string; attempt: number }) => Promise<unknown>;

/**
 * The production queue: BullMQ 6 on Redis. One `Queue` per job name (shared connection), one
 * `QueueEvents` per name that `run` waits on (own blocking connection), one `Worker` per name a
 * process handles. Thread handlers run in the same worker-thread pool as the in-process queue
 * (not BullMQ's sandboxed processors): one mechanism, identical crash-and-retry behaviour, and it
 * works from tsx sources and compiled dist alike.
 */
export function createBullmqQueue(options: BullmqQueueOptions): JobQueue {
  const logger = options.logger ?? createLogger('silent');
  const prefix = options.prefix ?? 'folio';
  const connections: Redis[] = [];
  // Workers and QueueEvents block on Redis and need `maxRetriesPerRequest: null`; the producer
  // connection fails a command after a few reconnect attempts, so enqueue answers 5xx instead of
  // hanging a request while Redis is down.
  const connect = (maxRetriesPerRequest: number | null = null) => {
    const c = new Redis(options.redisUrl, { maxRetriesPerRequest });
    c.on('error', (err) => logger.warn({ err }, 'redis connection error (queue)'));
    connections.push(c);
    return c;
  };
  const shared = connect(3);
  const queues = new Map<string, Queue>();
  const events = new Map<string, Promise<QueueEvents>>();
  const workers: Worker[] = [];
  const executions = new Set<Promise<unknown>>();
  const pools: ThreadPool[] = [];
  /** Pending `run` callers, released with QueueClosedError on close (the jobs stay in Redis). */
  const waiters = new Set<(err: Error) => Promise<void>>();
  let closed = false;
  // Only the settings given: an explicit undefined would override BullMQ's defaults.
  const { lockDurationMs, stalledIntervalMs, maxStalledCount } = options.bullmq ?? {};
  const workerTuning = {
    ...(lockDurationMs !== undefined ? { lockDuration: lockDurationMs } : {}),
    ...(stalledIntervalMs !== undefined ? { stalledInterval: stalledIntervalMs } : {}),
    ...(maxStalledCount !== undefined ? { maxStalledCount } : {}),
  };

  const queueFor = (name: string): Queue => {
    let q = queues.get(name);
    if (!q) {
      q = new Queue(name, { connection: shared, prefix });
      q.on('error', (err) => logger.warn({ err, queue: name }, 'queue error'));
      queues.set(name, q);
    }
    return q;
  };

  // Starts reading the event stream at its current end, so no event between "job added" and
  // "listener attached" can slip through unseen.
  const eventsFor = (name: string): Promise<QueueEvents> => {
    let e = events.get(name);
    if (!e) {
      const created = (async () => {
        const last = (await shared.xrevrange(`${prefix}:${name}:events`, '+', '-', 'COUNT', 1))[0]?.[0] ?? '0-0';
        const qe = new QueueEvents(name, { connection: connect(), prefix, lastEventId: last });
        qe.on('error', (err) => logger.warn({ err, queue: name }, 'queue events error'));
        qe.setMaxListeners(0); // two listeners per waiting run() caller
        await qe.waitUntilReady();
        return qe;
      })();
      // A failure (Redis down) is not cached: the next caller tries again.
      created.catch(() => events.delete(name));
      events.set(name, created);
      e = created;
    }
    return e;
  };

  const isFull = async (name: JobName) => (await queueFor(name).getWaitingCount()) >= maxWaitingFor(options, name);

  // BullMQ waits for a ready connection without limit; a request must not.
  const enqueue: JobQueue['enqueue'] = async (name, payload, opts = {}) => {
    if (closed) throw new QueueClosedError();
    jobPolicy(opts); // bad options are the caller's bug, not Redis being down
    const limit = options.bullmq?.enqueueTimeoutMs ?? 5000;
    return withTimeout(addJob(name, payload, opts), limit, () => new QueueUnavailableError(name)).catch(unavailable(name));
  };

  /** Redis failures reach callers as a 503 AppError; the cause is logged, not leaked. */
  const unavailable = (name: string) => (err: unknown): never => {
    if (isAppError(err)) throw err;
    logger.warn({ err, queue: name }, 'queue unreachable');
    throw new QueueUnavailableError(name);
  };

  const addJob: JobQueue['enqueue'] = async (name, payload, opts = {}) => {
    const policy = jobPolicy(opts);
    const q = queueFor(name);
    if (await isFull(name)) {
      // Joining a job that holds the key adds nothing, so a full queue still allows it.
      const existing = opts.jobId !== undefined ? await q.getDeduplicationJobId(opts.jobId) : null;
      if (existing) return existing;
      throw new QueueFullError(name);
    }
    // The add script deduplicates atomically too, for callers racing past the check above.
    const job = await q.add(name, payload, {
      deduplication: opts.jobId !== undefined ? { id: opts.jobId } : undefined,
      attempts: policy.attempts,
      backoff: { type: 'exponential', delay: policy.backoffMs },
      delay: policy.delayMs || undefined,
      removeOnComplete: KEEP_COMPLETED,
      removeOnFail: KEEP_FAILED,
    });
    return job.id!;
  };

  const waitFor = (qe: QueueEvents, name: string, id: string, timeoutMs: number, timedOut: () => Error) =>
    new Promise<unknown>((resolve, reject) => {
      // Per-job events (`completed:<id>`) are emitted by QueueEvents but not in its typed map.
      const emitter = qe as unknown as EventEmitter;
      const onCompleted = (args: { returnvalue: unknown }) => finish(() => resolve(args.returnvalue));
      const onFailed = (args: { failedReason: string }) => finish(() => reject(failureError(id, args.failedReason)));
      const timer = setTimeout(() => finish(() => reject(timedOut())), timeoutMs);
      let done = false;
      function finish(settle: () => void) {
        if (done) return;
        done = true;
        waiters.delete(abort);
        clearTimeout(timer);
        emitter.off(`completed:${id}`, onCompleted);
        emitter.off(`failed:${id}`, onFailed);
        settle();
      }
      // The job may have finished before the listeners were attached (or, on close, just before
      // the events stop): look at it. State first, then the job: a job read before its state
      // could still carry no result.
      const q = queueFor(name);
      const look = () =>
        q.getJobState(id).then(async (state) => {
          if (state !== 'completed' && state !== 'failed' && state !== 'unknown') return;
          const job: Job | undefined = await q.getJob(id);
          if (!job || state === 'unknown') {
            return finish(() => reject(new JobFailedError(id, 'The job was removed before it finished.')));
          }
          if (state === 'completed') onCompleted({ returnvalue: job.returnvalue });
          else onFailed({ failedReason: job.failedReason });
        });
      const abort = async (err: Error) => {
        await look().catch(() => undefined);
        finish(() => reject(err));
      };
      waiters.add(abort);
      emitter.on(`completed:${id}`, onCompleted);
      emitter.on(`failed:${id}`, onFailed);
      look().catch((err: Error) => finish(() => reject(err)));
    });

  const queue: JobQueue = {
    kind: 'bullmq',
    enqueue,

    async run(name, payload, opts) {
      if (closed) throw new QueueClosedError();
      // One deadline for everything, reaching Redis included.
      const deadline = Date.now() + opts.timeoutMs;
      const timedOut = () => new JobTimeoutError(name, opts.timeoutMs);
      const { qe, id } = await withTimeout(
        (async () => ({ qe: await eventsFor(name).catch(unavailable(name)), id: await enqueue(name, payload, opts) }))(),
        opts.timeoutMs,
        timedOut,
      );
      return (await waitFor(qe, name, id, Math.max(0, deadline - Date.now()), timedOut)) as never;
    },

    process(name, handler, opts = {}) {
      if (closed) throw new QueueClosedError();
      if (workers.some((w) => w.name === name)) throw new Error(`A handler for the ${name} queue is already registered.`);
      const run = handler as Handler;
      const processor = async (job: Job) => {
        const execution = run(job.data, { jobId: job.id!, attempt: job.attemptsMade + 1 });
        executions.add(execution);
        try {
          return await execution;
        } catch (err) {
          const failure = describeFailure(err);
          const reason = encodeReason(failure);
          throw failure.permanent ? new UnrecoverableError(reason) : new Error(reason);
        } finally {
          executions.delete(execution);
        }
      };
      const worker = new Worker(name, processor, {
        connection: connect(),
        prefix,
        concurrency: Math.max(1, opts.concurrency ?? 1),
        ...(opts.stalledAfterMs ? { lockDuration: opts.stalledAfterMs, stalledInterval: Math.ceil(opts.stalledAfterMs / 2) } : {}),
        ...workerTuning,
      });
      worker.on('error', (err) => logger.warn({ err, queue: name }, 'worker error'));
      worker.on('failed', (job, err) =>
        logger.warn({ queue: name, jobId: job?.id, attempt: job?.attemptsMade, err: err.message }, 'job attempt failed'),
      );
      workers.push(worker);
    },

    processInThreads(name, opts) {
      const size = Math.max(1, opts.concurrency ?? 1);
      const pool = createThreadPool({ module: opts.module, exportName: opts.exportName ?? 'default', size });
      pools.push(pool);
      queue.process(name, (payload, ctx) => pool.run(payload, ctx) as never, { concurrency: size });
    },

    isFull,

    async counts(names = []) {
      for (const name of names) queueFor(name);
      const out: Record<string, QueueCounts> = {};
      for (const [name, q] of queues) {
        const c = await q.getJobCounts('wait', 'prioritized', 'active', 'delayed', 'failed');
        out[name] = {
          waiting: (c.wait ?? 0) + (c.prioritized ?? 0),
          active: c.active ?? 0,
          delayed: c.delayed ?? 0,
          failed: c.failed ?? 0,
        };
      }
      return out;
    },

    async ping() {
      if (closed) throw new QueueClosedError();
      await shared.ping();
    },

    async close(opts = {}) {
      if (closed) return;
      closed = true;
      // Take no more jobs, give running ones the grace period, then let go: a job still running
      // keeps its Redis lock until it expires and another worker picks it up as stalled.
      await settlesWithin(Promise.all(workers.map((w) => w.pause(true))), 2000);
      const finished = await settlesWithin(Promise.all([...executions]), opts.timeoutMs ?? DEFAULT_CLOSE_TIMEOUT_MS);
      if (!finished) logger.warn({ active: executions.size }, 'queue closed with jobs still running');
      // Every step runs even when an earlier one fails or hangs (Redis gone or still reconnecting
      // mid-shutdown: a worker's close waits for its blocking connection to come back).
      const steps = [
        () => Promise.all(workers.map((w) => w.close(!finished))),
        // After the workers: a job they just finished is reported, the rest are let go.
        () => Promise.all([...waiters].map((abort) => abort(new QueueClosedError()))),
        () => Promise.all([...events.values()].map(async (e) => (await e).close())),
        () => Promise.all([...queues.values()].map((q) => q.close())),
        () => Promise.all(pools.map((p) => p.close())),
      ];
      for (const step of steps) {
        const settled = await settlesWithin(step().catch((err: unknown) => logger.warn({ err }, 'error while closing the queue')), CLOSE_STEP_TIMEOUT_MS);
        if (!settled) logger.warn({ timeoutMs: CLOSE_STEP_TIMEOUT_MS }, 'queue close step timed out; disconnecting');
      }
      // quit() on a connection that is not up would wait for it; disconnect() does not.
      await Promise.all(connections.map((c) => (c.status === 'ready' ? c.quit().catch(() => c.disconnect()) : c.disconnect())));
    },
  };
  return queue;
}
