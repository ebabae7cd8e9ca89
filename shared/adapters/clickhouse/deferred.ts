import { serviceUnavailable } from '../../errors/index.js';
import type { Logger } from '../../logger.js';
import type { AnalyticsStore } from './analytics-store.js';

const FIRST_RETRY_MS = 1_000;
const MAX_RETRY_MS = 60_000;
const RETRY_AFTER_SECONDS = 5;

export interface DeferredAnalyticsStore extends AnalyticsStore {
  /** Resolves once connected (tests, and callers that would rather wait). */
  readonly ready: Promise<void>;
}

/**
 * An analytics store that never holds the process back: content delivery does not need
 * ClickHouse, so the server starts at once and `connect` (reach the server, check its version,
 * migrate) is retried in the background with backoff (1 s, doubling, at most 60 s). Until it
 * succeeds every call fails with the catalogue's 503 naming the reason — analytics endpoints
 * answer 503 in the envelope, `/readyz` reports analytics down, spooled log batches wait — and
 * the reason is logged as one line each time it changes.
 */
export function createDeferredAnalyticsStore(
  kind: AnalyticsStore['kind'],
  connect: () => Promise<AnalyticsStore>,
  options: { logger?: Logger; firstRetryMs?: number } = {},
): DeferredAnalyticsStore {
  let store: AnalyticsStore | undefined;
  let reason = 'connecting';
  let closed = false;
  let timer: NodeJS.Timeout | undefined;
  let markReady: () => void = () => {};
  const ready = new Promise<void>((resolve) => (markReady = resolve));

  const attempt = async (delayMs: number): Promise<void> => {
    try {
      const connected = await connect();
      if (closed) return void (await connected.close());
      store = connected;
      if (reason !== 'connecting') options.logger?.info('analytics store connected');
      markReady();
    } catch (err) {
      const next = `${err instanceof Error ? err.message : String(err)}`.split('\n')[0];
      if (next !== reason) options.logger?.error(`analytics unavailable: ${next} (retrying with backoff; content delivery is not affected)`);
      reason = next;
      if (closed) return;
      timer = setTimeout(() => void attempt(Math.min(MAX_RETRY_MS, delayMs * 2)), delayMs);
      timer.unref();
    }
  };
  void attempt(options.firstRetryMs ?? FIRST_RETRY_MS);

  const current = (): AnalyticsStore => {
    if (store) return store;
    throw serviceUnavailable(`Analytics is unavailable: ${reason}.`, RETRY_AFTER_SECONDS);
  };
  return {
    kind,
    ready,
    query: (sql, params) => Promise.resolve().then(() => current().query(sql, params)),
    command: (sql, params) => Promise.resolve().then(() => current().command(sql, params)),
    insertJsonEachRow: (table, rows, o) => Promise.resolve().then(() => current().insertJsonEachRow(table, rows, o)),
    ping: () => Promise.resolve().then(() => current().ping()),
    async close() {
      closed = true;
      clearTimeout(timer);
      await store?.close();
    },
  };
}
