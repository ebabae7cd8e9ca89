import { describe, expect, it } from 'vitest';
import { isAppError } from '../../errors/index.js';
import { createLogger } from '../../logger.js';
import { createDeferredAnalyticsStore } from './deferred.js';
import type { AnalyticsStore } from './analytics-store.js';

const connected: AnalyticsStore = {
  kind: 'clickhouse',
  query: async <T>() => [{ n: 1 }] as T[],
  command: async () => {},
  insertJsonEachRow: async () => {},
  ping: async () => {},
  close: async () => {},
};

function capture() {
  const lines: Array<{ level: number; msg: string }> = [];
  const logger = createLogger('info', { write: (line: string) => void lines.push(JSON.parse(line)) });
  return { lines, logger };
}

describe('createDeferredAnalyticsStore', () => {
  it('answers 503 naming the reason until connect succeeds, retrying with backoff, then delegates', async () => {
    const { lines, logger } = capture();
    let attempts = 0;
    const store = createDeferredAnalyticsStore(
      'clickhouse',
      async () => {
        attempts++;
        if (attempts < 3) throw new Error('ClickHouse at 127.0.0.1:9: connect ECONNREFUSED 127.0.0.1:9');
        return connected;
      },
      { logger, firstRetryMs: 20 },
    );
    const refused = await store.query('SELECT 1').catch((err: unknown) => err);
    expect(isAppError(refused) && refused.status).toBe(503);
    expect((refused as Error).message).toBe('Analytics is unavailable: ClickHouse at 127.0.0.1:9: connect ECONNREFUSED 127.0.0.1:9.');
    await store.ready;
    expect(attempts).toBe(3);
    expect(await store.query('SELECT 1')).toEqual([{ n: 1 }]);
    // one line for the reason (it did not change between the failed attempts), one for the recovery
    expect(lines.map((l) => l.msg)).toEqual([
      'analytics unavailable: ClickHouse at 127.0.0.1:9: connect ECONNREFUSED 127.0.0.1:9 (retrying with backoff; content delivery is not affected)',
      'analytics store connected',
    ]);
    await store.close();
  });

  it('stops retrying when closed', async () => {
    let attempts = 0;
    const store = createDeferredAnalyticsStore('clickhouse', async () => {
      attempts++;
      throw new Error('down');
    }, { firstRetryMs: 20 });
    await new Promise((r) => setTimeout(r, 30));
    await store.close();
    const after = attempts;
    await new Promise((r) => setTimeout(r, 200));
    expect(attempts).toBe(after);
  });
});
