import { LRUCache } from 'lru-cache';
import type { EventBus } from '../bus/index.js';
import type { Db } from '../db/index.js';
import { invalidToken, unauthenticated } from '../errors/index.js';
import type { TokenIdentity } from './context.js';
import { checkTokenFormat, hashToken } from './token-format.js';
import { findActiveToken } from './tokens.js';

export interface TokenVerifier {
  /** Resolves a plain token to its identity, or throws a 401 AppError. */
  verify(token: string): Promise<TokenIdentity>;
  /** Drops a revoked token from this instance's cache at once (and from others' via the bus). */
  evict(hash: Buffer): void;
}

/**
 * Token lookups are cached for at most `ttlMs` (≤ 5 s), so a revocation reaches every instance
 * within that time even if the bus message is lost; the revoking instance evicts at once.
 */
export function createTokenVerifier(deps: { db: Db; bus: EventBus; ttlMs: number }): TokenVerifier {
  const cache = new LRUCache<string, TokenIdentity>({ max: 50_000, ttl: Math.max(1, deps.ttlMs) });
  deps.bus.subscribe('token-revoked', ({ hash }) => cache.delete(hash));
  return {
    async verify(token) {
      const format = checkTokenFormat(token);
      if (format === 'malformed') throw invalidToken('The access token is malformed.');
      if (format === 'bad-checksum') throw invalidToken('The access token has a bad checksum (mistyped or truncated).');
      const hash = hashToken(token);
      const key = hash.toString('hex');
      const cached = deps.ttlMs > 0 ? cache.get(key) : undefined;
      if (cached) return cached;
      const found = await findActiveToken(deps.db, hash);
      if (!found) throw invalidToken('The access token is unknown or revoked.');
      if (deps.ttlMs > 0) cache.set(key, found);
      return found;
    },
    evict(hash) {
      cache.delete(hash.toString('hex'));
    },
  };
}

// The scheme in any case, then one or more spaces or tabs (RFC 9110's credentials syntax allows
// more than one), the token, optional trailing white space.
const BEARER = /^Bearer[ \t]+([^ \t]+)[ \t]*$/i;

/**
 * The one reading of an Authorization header, for REST and GraphQL alike: the bearer token, or
 * the 401 to answer. A secret token travels only here — never in the query string or the body.
 */
export function bearerTokenOf(authorization: string | undefined): string {
  if (!authorization) throw unauthenticated();
  const m = BEARER.exec(authorization);
  if (!m) throw invalidToken('The Authorization header must be "Bearer <token>".');
  return m[1];
}

/** Parses an Authorization header value and verifies the token. */
export async function authenticateBearer(services: { auth: TokenVerifier }, authorization: string | undefined): Promise<TokenIdentity> {
  return services.auth.verify(bearerTokenOf(authorization));
}
