

export interface RateDecision {
  allowed: boolean;
  /** Bucket size. */
  limit: number;
  /** Whole tokens left after this call. */
  remaining: number;
  /** Seconds until the bucket is full again. */
  resetSeconds: number;
  /** Seconds until one token is available (0 when allowed). */
  retryAfterSeconds: number;
}

/** The `RateLimit-*` response headers of a decision (IETF draft names), for REST and GraphQL alike. */
export function rateLimitHeaders(d: RateDecision): Record<'RateLimit-Limit' | 'RateLimit-Remaining' | 'RateLimit-Reset', string> {
  return { 'RateLimit-Limit': String(d.limit), 'RateLimit-Remaining': String(d.remaining), 'RateLimit-Reset': String(d.resetSeconds) };
}

/**
 * Per-token rate limit as a token bucket: `burst` tokens, refilled at `perSecond`. Redis-backed
 * when REDIS_URL is set (shared by every instance), in memory otherwise.
 */
export interface RateLimiter {
  /** Takes `cost` from the key's bucket; `bucket` replaces the limiter's own size and rate for this key. */
  consume(key: string, cost?: number, bucket?: BucketOptions): Promise<RateDecision>;
  /**
   * Work in flight under `key`: holds `cost` while the total held stays within `limit` — or when
   * nothing is held, so one piece of work larger than the limit still runs, alone. A hold ends
   * with `release()`, or after `ttlMs` (a process that died holding it). Null when refused.
   */
  hold(key: string, cost: number, limit: number, ttlMs: number): Promise<Hold | null>;
  close(): Promise<void>;
}

export interface Hold {
  release(): Promise<void>;
}

export interface BucketOptions {
  perSecond: number;
  burst: number;
}

export function decide(tokensAfterRefill: number, cost: number, bucket: BucketOptions): RateDecision & { tokens: number } {
  const allowed = tokensAfterRefill >= cost;
  const tokens = allowed ? tokensAfterRefill - cost : tokensAfterRefill;
  return {
    allowed,
    tokens,
    limit: bucket.burst,
    remaining: Math.floor(tokens),
    resetSeconds: Math.ceil((bucket.burst - tokens) / bucket.perSecond),
    retryAfterSeconds: allowed ? 0 : Math.max(1, Math.ceil((cost - tokens) / bucket.perSecond)),
  };
}
