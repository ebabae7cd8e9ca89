import { LRUCache } from 'lru-cache';
import type { Queryable } from '../adapters/db/index.js';
import type { Logger } from '../logger.js';
import { upsertEdgeUrls } from './edge-url-repository.js';
import { encodeVariant, type EdgeVariant } from './edge-variant.js';

/**
 * Remembers which publicly cacheable URLs were served with which surrogate keys, so a generic
 * purge target (a plain HTTP cache such as nginx, which forgets one URL at a time) can be sent
 * the URLs to purge — with the variants of each it served (see `edge-variant.ts`), one purge
 * request per stored copy. Off the request path: URLs are written in batches every `flushMs`; a
 * URL served again with the same keys and variant is written again only after `refreshMs`,
 * keeping its row fresh while it is in use (rows not refreshed for 400 days are swept). One per
 * process, made in Services.
 */
export interface EdgeUrlRecorder {
  /** `variant`: which copy of the URL a cache keeps for this request (null: none to record). */
  record(orgId: string, url: string, keys: readonly string[], variant: EdgeVariant | null): void;
  /** Writes what is waiting now (tests, shutdown, a purge by URL). */
  flush(): Promise<void>;
  close(): Promise<void>;
}

/** How often each process writes the URLs it served (`flush`). */
export const EDGE_URL_FLUSH_MS = 250;

/**
 * How long after a change every URL served before it is written, by any process: its next flush
 * plus the time that batch takes to write. A `{path}` purge reads the URLs no earlier.
 */
export const EDGE_URLS_RECORDED_WITHIN_MS = EDGE_URL_FLUSH_MS + 250;

interface Pending {
  orgId: string;
  url: string;
  keys: readonly string[];
  variants: Map<string, EdgeVariant>;
}

export function createEdgeUrlRecorder(db: Queryable, logger: Logger, options: { flushMs?: number; refreshMs?: number } = {}): EdgeUrlRecorder {
  // what was written, by URL and variant: its keys
  const written = new LRUCache<string, string>({ max: 50_000, ttl: options.refreshMs ?? 60_000 });
  // one row per URL (a statement may touch a row once), with the variants served since the last flush
  let pending = new Map<string, Pending>();
  let flushing: Promise<void> = Promise.resolve();
  const flush = () => {
    if (pending.size === 0) return flushing;
    const batch = [...pending.values()];
    pending = new Map();
    flushing = flushing.then(() =>
      upsertEdgeUrls(db, batch.map((p) => ({ orgId: p.orgId, url: p.url, keys: p.keys, variants: [...p.variants.values()] }))).catch((err: unknown) => {
        for (const p of batch) for (const v of p.variants.keys()) written.delete(`${p.orgId}\0${p.url}\0${v}`);
        logger.warn({ err, urls: batch.length }, 'recording cacheable URLs for purging failed; a later request records them');
      }),
    );
    return flushing;
  };
  const timer = setInterval(() => void flush(), options.flushMs ?? EDGE_URL_FLUSH_MS);
  timer.unref();
  return {
    record(orgId, url, keys, variant) {
      const encoded = variant ? encodeVariant(variant) : '';
      const id = `${orgId}\0${url}\0${encoded}`;
      const joined = keys.join(' ');
      if (written.get(id) === joined) return;
      written.set(id, joined);
      const urlId = `${orgId}\0${url}`;
      let row = pending.get(urlId);
      if (!row) {
        if (pending.size >= 10_000) return;
        pending.set(urlId, (row = { orgId, url, keys, variants: new Map() }));
      }
      row.keys = keys;
      if (variant) row.variants.set(encoded, variant);
    },
    flush,
    async close() {
      clearInterval(timer);
      await flush();
    },
  };
}
