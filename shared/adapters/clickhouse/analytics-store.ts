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

