import { serviceUnavailable, type AppError } from './index.js';

/**
 * A dependency that is down (Postgres restarting or failing over, Redis gone, a refused socket)
 * is an outage, not a bug: clients get 503 with Retry-After and retry, where an unknown error
 * would be a masked 500. Recognized by what pg, pg-pool, ioredis and Node's sockets raise.
 */
const SOCKET_CODES = new Set(['ECONNREFUSED', 'ECONNRESET', 'EPIPE', 'ETIMEDOUT', 'ENOTFOUND', 'EHOSTUNREACH', 'ENETUNREACH', 'EAI_AGAIN']);
// 57P01–03: the server is shutting down or starting; 53300: too many connections; class 08: connection exceptions.
const SQLSTATES = new Set(['57P01', '57P02', '57P03', '53300']);
const MESSAGES = [
  /^Connection terminated/, // pg: the socket closed under a query
  /^timeout exceeded when trying to connect/, // pg-pool: no connection within connectionTimeoutMillis
  /is not queryable/, // pg: a client whose connection failed
  /^Connection is closed\.?$/, // ioredis
  /enableOfflineQueue/, // ioredis: command while disconnected
];

const RETRY_AFTER_SECONDS = 2;

interface Raised {
  code?: unknown;
  name?: unknown;
  message?: unknown;
  cause?: unknown;
  errors?: unknown;
}

function isOutage(err: unknown, depth = 0): boolean {
  if (!err || typeof err !== 'object' || depth > 5) return false;
  const e = err as Raised;
  const code = typeof e.code === 'string' ? e.code : '';
  if (SOCKET_CODES.has(code) || SQLSTATES.has(code) || /^08[0-9A-Z]{3}$/.test(code)) return true;
  if (e.name === 'MaxRetriesPerRequestError') return true;
  if (typeof e.message === 'string' && MESSAGES.some((m) => m.test(e.message as string))) return true;
  if (Array.isArray(e.errors) && e.errors.some((x) => isOutage(x, depth + 1))) return true;
  return isOutage(e.cause, depth + 1);
}

/** The catalogue's 503 for an error that means a dependency is down; null for anything else. */
export function asDependencyOutage(err: unknown): AppError | null {
  if (!isOutage(err)) return null;
  return serviceUnavailable('A service Folio depends on is unavailable; retry shortly.', RETRY_AFTER_SECONDS);
}
