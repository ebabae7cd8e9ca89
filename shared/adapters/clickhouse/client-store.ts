import { Readable } from 'node:stream';
import type { ClickHouseClient, ClickHouseSettings } from '@clickhouse/client';
import type { AnalyticsStore, InsertOptions, QueryParams } from './analytics-store.js';

/**
 * Settings sent with every statement, never left to server defaults: a ClickHouse server quotes
 * 64-bit integers in JSON while chDB did not, and recent servers flipped `async_insert` on by
 * default (an async insert acknowledges before the data is durable and ignores our token).
 */
export const querySettings: ClickHouseSettings = {
  output_format_json_quote_64bit_integers: 0,
  date_time_output_format: 'iso',
};

/**
 * DDL and other commands: the same, and servers before 24.1 refuse to change a materialized
 * view's query (`ALTER TABLE <view> MODIFY QUERY`, in the migrations) without the setting below;
 * later ones accept it and ignore it.
 */
const commandSettings: ClickHouseSettings = { ...querySettings, allow_experimental_alter_materialized_view_structure: 1 };

export const insertSettings = (token: string): ClickHouseSettings => ({
  async_insert: 0,
  insert_deduplicate: 1,
  insert_deduplication_token: token,
  // without this the rollups of a retried batch would be counted twice
  deduplicate_blocks_in_dependent_materialized_views: 1,
  input_format_skip_unknown_fields: 1,
  // rows spooled before a column was added end early: the missing columns take their defaults
  input_format_tsv_allow_variable_number_of_columns: 1,
});

/** The shared part of both stores: everything goes through one `@clickhouse/client`. */
export function clientStore(
  kind: AnalyticsStore['kind'],
  client: ClickHouseClient,
  overrides: { insert?: AnalyticsStore['insertJsonEachRow']; close?: () => Promise<void> } = {},
): AnalyticsStore {
  return {
    kind,
    async query<T>(sql: string, params?: QueryParams): Promise<T[]> {
      const rs = await client.query({ query: sql, query_params: params, format: 'JSONEachRow', clickhouse_settings: querySettings });
      return rs.json<T>();
    },
    async command(sql: string, params?: QueryParams): Promise<void> {
      await client.command({ query: sql, query_params: params, clickhouse_settings: commandSettings });
    },
    insertJsonEachRow:
      overrides.insert ??
      (async (table: string, rows: Buffer, o: InsertOptions) => {
        const columns = o.columns ? ` (${o.columns.join(', ')})` : '';
        await client.exec({
          query: `INSERT INTO ${table}${columns} FORMAT ${o.format ?? 'JSONEachRow'}`,
          values: Readable.from([rows]),
          clickhouse_settings: insertSettings(o.dedupToken),
        });
      }),
    async ping(): Promise<void> {
      const res = await client.ping();
      if (!res.success) throw res.error;
    },
    close: overrides.close ?? (() => client.close()),
  };
}
