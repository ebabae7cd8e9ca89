import { ClickHouseLogLevel, createClient, type ClickHouseClient } from '@clickhouse/client';
import { clientStore } from './client-store.js';
import type { AnalyticsStore } from './analytics-store.js';

/**
 * The oldest server Folio runs on: idempotent inserts need `insert_deduplication_token`
 * (ClickHouse 22.2); 22.8 is the long-term-support release after it. The suite itself runs the
 * chDB engine (ClickHouse 25).
 */
export const MIN_CLICKHOUSE_VERSION: readonly [number, number] = [22, 8];

/** The production store: a ClickHouse server over HTTP (`CLICKHOUSE_URL`). */
export async function createClickHouseStore(options: { url: string; database: string }): Promise<AnalyticsStore> {
  // Named by host only: the URL may carry a password.
  const where = `ClickHouse at ${new URL(options.url).host}`;
  // The client's own logger prints a block per failed request to stderr; every failure reaches
  // our callers (and our log) as an error already.
  const log = { level: ClickHouseLogLevel.OFF };
  const boot = createClient({ url: options.url, request_timeout: 10_000, log });
  try {
    await checkVersion(boot);
    await boot.command({ query: `CREATE DATABASE IF NOT EXISTS ${quoteIdent(options.database)}` });
  } catch (err) {
    throw new Error(`${where}: ${err instanceof Error ? err.message : String(err)}`, { cause: err });
  } finally {
    await boot.close();
  }
  const client = createClient({ url: options.url, database: options.database, request_timeout: 60_000, log });
  return clientStore('clickhouse', client);
}

async function checkVersion(client: ClickHouseClient): Promise<void> {
  const rows = await (await client.query({ query: 'SELECT version() AS version', format: 'JSONEachRow' })).json<{ version: string }>();
  const version = rows[0]?.version ?? '';
  const [major = 0, minor = 0] = version.split('.').map(Number);
  const [minMajor, minMinor] = MIN_CLICKHOUSE_VERSION;
  if (major < minMajor || (major === minMajor && minor < minMinor)) {
    throw new Error(`server version ${version || 'unknown'} is older than ${minMajor}.${minMinor}, the oldest Folio supports: upgrade it`);
  }
}

function quoteIdent(name: string): string {
  if (!/^[A-Za-z_][A-Za-z0-9_]*$/.test(name)) throw new Error(`invalid ClickHouse database name: ${name}`);
  return name;
}
