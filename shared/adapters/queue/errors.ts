import { AppError, isAppError, type ErrorCode } from '../../errors/index.js';

/** `run` gave up waiting (HTTP 504). The job itself may still finish and be reused. */
export class JobTimeoutError extends AppError {
  constructor(queue: string, timeoutMs: number) {
    super('GATEWAY_TIMEOUT', `The ${queue} job did not finish within ${timeoutMs} ms.`);
    this.name = 'JobTimeoutError';
  }
}

/** Backpressure: the queue already holds its maximum of waiting jobs (HTTP 503 + Retry-After). */
export class QueueFullError extends AppError {
  constructor(queue: string, retryAfterSeconds = 5) {
    super('SERVICE_UNAVAILABLE', `The ${queue} queue is full; retry later.`, { retryAfter: retryAfterSeconds });
    this.name = 'QueueFullError';
  }
}

/** The queue is shutting down; callers should answer 503 and let a client retry elsewhere. */
export class QueueClosedError extends AppError {
  constructor() {
    super('SERVICE_UNAVAILABLE', 'The job queue is shutting down; retry later.', { retryAfter: 5 });
    this.name = 'QueueClosedError';
  }
}

/** Redis could not be reached in time (HTTP 503); the job was not added. */
export class QueueUnavailableError extends AppError {
  constructor(queue: string) {
    super('SERVICE_UNAVAILABLE', `The ${queue} queue is unreachable; retry later.`, { retryAfter: 5 });
    this.name = 'QueueUnavailableError';
  }
}

/** A job failed for good (after its retries) with an error that was not an AppError. */
export class JobFailedError extends Error {
  readonly jobId: string;
  constructor(jobId: string, message: string) {
    super(message);
    this.name = 'JobFailedError';
    this.jobId = jobId;
  }
}

/** Thrown by a handler when retrying cannot help (bad input): the job fails at once. */
export class PermanentJobError extends Error {
  constructor(message: string, options?: { cause?: unknown }) {
    super(message, options);
    this.name = 'PermanentJobError';
  }
}

/**
 * How a failure travels from a handler to `run` callers. BullMQ only keeps a reason string, so
 * both queues encode AppError codes into it (`[UNPROCESSABLE] message`) and decode on the way
 * out: a handler's 422 reaches the endpoint as a 422 in both implementations.
 */
export interface Failure {
  message: string;
  code?: ErrorCode;
  /** Retrying cannot help: PermanentJobError or a client-side (4xx) AppError. */
  permanent: boolean;
}

export function describeFailure(err: unknown): Failure {
  if (isAppError(err)) return { message: err.message, code: err.code, permanent: err.status < 500 };
  const message = err instanceof Error ? err.message : String(err);
  return { message: message || 'Job failed.', permanent: err instanceof PermanentJobError };
}

export const encodeReason = (f: Pick<Failure, 'message' | 'code'>): string =>
  f.code ? `[${f.code}] ${f.message}` : f.message;

export function failureError(jobId: string, reason: string): Error {
  const m = /^\[([A-Z_]+)\] ([\s\S]*)$/.exec(reason);
  if (m) {
    const error = new AppError(m[1] as ErrorCode, m[2]);
    if (error.status !== undefined) return error;
  }
  return new JobFailedError(jobId, reason);
}
