import type { Queryable } from '../adapters/db/index.js';
import { LRUCache } from 'lru-cache';

/** A token's `lastUsedAt` is written at most this often per token and instance. */
export const TOKEN_USAGE_RESOLUTION_MS = 60_000;

/** How often the uses noted are written, in one statement for every token. */
const FLUSH_EVERY_MS = 10_000;

/**
 * Records when tokens were last used without a write per request: `touch` notes the time in
 * memory when this instance has not noted the token within the last minute, and the notes are
 * written every few seconds as one UPDATE for all of them (and at `close`). A busy token costs
 * one row update a minute per instance; the column is then at most about a minute behind.
 */
export interface TokenUsage {
  touch(tokenId: string): void;
  /** Writes what is noted now (tests, shutdown). */
  flush(): Promise<void>;
  close(): Promise<void>;
}

export function createTokenUsage(db: Queryable, onError: (err: unknown) => void): TokenUsage {
  /** Tokens noted within the resolution: a later use within it writes nothing. */
  const noted = new LRUCache<string, true>({ max: 100_000, ttl: TOKEN_USAGE_RESOLUTION_MS });
  let pending = new Map<string, Date>();
  let running: Promise<void> = Promise.resolve();

  const write = async (batch: Map<string, Date>) => {
    if (batch.size === 0) return;
    await db.query(
      `UPDATE tokens t SET last_used_at = greatest(t.last_used_at, u.at)
       FROM unnest($1::text[], $2::timestamptz[]) AS u(id, at) WHERE t.id = u.id`,
      [[...batch.keys()], [...batch.values()]],
      { background: true },
    );
  };
  const flush = () => {
    const batch = pending;
    pending = new Map();
    running = running.then(() => write(batch)).catch(onError);
    return running;
  };
  const timer = setInterval(() => void flush(), FLUSH_EVERY_MS);
  timer.unref();

  return {
    touch(tokenId) {
      if (noted.has(tokenId)) return;
      noted.set(tokenId, true);
      pending.set(tokenId, new Date());
    },
    flush,
    async close() {
      clearInterval(timer);
      await flush();
    },
  };
}
