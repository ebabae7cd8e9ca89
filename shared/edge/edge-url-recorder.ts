import { LRUCache } from 'lru-cache';
import type { Queryable } from '../adapters/db/index.js';
import type { Logger } from '../logger.js';
import { upsertEdgeUrls } from './edge-url-repository.js';

/**
 * Remembers which publicly cacheable URLs were served with which surrogate keys, so a generic
 * purge target (a plain HTTP cache such as nginx, which forgets one URL at a time) can be sent
 * the URLs to purge. Off the request path: URLs are written in batches every `flushMs`; a URL
 * served again with the same keys is written again only after `refreshMs`, keeping its row fresh
 * while it is in use (rows not refreshed for 400 days are swept). One per process, made in Services.
 */
export interface EdgeUrlRecorder {
  record(orgId: string, url: string, keys: readonly string[]): void;
  /** Writes what is waiting now (tests, shutdown). */
  flush(): Promise<void>;
  close(): Promise<void>;
}

export function createEdgeUrlRecorder(db: Queryable, logger: Logger, options: { flushMs?: number; refreshMs?: number } = {}): EdgeUrlRecorder {
  const written = new LRUCache<string, string>({ max: 50_000, ttl: options.refreshMs ?? 60_000 });
  let pending = new Map<string, { orgId: string; url: string; keys: readonly string[] }>();
  let flushing: Promise<void> = Promise.resolve();
  const flush = () => {
    if (pending.size === 0) return flushing;
    const batch = [...pending.values()];
    pending = new Map();
    flushing = flushing.then(() =>
      upsertEdgeUrls(db, batch).catch((err: unknown) => {
        for (const r of batch) written.delete(`${r.orgId}\0${r.url}`);
        logger.warn({ err, urls: batch.length }, 'recording cacheable URLs for purging failed; a later request records them');
      }),
    );
    return flushing;
  };
  const timer = setInterval(() => void flush(), options.flushMs ?? 250);
  timer.unref();
  return {
    record(orgId, url, keys) {
      const id = `${orgId}\0${url}`;
      const joined = keys.join(' ');
      if (written.get(id) === joined) return;
      written.set(id, joined);
      if (pending.size < 10_000) pending.set(id, { orgId, url, keys });
    },
    flush,
    async close() {
      clearInterval(timer);
      await flush();
    },
  };
}
