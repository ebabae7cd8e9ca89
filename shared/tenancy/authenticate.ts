import { LRUCache } from 'lru-cache';
import type { EventBus } from '../adapters/bus/index.js';
import type { Db } from '../adapters/db/index.js';
import { invalidToken, isAppError, rateLimited, unauthenticated, type AppError } from '../errors/index.js';
import { rateLimitHeaders, type BucketOptions, type RateLimiter } from '../adapters/rate-limit/index.js';
import { checkCallerOrigin, type CallerOrigin } from './allowed-origins.js';
import type { TokenIdentity } from './context.js';
import { checkTokenFormat, hashToken, isPublishableKey } from './token-format.js';
import { findActiveToken, type FoundToken } from './token-repository.js';
import type { Suspensions } from './suspensions.js';
import type { TokenUsage } from './token-usage.js';
import type { UsageMeter } from './usage-meter.js';

export interface TokenVerifier {
  /**
   * Resolves a plain token to its identity, or throws a 401 AppError — or a 429 once `client`
   * (the caller's address) has failed too often.
   */
  verify(token: string, client?: string): Promise<TokenIdentity>;
  /** Drops a revoked token from this instance's cache at once (and from others' via the bus). */
  evict(hash: Buffer): void;
  /**
   * Drops every cached token acting as the member in the organization (personal access tokens
   * carry the membership's role): after a role change or the membership's end.
   */
  evictMember(orgId: string, personId: string): void;
  /** Tokens whose format was checked and hash computed (once per token while it is remembered). */
  readonly stats: { hashed: number };
}

/**
 * Token lookups are cached for at most `ttlMs` (≤ 5 s), so a revocation reaches every instance
 * within that time even if the bus message is lost; the revoking instance evicts at once.
 *
 * Failed authentications are counted per client address in `failures` (a token bucket shared by
 * the instances through the rate limiter's store; by default 30 at once, then 30 a minute). Past
 * that, a token from the address that does not verify answers 429 with Retry-After instead of
 * 401 until the bucket has refilled, so guessing stops there; a token that verifies always
 * passes: users behind one NAT or proxy share an address, and one of them (or an attacker)
 * sending bad tokens must not lock the others out. A malformed token or one with a bad checksum
 * is refused before any lookup, so a flood of guesses costs a lookup only for tokens made with
 * a valid checksum, each one indexed lookup.
 */
export function createTokenVerifier(deps: {
  db: Db;
  bus: EventBus;
  ttlMs: number;
  rateLimiter: RateLimiter;
  failures: BucketOptions;
  /** Notes each verified token's use (`lastUsedAt`). */
  usage?: TokenUsage;
}): TokenVerifier {
  const cache = new LRUCache<string, FoundToken>({ max: 50_000, ttl: Math.max(1, deps.ttlMs) });
  /** Addresses whose failure bucket ran dry, and until when (ms) they are refused. */
  const refusedUntil = new LRUCache<string, number>({ max: 100_000 });
  deps.bus.subscribe('token-revoked', ({ hash }) => cache.delete(hash));
  const evictMember = (orgId: string, personId: string): void => {
    // a walk over the cache (≤ 50,000 entries) once per role change or removal: rare, and it keeps
    // the lookup path free of a second index
    for (const [key, found] of cache.entries()) {
      if (found.identity.orgId === orgId && found.identity.member?.id === personId) cache.delete(key);
    }
  };
  deps.bus.subscribe('member-changed', ({ orgId, personId }) => evictMember(orgId, personId));
  const stats = { hashed: 0 };
  // The cache key (SHA-256, hex) of each well-formed token seen lately: checking a token's format
  // and hashing it is work per token, not per request (a site sends the same key with every
  // page), and was a twentieth of a cached GraphQL answer's CPU. Malformed tokens are not kept.
  const keys = new LRUCache<string, string>({ max: 10_000 });

  const tooManyFailures = (until: number) =>
    rateLimited(Math.max(1, Math.ceil((until - Date.now()) / 1000)), 'Too many failed authentications from this address; retry later.');
  /** Counts a failure of `client`; the error to answer instead of the 401 once it has failed too often. */
  const failed = async (client: string): Promise<AppError | null> => {
    const decision = await deps.rateLimiter.consume(`auth-failures:${client}`, 1, deps.failures).catch(() => null);
    if (!decision || decision.allowed) return null;
    const until = Date.now() + decision.retryAfterSeconds * 1000;
    refusedUntil.set(client, until);
    return tooManyFailures(until);
  };

  const keyOf = (token: string): string => {
    let key = keys.get(token);
    if (key !== undefined) return key;
    const format = checkTokenFormat(token);
    if (format === 'malformed') throw invalidToken('The access token is malformed.');
    if (format === 'bad-checksum') throw invalidToken('The access token has a bad checksum (mistyped or truncated).');
    stats.hashed++;
    key = hashToken(token).toString('hex');
    keys.set(token, key);
    return key;
  };

  const lookup = async (token: string): Promise<TokenIdentity> => {
    const key = keyOf(token);
    let found = deps.ttlMs > 0 ? cache.get(key) : undefined;
    if (!found) {
      found = (await findActiveToken(deps.db, Buffer.from(key, 'hex'))) ?? undefined;
      if (!found) throw invalidToken('The access token is unknown or revoked.');
      if (deps.ttlMs > 0) cache.set(key, found);
    }
    // checked on every use, cached or not: a token stops at its expiry to the millisecond
    if (found.expiresAt && found.expiresAt.getTime() <= Date.now()) throw expired(found);
    deps.usage?.touch(found.identity.tokenId);
    return found.identity;
  };

  return {
    async verify(token, client) {
      if (client === undefined) return lookup(token);
      const until = refusedUntil.get(client);
      const refused = until !== undefined && until > Date.now();
      try {
        return await lookup(token);
      } catch (err) {
        if (!isAppError(err) || err.status !== 401) throw err;
        // a refused address is not counted again: its bucket is dry until `until`
        if (refused) throw tooManyFailures(until);
        throw (await failed(client)) ?? err;
      }
    },
    evict(hash) {
      cache.delete(hash.toString('hex'));
    },
    evictMember,
    stats,
  };
}

/** The 401 of an expired token, saying when — and, for a rotated one, that it was replaced. */
function expired(found: FoundToken): AppError {
  const at = found.expiresAt!.toISOString();
  return invalidToken(
    found.replacedBy
      ? `The access token expired at ${at}: it was rotated, and its replacement (token ${found.replacedBy}) is the one to use.`
      : `The access token expired at ${at}.`,
  );
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

/** Where a request's token came from: the Authorization header, or the URL (`access_token`). */
export interface Credential {
  token: string;
  inUrl: boolean;
}

/**
 * The token of a GraphQL request: the `access_token` query parameter when it is a publishable key
 * (`folio_pk_…`, made to be public: a CDN then caches one URL for every visitor), else the
 * Authorization header. A secret token in a URL would end up in logs and caches: refused (401).
 */
export function credentialOf(authorization: string | undefined, urlToken: string | null): Credential {
  if (urlToken !== null && urlToken !== '') {
    if (!isPublishableKey(urlToken)) throw invalidToken('Only a publishable key (folio_pk_…) may travel in the URL; send other tokens in the Authorization header.');
    return { token: urlToken, inUrl: true };
  }
  return { token: bearerTokenOf(authorization), inUrl: false };
}

/** A caller that passed authentication and took one unit of its token's rate limit. */
export interface Admitted {
  identity: TokenIdentity;
  /** `RateLimit-*` for the answer. */
  rateHeaders: Record<string, string>;
}

/**
 * The one authentication path of REST and GraphQL: verifies `token` (format and checksum, lookup,
 * cache, expiry, the failed-attempt limit of `client`, the caller's address), refuses a
 * suspended organization (403 with the reason), checks the page it comes from against the org's
 * allowed origins, then takes one unit of the token's rate limit. Throws a
 * 401 or 403 AppError, or a 429 with Retry-After — carrying the `RateLimit-*` headers when the
 * token's own limit ran out.
 */
export async function admitToken(
  services: { auth: TokenVerifier; rateLimiter: RateLimiter; suspensions: Suspensions; usageMeter?: UsageMeter },
  token: string,
  client?: string,
  caller?: CallerOrigin,
): Promise<Admitted> {
  const identity = await services.auth.verify(token, client);
  // a suspended organization: 403 with the operator's reason, before anything else of it runs
  const suspended = services.suspensions.refusal(identity.orgId);
  if (suspended) throw suspended;
  checkCallerOrigin(identity, caller);
  const rate = await services.rateLimiter.consume(identity.tokenId);
  const rateHeaders = rateLimitHeaders(rate);
  if (!rate.allowed) throw rateLimited(rate.retryAfterSeconds, undefined, rateHeaders);
  services.usageMeter?.count(identity.orgId, 'requests');
  return { identity, rateHeaders };
}
