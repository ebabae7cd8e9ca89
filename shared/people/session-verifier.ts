import { LRUCache } from 'lru-cache';
import type { EventBus } from '../adapters/bus/index.js';
import type { Db } from '../adapters/db/index.js';
import { invalidToken } from '../errors/index.js';
import type { TokenVerifier } from '../tenancy/authenticate.js';
import type { TokenIdentity } from '../tenancy/context.js';
import { findActiveSession } from './session-repository.js';
import { hashSecret, isSessionToken, isWellFormedSessionToken } from './secret-links.js';

export interface SessionAwareVerifier extends TokenVerifier {
  /** Drops a revoked session from this instance's cache at once (others: the bus, or the TTL). */
  evictSession(hash: Buffer): void;
}

/**
 * The token verifier, taught sessions: a `folio_s_…` bearer (or the session cookie's value) is
 * looked up as a member's session, anything else goes to the API-token verifier. Like tokens,
 * sessions are cached for at most `ttlMs` (≤ 5 s), so a revocation reaches every instance within
 * that time even if the bus message is lost; the `session-revoked` message evicts at once, and
 * `member-changed` drops every session of a member whose role changed or membership ended.
 */
export function withSessions(tokens: TokenVerifier, deps: { db: Db; bus: EventBus; ttlMs: number }): SessionAwareVerifier {
  const cache = new LRUCache<string, TokenIdentity>({ max: 50_000, ttl: Math.max(1, deps.ttlMs) });
  deps.bus.subscribe('session-revoked', ({ hash }) => cache.delete(hash));
  const evictMemberSessions = (orgId: string, personId: string): void => {
    for (const [key, identity] of cache.entries()) {
      if (identity.orgId === orgId && identity.member?.id === personId) cache.delete(key);
    }
  };
  deps.bus.subscribe('member-changed', ({ orgId, personId }) => evictMemberSessions(orgId, personId));

  const lookup = async (token: string): Promise<TokenIdentity> => {
    if (!isWellFormedSessionToken(token)) throw invalidToken('The session token is malformed.');
    const hash = hashSecret(token);
    const key = hash.toString('hex');
    const cached = deps.ttlMs > 0 ? cache.get(key) : undefined;
    if (cached) return cached;
    const found = await findActiveSession(deps.db, hash);
    if (!found) throw invalidToken('The session is unknown, expired or revoked; sign in again.');
    if (deps.ttlMs > 0) cache.set(key, found);
    return found;
  };

  return {
    verify: (token, client) => (isSessionToken(token) ? lookup(token) : tokens.verify(token, client)),
    evict: (hash) => tokens.evict(hash),
    evictMember: (orgId, personId) => {
      evictMemberSessions(orgId, personId);
      tokens.evictMember(orgId, personId);
    },
    evictSession: (hash) => cache.delete(hash.toString('hex')),
    stats: tokens.stats,
  };
}
