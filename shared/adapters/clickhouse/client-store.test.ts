import { mkdtemp, rm } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { createClient } from '@clickhouse/client';
import { createChdbConnection } from 'chdb/connection';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { clientStore } from './client-store.js';
import type { AnalyticsStore } from './analytics-store.js';
import { migrateClickHouse } from './migrate.js';

// The ClickHouse-server store is `clientStore` over an HTTP client. No server runs here, so the
// same code is driven over chDB's connection instead, without chDB's raw insert override: the
// statements, settings and `client.exec` insert stream are exactly what a server receives.
describe('client store (the ClickHouse server code path)', () => {
  let dir: string;
  let store: AnalyticsStore;

  beforeAll(async () => {
    dir = await mkdtemp(path.join(os.tmpdir(), 'folio-ch-client-'));
    const connection = createChdbConnection({ path: dir });
    const client = createClient({ connection: connection as unknown as NonNullable<Parameters<typeof createClient>[0]>['connection'] });
    store = clientStore('clickhouse', client);
    await migrateClickHouse(store, { rawTtlDays: 30 });
  });
  afterAll(async () => {
    await store?.close();
    await rm(dir, { recursive: true, force: true });
  });

  it('inserts JSONEachRow and TabSeparated through client.exec, deduplicated by token', async () => {
    const now = Date.now() - 3_600_000;
    const json = Buffer.from(JSON.stringify({ org_id: 'o', distribution_id: 'd', timestamp: now, path: '/a', status: 200 }) + '\n');
    await store.insertJsonEachRow('cdn_logs', json, { dedupToken: 'j1' });
    await store.insertJsonEachRow('cdn_logs', json, { dedupToken: 'j1' });
    const tsv = Buffer.from(`o\td\t${now}\t/b\t404\n`);
    const columns = ['org_id', 'distribution_id', 'timestamp', 'path', 'status'];
    await store.insertJsonEachRow('cdn_logs', tsv, { dedupToken: 't1', format: 'TabSeparated', columns });
    await store.insertJsonEachRow('cdn_logs', tsv, { dedupToken: 't1', format: 'TabSeparated', columns });
    const rows = await store.query<{ path: string; status: number; n: number }>(
      `SELECT path, status, count() AS n FROM cdn_logs WHERE org_id = {org:String} GROUP BY path, status ORDER BY path`,
      { org: 'o' },
    );
    expect(rows).toEqual([
      { path: '/a', status: 200, n: 1 },
      { path: '/b', status: 404, n: 1 },
    ]);
    const [totals] = await store.query<{ n: number }>(`SELECT sum(requests) AS n FROM cdn_totals_hourly WHERE org_id = 'o'`);
    expect(totals.n).toBe(2);
  });
});
