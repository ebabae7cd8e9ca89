import type { AnalyticsStore } from '../adapters/clickhouse/index.js';
import { HUMANS, windowSql, type Scope } from './window-sql.js';

export interface EntryTrafficRow {
  entryId: string;
  requests: number;
  bytes: number;
  visitors: number;
}

/**
 * Requests, bytes and unique visitors per entry over a window (bots left out on request), most
 * requested first: whole days and hours from the entry rollups, the raw rows at the window's
 * ends. Visitor states cannot be taken away, so no hour is subtracted from a day. `entryIds`
 * limits it to those entries; `limit` to the first rows.
 */
export async function queryEntryTraffic(
  store: AnalyticsStore,
  scope: Scope,
  options: { entryIds?: readonly string[]; limit?: number } = {},
): Promise<EntryTrafficRow[]> {
  const w = windowSql(scope, { days: true, subtract: false });
  const params = { ...w.params, ids: options.entryIds ? [...options.entryIds] : [], limit: options.limit ?? 1_000_000 };
  const only = `${scope.excludeBots ? HUMANS : ''}${options.entryIds ? ' AND entry_id IN {ids:Array(String)}' : ''}`;
  const parts: string[] = [];
  if (w.days) parts.push(`SELECT entry_id, toUInt64(requests) AS requests, toUInt64(bytes) AS bytes, visitors FROM cdn_entries_daily WHERE ${w.days}${only}`);
  if (w.hours) parts.push(`SELECT entry_id, toUInt64(requests) AS requests, toUInt64(bytes) AS bytes, visitors FROM cdn_entries_hourly WHERE ${w.hours}${only}`);
  if (w.raw) {
    parts.push(`SELECT entry_id, toUInt64(count()) AS requests, toUInt64(sum(bytes)) AS bytes, uniqStateIf(visitor, visitor != 0) AS visitors
      FROM cdn_logs WHERE ${w.raw}${only} AND entry_id != '' GROUP BY entry_id`);
  }
  if (parts.length === 0) return [];
  return store.query<EntryTrafficRow>(
    `SELECT entry_id AS entryId, toInt64(sum(requests)) AS requests, toInt64(sum(bytes)) AS bytes, toInt64(uniqMerge(visitors)) AS visitors
     FROM (${parts.join(' UNION ALL ')}) GROUP BY entry_id
     ORDER BY requests DESC, entryId LIMIT {limit:UInt32}`,
    params,
  );
}
