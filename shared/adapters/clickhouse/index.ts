import path from 'node:path';
import type { Config } from '../../config.js';
import type { Logger } from '../../logger.js';

/** Options for one idempotent insert. */
export interface InsertOptions {
  /**
   * ClickHouse `insert_deduplication_token`: an insert repeated with the same token (a retried
   * batch) is written once, in the raw table and in every materialized view it feeds.
   */
  dedupToken: string;
  /** JSONEachRow (one JSON object per line, the default) or TabSeparated (in `columns` order). */
  format?: 'JSONEachRow' | 'TabSeparated';
  /** Column names in the order of the rows' values; required for TabSeparated. */
  columns?: readonly string[];
}

export type QueryParams = Record<string, string | number | boolean | readonly string[]>;

/**
 * The analytics store: a ClickHouse server over HTTP in production, chDB (the same engine,
 * in-process) when embedded. Same SQL on both; both return 64-bit integers as JSON numbers.
 */
export interface AnalyticsStore {
  /** `none`: an API split from its workers with no shared server (see unshared.ts). */
  readonly kind: 'clickhouse' | 'chdb' | 'none';
  /** Runs `SELECT`s with `{name:Type}` placeholders bound server-side; rows as plain objects. */
  query<T>(sql: string, params?: QueryParams): Promise<T[]>;
  /** Runs DDL or another statement that returns nothing. */
  command(sql: string, params?: QueryParams): Promise<void>;
  /**
   * Inserts rows given as text, one row per line, idempotently. The name predates the
   * TabSeparated option (`options.format`), kept so existing wrappers keep compiling.
   */
  insertJsonEachRow(table: string, rows: Buffer, options: InsertOptions): Promise<void>;
  /** Throws when the store cannot answer (used by `/readyz`). */
  ping(): Promise<void>;
  close(): Promise<void>;
}

export interface AnalyticsStoreOptions {
  /** Days the raw log rows are kept (table TTL). */
  rawTtlDays: number;
}

type AnalyticsConfig = Pick<Config, 'clickhouseUrl' | 'clickhouseDatabase' | 'clickhouseRawTtlDays' | 'dataDir'>;

/**
 * Chooses the store from the configuration: `CLICKHOUSE_URL` set → ClickHouse server, otherwise
 * chDB in `<dataDir>/chdb`. Applies the ClickHouse migrations before returning. With
 * `background`, a ClickHouse server that cannot be reached (or is too old) does not fail the
 * start: the store connects in the background and answers 503 until then (see deferred.ts).
 */
export async function createAnalyticsStore(config: AnalyticsConfig, options: { logger?: Logger; background?: boolean } = {}): Promise<AnalyticsStore> {
  if (config.clickhouseUrl && options.background) {
    const { createDeferredAnalyticsStore } = await import('./deferred.js');
    return createDeferredAnalyticsStore('clickhouse', () => connectAnalyticsStore(config, options), options);
  }
  return connectAnalyticsStore(config, options);
}

async function connectAnalyticsStore(config: AnalyticsConfig, options: { logger?: Logger }): Promise<AnalyticsStore> {
  const { migrateClickHouse } = await import('./migrate.js');
  let store: AnalyticsStore;
  if (config.clickhouseUrl) {
    const { createClickHouseStore } = await import('./clickhouse.js');
    store = await createClickHouseStore({ url: config.clickhouseUrl, database: config.clickhouseDatabase });
  } else {
    const { createChdbStore } = await import('./chdb.js');
    store = await createChdbStore({ path: path.join(config.dataDir, 'chdb') });
  }
  try {
    const report = await migrateClickHouse(store, { rawTtlDays: config.clickhouseRawTtlDays });
    if (report.applied.length > 0) options.logger?.info({ applied: report.applied }, 'clickhouse migrations applied');
  } catch (err) {
    await store.close();
    throw err;
  }
  return store;
}
