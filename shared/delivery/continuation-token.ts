import { createHash, createHmac, timingSafeEqual } from 'node:crypto';
import { badRequest } from '../errors/index.js';

/**
 * Continuation tokens are opaque keyset cursors: the sort values of the last item
 * (its id included), bound to the query they came from (org, collection, scope, filter, order)
 * and signed with HMAC-SHA256. Anything tampered, foreign or mismatched is BAD_USER_INPUT.
 */
export interface TokenBinding {
  orgId: string;
  collection: string;
  scope: string;
  where: unknown;
  order: unknown;
  /** Present only when the query asked for a locale (tokens of other queries are unchanged). */
  locale?: string;
  /** Present only when the query searched (tokens of other queries are unchanged). */
  search?: string;
}

/** Stable JSON: object keys sorted, so equal inputs give equal bindings. */
function canonical(v: unknown): string {
  if (Array.isArray(v)) return `[${v.map(canonical).join(',')}]`;
  if (v instanceof Date) return JSON.stringify(v.toISOString());
  if (v && typeof v === 'object') {
    const entries = Object.entries(v as Record<string, unknown>).filter(([, x]) => x !== undefined && x !== null);
    return `{${entries.sort(([a], [b]) => (a < b ? -1 : 1)).map(([k, x]) => `${JSON.stringify(k)}:${canonical(x)}`).join(',')}}`;
  }
  return JSON.stringify(v ?? null);
}

const bindingHash = (b: TokenBinding) => createHash('sha256').update(canonical(b)).digest('base64url').slice(0, 22);
const sign = (secret: Buffer, body: string) => createHmac('sha256', secret).update(`folio-ct:${body}`).digest();

/** Key values as JSON-safe scalars (dates as ISO strings). */
const plain = (v: unknown) => (v instanceof Date ? v.toISOString() : v === undefined ? null : v);

export function encodeContinuationToken(secret: Buffer, binding: TokenBinding, values: unknown[]): string {
  const body = Buffer.from(JSON.stringify({ b: bindingHash(binding), k: values.map(plain) })).toString('base64url');
  return `${body}.${sign(secret, body).toString('base64url')}`;
}

export function decodeContinuationToken(secret: Buffer, binding: TokenBinding, token: string, keyCount: number): unknown[] {
  const invalid = () => badRequest('continuationToken is invalid, tampered with, or belongs to a different query (filter, order or collection).');
  const [body, mac, extra] = token.split('.');
  if (!body || !mac || extra !== undefined) throw invalid();
  const expected = sign(secret, body);
  const given = Buffer.from(mac, 'base64url');
  if (given.length !== expected.length || !timingSafeEqual(given, expected)) throw invalid();
  let payload: { b?: unknown; k?: unknown };
  try {
    payload = JSON.parse(Buffer.from(body, 'base64url').toString('utf8')) as { b?: unknown; k?: unknown };
  } catch {
    throw invalid();
  }
  if (payload.b !== bindingHash(binding) || !Array.isArray(payload.k) || payload.k.length !== keyCount) throw invalid();
  return payload.k;
}
