import { createHash } from 'node:crypto';
import { EXPOSE_HEADERS } from '../http/cors.js';
import type { RequestState } from './request-state.js';

/**
 * HTTP caching of GraphQL GET answers. Delivery answers are cacheable for the org's max-age and
 * stale-while-revalidate; shared caches (a CDN) only when the token came in the URL (a
 * publishable key): a shared cache keys on the URL, so an answer to a header token marked public
 * would be served to callers of any organization with the same query. Preview is never stored.
 */
export function cacheControlOf(state: RequestState, tokenInUrl: boolean, readTraffic = false): string {
  if (state.scope === 'preview') return 'private, no-store';
  const { maxAge, staleWhileRevalidate } = state.identity.delivery;
  // traffic figures change with no content write (no purge reaches them): a minute at most
  const cap = (s: number) => (readTraffic ? Math.min(s, TRAFFIC_MAX_AGE) : s);
  return `${tokenInUrl ? 'public' : 'private'}, max-age=${cap(maxAge)}, stale-while-revalidate=${cap(staleWhileRevalidate)}`;
}

/** Seconds an answer that read traffic figures may be reused (they are refreshed every minute). */
export const TRAFFIC_MAX_AGE = 60;

/**
 * What a cached answer depends on besides its URL: the media type asked for, the page's origin
 * when the CORS headers name it (sent even when this request had none, so a cache never gives a
 * browser an answer stored for a server) and, for a header token, the token. A publishable key of
 * an org that takes any origin is answered `Access-Control-Allow-Origin: *` instead: one stored
 * copy serves every page (a key in the URL is no credential a browser adds by itself) — with the
 * exposed headers too, since that copy may have been stored from a request without `Origin`.
 */
export function corsAndVaryOf(state: RequestState, tokenInUrl: boolean): Record<string, string> {
  if (!tokenInUrl) return { Vary: 'Accept, Origin, Authorization' };
  if (state.identity.allowedOrigins === null) return { Vary: 'Accept', 'Access-Control-Allow-Origin': '*', 'Access-Control-Expose-Headers': EXPOSE_HEADERS };
  return { Vary: 'Accept, Origin' };
}

/** A strong validator: the SHA-256 of the exact bytes sent. */
export const etagOf = (body: string): string => `"${createHash('sha256').update(body).digest('base64url')}"`;

/** `If-None-Match` matches (weak comparison, as RFC 9110 asks for this header; `*` matches any). */
export function matchesIfNoneMatch(header: string | undefined, etag: string): boolean {
  if (!header) return false;
  return header.split(',').some((t) => {
    const tag = t.trim();
    return tag === '*' || tag === etag || tag === `W/${etag}`;
  });
}

/** The surrogate keys in the two headers CDNs read: Fastly's and Cloudflare's. */
export function surrogateKeyHeaders(keys: readonly string[]): Record<string, string> {
  return keys.length === 0 ? {} : { 'Surrogate-Key': keys.join(' '), 'Cache-Tag': keys.join(',') };
}
