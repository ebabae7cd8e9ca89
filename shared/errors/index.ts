/**
 * One error catalogue for the whole product. Domain code throws `AppError`s built by the
 * factories below; the Express error handler renders them into the REST envelope and the Yoga
 * plugin maps them to GraphQL `extensions.code`. Anything else is masked and logged.
 */
export type ErrorCode =
  | 'BAD_REQUEST'
  | 'UNAUTHENTICATED'
  | 'FORBIDDEN'
  | 'NOT_FOUND'
  | 'CONFLICT'
  | 'PAYLOAD_TOO_LARGE'
  | 'UNSUPPORTED_MEDIA_TYPE'
  | 'UNPROCESSABLE'
  | 'RATE_LIMITED'
  | 'SERVICE_UNAVAILABLE'
  | 'GATEWAY_TIMEOUT'
  | 'INTERNAL';

const statusByCode: Record<ErrorCode, number> = {
  BAD_REQUEST: 400,
  UNAUTHENTICATED: 401,
  FORBIDDEN: 403,
  NOT_FOUND: 404,
  CONFLICT: 409,
  PAYLOAD_TOO_LARGE: 413,
  UNSUPPORTED_MEDIA_TYPE: 415,
  UNPROCESSABLE: 422,
  RATE_LIMITED: 429,
  SERVICE_UNAVAILABLE: 503,
  GATEWAY_TIMEOUT: 504,
  INTERNAL: 500,
};

export interface AppErrorOptions {
  /** Further readable reasons (one per problem), rendered after the message in `errors`. */
  details?: string[];
  /** Seconds a client should wait before retrying (429, 503). */
  retryAfter?: number;
  /** Extra response headers (e.g. WWW-Authenticate). */
  headers?: Record<string, string>;
  cause?: unknown;
}

export class AppError extends Error {
  readonly code: ErrorCode;
  readonly status: number;
  readonly details: string[];
  readonly retryAfter?: number;
  readonly headers: Record<string, string>;

  constructor(code: ErrorCode, message: string, options: AppErrorOptions = {}) {
    super(message, { cause: options.cause });
    this.name = 'AppError';
    this.code = code;
    this.status = statusByCode[code];
    this.details = options.details ?? [];
    this.retryAfter = options.retryAfter;
    this.headers = options.headers ?? {};
  }

  /** Every readable reason, message first. */
  get reasons(): string[] {
    return [this.message, ...this.details];
  }
}

export const isAppError = (e: unknown): e is AppError => e instanceof AppError;

export const badRequest = (message: string, details?: string[]) =>
  new AppError('BAD_REQUEST', message, { details });
export const unauthenticated = (message = 'Authentication required: send "Authorization: Bearer <token>".') =>
  new AppError('UNAUTHENTICATED', message, { headers: { 'WWW-Authenticate': 'Bearer realm="folio"' } });
export const invalidToken = (message = 'The access token is malformed, unknown or revoked.') =>
  new AppError('UNAUTHENTICATED', message, {
    headers: { 'WWW-Authenticate': 'Bearer realm="folio", error="invalid_token"' },
  });
export const forbidden = (message: string) => new AppError('FORBIDDEN', message);
export const notFound = (what: string) => new AppError('NOT_FOUND', `${what} not found.`);
export const conflict = (message: string) => new AppError('CONFLICT', message);
export const payloadTooLarge = (limitBytes: number) =>
  new AppError('PAYLOAD_TOO_LARGE', `Request body exceeds the limit of ${limitBytes} bytes.`);
export const unsupportedMediaType = (message: string) => new AppError('UNSUPPORTED_MEDIA_TYPE', message);
export const unprocessable = (message: string, details?: string[]) =>
  new AppError('UNPROCESSABLE', message, { details });
export const rateLimited = (retryAfter: number, message = 'Rate limit exceeded; retry later.', headers?: Record<string, string>) =>
  new AppError('RATE_LIMITED', message, { retryAfter, headers });
export const serviceUnavailable = (message: string, retryAfter = 5) =>
  new AppError('SERVICE_UNAVAILABLE', message, { retryAfter });
export const gatewayTimeout = (message: string) => new AppError('GATEWAY_TIMEOUT', message);
