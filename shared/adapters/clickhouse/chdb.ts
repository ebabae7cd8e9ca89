import { mkdir } from 'node:fs/promises';
import { createClient } from '@clickhouse/client';
import { createChdbConnection } from 'chdb/connection';
import { clientStore, insertSettings } from './client-store.js';
import type { AnalyticsStore } from './index.js';

/**
 * The embedded store: chDB (the ClickHouse engine in-process) in `path`, driven through the same
 * `@clickhouse/client` as the server. Inserts take chDB's raw path: the bytes go to the engine
 * untouched and its parallel parser reads them (about four times the client's stream insert).
 * chDB ignores the client's `database` option, so tables live in its `default` database.
 */
export async function createChdbStore(options: { path: string }): Promise<AnalyticsStore> {
  await mkdir(options.path, { recursive: true });
  const connection = createChdbConnection({ path: options.path });
  // chdb bundles its own copy of @clickhouse/client-common: same contract, distinct types
  const client = createClient({ connection: connection as unknown as NonNullable<Parameters<typeof createClient>[0]>['connection'] });
  return clientStore('chdb', client, {
    async insert(table, rows, o) {
      const settings = insertSettings(o.dedupToken) as Record<string, string | number | boolean>;
      await connection.chdb.rawInsert({ table, columns: o.columns, values: rows, format: o.format ?? 'JSONEachRow', settings });
    },
  });
}
