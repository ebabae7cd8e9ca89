import type { EnqueueOptions, JobName, QueueDeps } from './job-queue.js';

/** Defaults and limits shared by both queues, so they retry and refuse alike. */
export const DEFAULT_MAX_WAITING = 10_000;
export const DEFAULT_CLOSE_TIMEOUT_MS = 25_000;
/** How long one step of closing the Redis queue may wait on Redis before the connections are dropped. */
export const CLOSE_STEP_TIMEOUT_MS = 2_000;

export interface JobPolicy {
  attempts: number;
  backoffMs: number;
  delayMs: number;
}

export function jobPolicy(options: EnqueueOptions = {}): JobPolicy {
  const attempts = options.attempts ?? 1;
  const backoffMs = options.backoffMs ?? 1000;
  const delayMs = options.delayMs ?? 0;
  if (!Number.isInteger(attempts) || attempts < 1) throw new TypeError('attempts must be an integer ≥ 1');
  if (!(backoffMs >= 0) || !(delayMs >= 0)) throw new TypeError('backoffMs and delayMs must be ≥ 0');
  return { attempts, backoffMs, delayMs };
}

/** Same formula as BullMQ's built-in 'exponential' backoff: delay · 2^(failures − 1). */
export const backoffDelay = (backoffMs: number, failures: number): number =>
  Math.round(backoffMs * 2 ** (failures - 1));

export const maxWaitingFor = (deps: QueueDeps, name: JobName): number =>
  deps.maxWaiting?.[name] ?? deps.defaultMaxWaiting ?? DEFAULT_MAX_WAITING;

/** Resolves after `ms` (false) unless `promise` settles first (true). Never rejects. */
export async function settlesWithin(promise: Promise<unknown>, ms: number): Promise<boolean> {
  let timer: NodeJS.Timeout | undefined;
  const timeout = new Promise<false>((resolve) => (timer = setTimeout(() => resolve(false), ms)));
  const done = promise.then(
    () => true,
    () => true,
  );
  try {
    return await Promise.race([done, timeout]);
  } finally {
    clearTimeout(timer);
  }
}

/** `promise`, or a rejection with `makeError()` after `ms`; the timer never outlives the race. */
export async function withTimeout<T>(promise: Promise<T>, ms: number, makeError: () => Error): Promise<T> {
  let timer: NodeJS.Timeout | undefined;
  const timeout = new Promise<never>((_, reject) => (timer = setTimeout(() => reject(makeError()), ms)));
  try {
    return await Promise.race([promise, timeout]);
  } finally {
    clearTimeout(timer);
  }
}
