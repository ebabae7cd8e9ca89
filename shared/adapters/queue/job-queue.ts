import type { Logger } from '../../logger.js';
import type { JobName, JobPayload, JobResult } from './jobs.js';

export type { JobName, JobPayload, JobResult } from './jobs.js';
export {
  JobFailedError,
  JobTimeoutError,
  PermanentJobError,
  QueueClosedError,
  QueueFullError,
  QueueUnavailableError,
} from './errors.js';

export interface EnqueueOptions {
  /**
   * Deduplication key. While a job enqueued with this key is waiting, delayed (also between
   * retries) or active, `enqueue` and `run` join that job instead of adding another. Once it has
   * finished, the same key starts a new job.
   */
  jobId?: string;
  /** Total tries, first one included. @default 1 */
  attempts?: number;
  /** Wait before retry n is `backoffMs * 2^(n-1)`. @default 1000 */
  backoffMs?: number;
  /** Start no earlier than this many milliseconds from now. @default 0 */
  delayMs?: number;
}

export interface RunOptions extends Omit<EnqueueOptions, 'delayMs'> {
  /** Reject with `JobTimeoutError` (HTTP 504) after this long; the job itself keeps going. */
  timeoutMs: number;
}

export interface JobContext {
  /** The queue's id for this job (what `enqueue` returned), not the deduplication key. */
  jobId: string;
  /** 1 on the first try. */
  attempt: number;
}

export type JobHandler<N extends JobName> = (payload: JobPayload<N>, ctx: JobContext) => Promise<JobResult<N>>;

export interface ProcessOptions {
  /** Jobs of this queue run at the same time in this process. @default 1 */
  concurrency?: number;
  /**
   * How soon a job whose worker process died is taken up again (BullMQ: its lock lasts this
   * long, renewed at half of it while the job runs, and workers look for expired locks at half
   * of it too). Short for jobs a client waits on. In-process queues have no other process to
   * lose. @default BullMQ's 30 s
   */
  stalledAfterMs?: number;
}

export interface ThreadProcessOptions extends ProcessOptions {
  /** Absolute path of the module exporting the handler (`.ts` under tsx/vitest, `.js` from dist). */
  module: string;
  /** @default 'default' */
  exportName?: string;
}

export interface QueueCounts {
  waiting: number;
  active: number;
  delayed: number;
  failed: number;
}

/**
 * Background jobs: BullMQ on Redis in production, an in-process queue when embedded; both
 * behave the same for everything below (see queue.contract.test.ts).
 */
export interface JobQueue {
  readonly kind: 'bullmq' | 'in-process';
  /** Adds a job (or joins the one holding `jobId`) and returns its id. Throws QueueFullError (503). */
  enqueue<N extends JobName>(name: N, payload: JobPayload<N>, options?: EnqueueOptions): Promise<string>;
  /**
   * Enqueues (or joins) and waits for the result: every caller with the same `jobId` gets the
   * result of one execution. Rejects with the final error after retries (an AppError thrown by the
   * handler comes back as an AppError with the same code and message, anything else as
   * JobFailedError), JobTimeoutError after `timeoutMs`, QueueFullError when full.
   */
  run<N extends JobName>(name: N, payload: JobPayload<N>, options: RunOptions): Promise<JobResult<N>>;
  /** Registers the handler for a queue; call once per queue and process. */
  process<N extends JobName>(name: N, handler: JobHandler<N>, options?: ProcessOptions): void;
  /**
   * Like `process`, but the handler runs in a pool of `concurrency` worker threads (CPU-heavy
   * work). A thread that dies mid-job fails that attempt; the job is retried on a fresh thread.
   */
  processInThreads<N extends JobName>(name: N, options: ThreadProcessOptions): void;
  /** True when the queue holds `maxWaiting` or more waiting jobs (enqueue would throw). */
  isFull(name: JobName): Promise<boolean>;
  /** Per queue: the queues this instance has touched, plus `names`. */
  counts(names?: JobName[]): Promise<Record<string, QueueCounts>>;
  ping(): Promise<void>;
  /**
   * Stops taking and starting jobs, waits up to `timeoutMs` for active ones, then closes
   * connections and threads. Jobs still active after the timeout are abandoned (BullMQ hands them
   * to another worker once their lock expires). @default timeoutMs 25000
   */
  close(options?: { timeoutMs?: number }): Promise<void>;
}

export interface QueueDeps {
  logger?: Logger;
  /** Redis key prefix (BullMQ); tests use a random one per file. @default 'folio' */
  prefix?: string;
  /** Waiting jobs allowed per queue before enqueue throws QueueFullError. */
  maxWaiting?: Partial<Record<JobName, number>>;
  /** For queues not named in `maxWaiting`. @default 10000 */
  defaultMaxWaiting?: number;
  /**
   * BullMQ tuning: lock and stall detection (tests shorten them), and how long `enqueue` may wait
   * for Redis before throwing QueueUnavailableError (@default enqueueTimeoutMs 5000).
   */
  bullmq?: { lockDurationMs?: number; stalledIntervalMs?: number; maxStalledCount?: number; enqueueTimeoutMs?: number };
}
