import { mkdir } from 'node:fs/promises';
import { createClient } from '@clickhouse/client';
import { createChdbConnection } from 'chdb/connection';
import { clientStore, insertSettings } from './client-store.js';
import type { AnalyticsStore } from './analytics-store.js';
import { inlineParams } from './inline-params.js';

/** Connections that answer queries; one more takes the writes. */
const READERS = 3;

/**
 * The embedded store: chDB (the ClickHouse engine in-process) in `path`, driven through the same
 * `@clickhouse/client` as the server. Inserts take chDB's raw path: the bytes go to the engine
 * untouched and its parallel parser reads them (about four times the client's stream insert).
 * chDB ignores the client's `database` option, so tables live in its `default` database.
 *
 * A chDB connection runs one statement at a time, and chDB binds parameters behind one
 * process-wide lock; so that one tenant's slow report holds up neither another's nor the
 * ingest, statements go with their parameters written in as literals, queries to the least busy
 * of a few connections to the same data, and inserts and DDL to a connection of their own.
 */
export async function createChdbStore(options: { path: string }): Promise<AnalyticsStore> {
  await mkdir(options.path, { recursive: true });
  const open = () => {
    const connection = createChdbConnection({ path: options.path });
    // chdb bundles its own copy of @clickhouse/client-common: same contract, distinct types
    const client = createClient({ connection: connection as unknown as NonNullable<Parameters<typeof createClient>[0]>['connection'] });
    return { connection, client };
  };
  const writer = open();
  const writes = clientStore('chdb', writer.client, {
    async insert(table, rows, o) {
      const settings = insertSettings(o.dedupToken) as Record<string, string | number | boolean>;
      await writer.connection.chdb.rawInsert({ table, columns: o.columns, values: rows, format: o.format ?? 'JSONEachRow', settings });
    },
  });
  const readers = Array.from({ length: READERS }, () => ({ store: clientStore('chdb', open().client), running: 0 }));
  return {
    kind: 'chdb',
    async query<T>(sql: string, params?: Parameters<AnalyticsStore['query']>[1]): Promise<T[]> {
      const text = inlineParams(sql, params);
      const reader = readers.reduce((a, b) => (b.running < a.running ? b : a));
      reader.running++;
      try {
        return await reader.store.query<T>(text);
      } finally {
        reader.running--;
      }
    },
    command: (sql, params) => writes.command(inlineParams(sql, params)),
    insertJsonEachRow: writes.insertJsonEachRow,
    ping: () => writes.ping(),
    async close() {
      await Promise.all(readers.map((r) => r.store.close()));
      await writes.close();
    },
  };
}
