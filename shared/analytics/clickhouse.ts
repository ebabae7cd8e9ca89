import { createClient } from '@clickhouse/client';
import { clientStore } from './client-store.js';
import type { AnalyticsStore } from './index.js';

/** The production store: a ClickHouse server over HTTP (`CLICKHOUSE_URL`). */
export async function createClickHouseStore(options: { url: string; database: string }): Promise<AnalyticsStore> {
  const boot = createClient({ url: options.url });
  try {
    await boot.command({ query: `CREATE DATABASE IF NOT EXISTS ${quoteIdent(options.database)}` });
  } finally {
    await boot.close();
  }
  const client = createClient({ url: options.url, database: options.database, request_timeout: 60_000 });
  return clientStore('clickhouse', client);
}

function quoteIdent(name: string): string {
  if (!/^[A-Za-z_][A-Za-z0-9_]*$/.test(name)) throw new Error(`invalid ClickHouse database name: ${name}`);
  return name;
}
