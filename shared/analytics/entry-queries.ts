import type { AnalyticsStore } from '../adapters/clickhouse/index.js';
import { HUMANS, tenantSql, windowSql, type Scope } from './window-sql.js';

export interface EntryTrafficRow {
  entryId: string;
  requests: number;
  bytes: number;
  visitors: number;
}

/**
 * Requests, bytes and unique visitors per entry over a window (bots left out on request), most
 * requested first: whole days and hours from the entry rollups, the raw rows at the window's
 * ends. Visitor states cannot be taken away, so no hour is subtracted from a day; a visitor key
 * is one UTC day's, so an entry's visitors are the sum of its days' and states are merged within
 * a day only. `entryIds` limits it to those entries; `limit` to the first rows; `visitors:
 * false` leaves visitors 0; `wholeDays: false` leaves the window's whole days out (see
 * `queryEntryDays`, which reads them apart).
 */
export async function queryEntryTraffic(
  store: AnalyticsStore,
  scope: Scope,
  options: { entryIds?: readonly string[]; limit?: number; visitors?: boolean; wholeDays?: boolean } = {},
): Promise<EntryTrafficRow[]> {
  return (await entryTraffic(store, scope, options, false)).rows;
}

/**
 * The `limit` most requested entries (visitors left 0) and the requests and bytes of every entry
 * in the window, summed by the engine: the entries report lists a few of thousands, and sending
 * them all to be summed here took 4 ms at 5,000 entries.
 */
export async function queryEntryTop(store: AnalyticsStore, scope: Scope, limit: number): Promise<{ rows: EntryTrafficRow[]; requests: number; bytes: number }> {
  return entryTraffic(store, scope, { limit, visitors: false }, true);
}

async function entryTraffic(
  store: AnalyticsStore,
  scope: Scope,
  options: { entryIds?: readonly string[]; limit?: number; visitors?: boolean; wholeDays?: boolean },
  totals: boolean,
): Promise<{ rows: EntryTrafficRow[]; requests: number; bytes: number }> {
  const w = windowSql(scope, { days: true, subtract: false });
  const params = { ...w.params, ids: options.entryIds ? [...options.entryIds] : [], limit: options.limit ?? 1_000_000 };
  const only = `${scope.excludeBots ? HUMANS : ''}${options.entryIds ? ' AND entry_id IN {ids:Array(String)}' : ''}`;
  // merging visitor states is most of the cost: left out when only requests are wanted
  const states = options.visitors !== false;
  const state = states ? ', visitors' : '';
  const parts: string[] = [];
  if (w.days && options.wholeDays !== false) parts.push(`SELECT entry_id, day, toUInt64(requests) AS requests, toUInt64(bytes) AS bytes${state} FROM cdn_entries_daily WHERE ${w.days}${only}`);
  if (w.hours) parts.push(`SELECT entry_id, toDate(hour) AS day, toUInt64(requests) AS requests, toUInt64(bytes) AS bytes${state} FROM cdn_entries_hourly WHERE ${w.hours}${only}`);
  if (w.raw) {
    parts.push(`SELECT entry_id, toDate(timestamp) AS day, toUInt64(count()) AS requests, toUInt64(sum(bytes)) AS bytes${states ? ', uniqStateIf(visitor, visitor != 0) AS visitors' : ''}
      FROM cdn_logs WHERE ${w.raw}${only} AND entry_id != '' GROUP BY entry_id, day`);
  }
  if (parts.length === 0) return { rows: [], requests: 0, bytes: 0 };
  const union = parts.join(' UNION ALL ');
  const sums = states
    ? `SELECT entry_id AS entryId, toInt64(sum(requests)) AS requests, toInt64(sum(bytes)) AS bytes, toInt64(sum(v)) AS visitors
       FROM (SELECT entry_id, sum(requests) AS requests, sum(bytes) AS bytes, uniqMerge(visitors) AS v FROM (${union}) GROUP BY entry_id, day)
       GROUP BY entry_id`
    : `SELECT entry_id AS entryId, toInt64(sum(requests)) AS requests, toInt64(sum(bytes)) AS bytes, toInt64(0) AS visitors FROM (${union}) GROUP BY entry_id`;
  const order = 'ORDER BY requests DESC, entryId LIMIT {limit:UInt32}';
  const rows = await store.query<EntryTrafficRow & { allRequests?: number; allBytes?: number }>(
    // a window function is computed before the LIMIT: over every entry
    totals ? `SELECT *, sum(requests) OVER () AS allRequests, sum(bytes) OVER () AS allBytes FROM (${sums}) ${order}` : `${sums} ${order}`,
    params,
  );
  return {
    rows: rows.map(({ entryId, requests, bytes, visitors }) => ({ entryId, requests, bytes, visitors })),
    requests: rows[0]?.allRequests ?? 0,
    bytes: rows[0]?.allBytes ?? 0,
  };
}

export interface EntryDayRow {
  entryId: string;
  /** YYYY-MM-DD (UTC). */
  day: string;
  requests: number;
  bytes: number;
  visitors: number;
}

/**
 * Requests, bytes and (with `visitors`) unique visitors of each of `entryIds` on each of the
 * whole UTC `days` (YYYY-MM-DD) it had traffic, from the daily rollup. The figures of a row come
 * from one rollup row set: its requests change whenever its visitors may have.
 */
export async function queryEntryDays(
  store: AnalyticsStore,
  scope: Pick<Scope, 'orgId' | 'distributionId' | 'excludeBots'>,
  entryIds: readonly string[],
  days: readonly string[],
  options: { visitors: boolean },
): Promise<EntryDayRow[]> {
  if (entryIds.length === 0 || days.length === 0) return [];
  const { tenant, params } = tenantSql(scope);
  return store.query<EntryDayRow>(
    // qualified: `day` alone would be the alias, the day as text
    `SELECT entry_id AS entryId, toString(cdn_entries_daily.day) AS day, toInt64(sum(requests)) AS requests, toInt64(sum(bytes)) AS bytes,
       ${options.visitors ? 'toInt64(uniqMerge(visitors))' : 'toInt64(0)'} AS visitors
     FROM cdn_entries_daily
     WHERE ${tenant} AND entry_id IN {ids:Array(String)} AND cdn_entries_daily.day IN {days:Array(Date)}${scope.excludeBots ? HUMANS : ''}
     GROUP BY entry_id, cdn_entries_daily.day`,
    { ...params, ids: [...entryIds], days: [...days] },
  );
}
