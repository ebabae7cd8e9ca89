import type { AnalyticsStore, QueryParams } from '../adapters/clickhouse/index.js';
import type { DayCount, DayVisitors } from './day-visitors.js';
import type { Interval } from './range.js';
import { wholeDays } from './split-range.js';
import { HUMANS, minuteWindowSql, tenantSql, windowSql, type Scope, type WindowSql } from './window-sql.js';

/**
 * Figures over time: totals per interval, serve-time percentiles and unique visitors, status
 * codes, bot totals, and the last minutes for the real-time report.
 */

const BUCKET_SQL: Record<Interval, string> = {
  minute: 'toUnixTimestamp(toStartOfMinute(t))',
  hour: 'toUnixTimestamp(toStartOfHour(t))',
  day: 'toUnixTimestamp(toStartOfDay(t))',
  month: "toUnixTimestamp(toDateTime(toStartOfMonth(t), 'UTC'))",
};

export interface IntervalRow {
  /** Interval start, Unix seconds. */
  t: number;
  requests: number;
  bytes: number;
  serve: number;
  hits: number;
  misses: number;
  /** Bot requests (0 without bots). */
  bots: number;
  p50: number;
  p95: number;
  p99: number;
  visitors: number;
}

export interface Intervals {
  /** The intervals with traffic, oldest first. */
  rows: IntervalRow[];
  /** Unique visitors of the whole window. */
  visitors: number;
}

type SumsRow = Omit<IntervalRow, 'p50' | 'p95' | 'p99' | 'visitors'>;

/** Sums per row (t, requests, bytes, serve, hits, misses, bots) and states per row (t, serve_time, visitors, r: requests counted). */
interface IntervalParts {
  /**
   * Empty when the rows of `states` carry the sums too (after r: bytes, serve, hits, misses,
   * bots): the minute rollup holds both, and one statement reads it once.
   */
  sums: string[];
  states: string[];
  /**
   * Where the window's unique visitors come from when `states` are hours or minutes: the same
   * window as fewer states (whole days from the daily stats), or 'intervals' when those would be
   * the very rows of `states` (no whole day), which are then merged per day as well, in the same
   * pass. Null when `states` are days: the intervals' visitors add up to it.
   */
  windowStates: string[] | 'intervals' | null;
  params: QueryParams;
}

const RAW_SUMS = `toInt64(sum(bytes)) AS bytes, toInt64(sum(toUInt64(serve_time_ms))) AS serve,
  toInt64(countIf(cache_status = 'HIT')) AS hits, toInt64(countIf(cache_status = 'MISS')) AS misses, toInt64(countIf(is_bot = 1)) AS bots`;
const rawSums = (where: string, bucket: string) => `SELECT ${bucket} AS t, toInt64(count()) AS requests, ${RAW_SUMS} FROM cdn_logs WHERE ${where} GROUP BY t`;
const rawStates = (where: string, bucket: string, sums = false) =>
  `SELECT ${bucket} AS t, quantilesTimingState(0.5, 0.95, 0.99)(serve_time_ms) AS serve_time, uniqStateIf(visitor, visitor != 0) AS visitors,
     toUInt64(count()) AS r${sums ? `, ${RAW_SUMS}` : ''}
   FROM cdn_logs WHERE ${where} GROUP BY t`;
/** An empty visitors state: the visitors of a day taken from memory. */
const NO_VISITORS = "initializeAggregation('uniqStateIf', toUInt64(0), 0)";

/**
 * Hours: totals from the hourly totals (their bot rows counted as bots, or left out without
 * bots), percentile and visitor states from the hourly stats, and for daily and monthly
 * intervals from the daily stats for whole days (states cannot be taken away, so a partial day is
 * read as hours). `days.known`: whole days (YYYY-MM-DD) whose visitors are taken from memory,
 * their states read for the percentiles only; `days.unknown`: the window's other whole days,
 * when some are known.
 */
function hourParts(scope: Scope, interval: Interval, days: { known: string[]; unknown: string[] }): IntervalParts {
  const w = windowSql(scope, { days: false }); // hourly totals are few (24 a day): no daily level needed
  const humans = scope.excludeBots ? HUMANS : '';
  const { known, unknown } = days;
  const out: IntervalParts = { sums: [], states: [], windowStates: null, params: w.params };
  if (w.hours) {
    out.sums.push(`SELECT hour AS t, toInt64(requests) AS requests, toInt64(bytes) AS bytes, toInt64(serve_time_ms) AS serve, toInt64(hits) AS hits,
        toInt64(misses) AS misses, toInt64(if(is_bot = 1, requests, 0)) AS bots
      FROM cdn_totals_hourly WHERE ${w.hours}${humans}`);
  }
  if (w.raw) out.sums.push(rawSums(`${w.raw}${humans}`, 'toStartOfHour(timestamp)'));
  const s = windowSql(scope, { days: true, subtract: false, tag: 's' });
  Object.assign(out.params, s.params);
  Object.assign(out.params, { s_known: known, s_unknown: unknown });
  const daily = (split: WindowSql) => {
    const read = (visitors: string, only: string) =>
      `SELECT toDateTime(day, 'UTC') AS t, serve_time, ${visitors} AS visitors, toUInt64(requests) AS r FROM cdn_stats_daily WHERE ${split.days}${only}${humans}`;
    if (known.length === 0) return read('visitors', '');
    return [read(NO_VISITORS, ' AND day IN {s_known:Array(Date)}'), ...(unknown.length > 0 ? [read('visitors', ' AND day IN {s_unknown:Array(Date)}')] : [])].join(' UNION ALL ');
  };
  const states = (split: WindowSql) => [
    split.days && daily(split),
    split.hours && `SELECT hour AS t, serve_time, visitors, toUInt64(requests) AS r FROM cdn_stats_hourly WHERE ${split.hours}${humans}`,
    split.raw && rawStates(`${split.raw}${humans}`, 'toStartOfHour(timestamp)'),
  ].filter((part) => part !== null);
  if (interval === 'hour') {
    out.states = states(w);
    out.windowStates = s.days ? states(s) : 'intervals';
  } else {
    out.states = states(s);
  }
  return out;
}

/**
 * Minutes: everything from the minute rollup, the seconds at the window's ends from the raw rows;
 * the sums ride with the states (one read of the rollup, one statement to plan instead of two:
 * at 10M rows, a day by the minute took statements of 13 and 31 ms, now one of 34).
 */
function minuteParts(scope: Scope): IntervalParts {
  const w = minuteWindowSql(scope);
  const out: IntervalParts = { sums: [], states: [], windowStates: 'intervals', params: w.params };
  if (w.minutes) {
    out.states.push(`SELECT minute AS t, serve_time, visitors, toUInt64(requests) AS r, toInt64(bytes) AS bytes, toInt64(serve_time_ms) AS serve,
        toInt64(hits) AS hits, toInt64(misses) AS misses, toInt64(if(is_bot = 1, requests, 0)) AS bots
      FROM cdn_minutes WHERE ${w.minutes}`);
  }
  if (w.raw) out.states.push(rawStates(w.raw, 'toStartOfMinute(timestamp)', true));
  return out;
}

/**
 * Everything the overview shows per interval — requests, bytes, serve time, cache results, bots,
 * serve-time percentiles, unique visitors — and the window's unique visitors: the sums and the
 * merged states, each per interval, joined here.
 *
 * A visitor key changes with each UTC day (its salt is the day's), so no key is in two days: the
 * unique visitors of a month or of the whole window are the sum of their days', and states are
 * only ever merged within one day. That is exact where merging every day's states into one set
 * would be an estimate past 65,536 keys, and it costs a fraction.
 *
 * With `remembered`, daily intervals take the visitors of whole days from memory (see
 * day-visitors.ts): their states are read for the percentiles only, with the requests they count
 * — checked against those the day was remembered with; a day whose count changed is read again.
 */
export async function queryIntervals(store: AnalyticsStore, scope: Scope, interval: Interval, remembered?: DayVisitors): Promise<Intervals> {
  const keyOf = (day: string) => `${scope.orgId}\0${scope.distributionId ?? ''}\0${scope.excludeBots ? 1 : 0}\0${day}`;
  // remembered visitors are of unfiltered days
  const whole = new Set(interval === 'day' && remembered && !scope.filter ? wholeDays(scope) : []);
  const known = new Map<string, DayCount>();
  for (const day of whole) {
    const hit = remembered?.get(keyOf(day));
    if (hit) known.set(day, hit);
  }
  const parts =
    interval === 'minute' ? minuteParts(scope) : hourParts(scope, interval, { known: [...known.keys()], unknown: [...whole].filter((d) => !known.has(d)) });
  const bucket = BUCKET_SQL[interval];
  // the window's visitors, merged per day: from states of their own, from the intervals' states
  // grouped by day too (a row of interval -1 carries them: b, the interval's start + 1, is 0 in
  // that grouping set only), or as the sum of daily intervals
  const byDayToo = parts.windowStates === 'intervals';
  const windowVisitors = Array.isArray(parts.windowStates)
    ? `(SELECT sum(v) FROM (SELECT uniqMerge(visitors) AS v FROM (${parts.windowStates.join(' UNION ALL ')}) GROUP BY toDate(t)))`
    : 'toUInt64(0)';
  // sums and states are two statements side by side (joined in one statement, the engine read the
  // join's two sides one after the other), or one when the states' rows carry the sums
  const together = parts.sums.length === 0;
  const [summed, states] = await Promise.all([
    together
      ? null
      : store.query<SumsRow & { all: number }>(
          `SELECT toInt64(${bucket}) AS t, sum(requests) AS requests, sum(bytes) AS bytes, sum(serve) AS serve, sum(hits) AS hits, sum(misses) AS misses,
             sum(bots) AS bots, ${windowVisitors} AS all
           FROM (${parts.sums.join(' UNION ALL ')}) GROUP BY t HAVING requests != 0 ORDER BY t`,
          parts.params,
        ),
    store.query<{ t: number; q: number[]; visitors: number; n: number } & Partial<Omit<SumsRow, 't' | 'requests'>>>(
      `SELECT b - 1 AS t, quantilesTimingMerge(0.5, 0.95, 0.99)(qs) AS q, sum(dv) AS visitors, sum(dn) AS n${together ? ', sum(sb) AS bytes, sum(ss) AS serve, sum(sh) AS hits, sum(sm) AS misses, sum(sbots) AS bots' : ''}
       FROM (SELECT toInt64(${bucket}) + 1 AS b, toDate(t) AS d, quantilesTimingMergeState(0.5, 0.95, 0.99)(serve_time) AS qs,
               uniqMerge(visitors) AS dv, sum(r) AS dn${together ? ', sum(bytes) AS sb, sum(serve) AS ss, sum(hits) AS sh, sum(misses) AS sm, sum(bots) AS sbots' : ''}
             FROM (${parts.states.join(' UNION ALL ')}) GROUP BY ${byDayToo ? 'GROUPING SETS ((b, d), (d))' : 'b, d'})
       GROUP BY b ORDER BY b`,
      parts.params,
    ),
  ]);
  const sums =
    summed ??
    states
      .filter((r) => r.t !== -1)
      .map(({ t, n, bytes = 0, serve = 0, hits = 0, misses = 0, bots = 0 }) => ({ t, requests: n, bytes, serve, hits, misses, bots, all: 0 }));
  const statesAt = new Map(states.map((r) => [r.t, r]));
  // lines of a remembered day arrived late (the requests its states count changed): forget it, and
  // read the window again. A whole day is an interval of its own, read from the daily states only.
  const stale = [...known].filter(([day, c]) => c.requests !== (statesAt.get(Date.parse(`${day}T00:00:00Z`) / 1000)?.n ?? 0));
  if (stale.length > 0) {
    for (const [day] of stale) remembered?.delete(keyOf(day));
    return queryIntervals(store, scope, interval, remembered);
  }
  let rememberedVisitors = 0;
  // built field by field, and days named only where days are remembered: a day by the minute has
  // 1,440 rows, and spreading each took longer than the engine's reading of them
  const out = sums.map((r): IntervalRow => {
    const { q, visitors, n } = statesAt.get(r.t) ?? { q: [], visitors: 0, n: 0 };
    let withRemembered = visitors;
    if (whole.size > 0) {
      const day = new Date(r.t * 1000).toISOString().slice(0, 10);
      const hit = known.get(day);
      if (hit) {
        rememberedVisitors += hit.visitors;
        withRemembered += hit.visitors;
      } else if (whole.has(day)) remembered?.set(keyOf(day), { requests: n, visitors });
    }
    const { t, requests, bytes, serve, hits, misses, bots } = r;
    return { t, requests, bytes, serve, hits, misses, bots, visitors: withRemembered, p50: q[0] ?? 0, p95: q[1] ?? 0, p99: q[2] ?? 0 };
  });
  // without states of its own, the window's visitors are the intervals' (days, which add up)
  const all = byDayToo
    ? (statesAt.get(-1)?.visitors ?? 0)
    : Array.isArray(parts.windowStates)
      ? (sums[0]?.all ?? 0)
      : states.reduce((n, r) => n + r.visitors, 0);
  return { rows: out, visitors: all + rememberedVisitors };
}

/** Requests and bytes per status code over the window. */
export async function queryStatuses(store: AnalyticsStore, scope: Scope): Promise<Array<{ status: number; requests: number; bytes: number }>> {
  const w = windowSql(scope, { days: false });
  const bots = scope.excludeBots ? HUMANS : '';
  const parts: string[] = [];
  if (w.hours) parts.push(`SELECT status, requests, bytes FROM cdn_status_hourly WHERE ${w.hours}${bots}`);
  if (w.raw) parts.push(`SELECT status, count() AS requests, sum(bytes) AS bytes FROM cdn_logs WHERE ${w.raw}${bots} GROUP BY status`);
  return store.query(`SELECT status, sum(requests) AS requests, sum(bytes) AS bytes FROM (${parts.join(' UNION ALL ')}) GROUP BY status ORDER BY status`, w.params);
}

/** Requests and bytes over the window, in all and of bots. */
export async function queryBotShare(store: AnalyticsStore, scope: Scope): Promise<{ requests: number; bytes: number; botRequests: number; botBytes: number }> {
  const w = windowSql(scope, { days: false });
  const parts: string[] = [];
  if (w.hours) {
    parts.push(`SELECT toInt64(requests) AS requests, toInt64(bytes) AS bytes, toInt64(if(is_bot = 1, requests, 0)) AS bot_requests,
        toInt64(if(is_bot = 1, bytes, 0)) AS bot_bytes
      FROM cdn_totals_hourly WHERE ${w.hours}`);
  }
  if (w.raw) {
    parts.push(`SELECT toInt64(count()) AS requests, toInt64(sum(bytes)) AS bytes, toInt64(countIf(is_bot = 1)) AS bot_requests, toInt64(sumIf(cdn_logs.bytes, is_bot = 1)) AS bot_bytes
      FROM cdn_logs WHERE ${w.raw}`);
  }
  const [row] = await store.query<{ requests: number; bytes: number; botRequests: number; botBytes: number }>(
    `SELECT sum(requests) AS requests, sum(bytes) AS bytes, sum(bot_requests) AS botRequests, sum(bot_bytes) AS botBytes FROM (${parts.join(' UNION ALL ')})`,
    w.params,
  );
  return row ?? { requests: 0, bytes: 0, botRequests: 0, botBytes: 0 };
}

/** The last `minutes` whole and current minutes from `cdn_minutes`, per minute. */
export async function queryRecentMinutes(
  store: AnalyticsStore,
  scope: Pick<Scope, 'orgId' | 'distributionId' | 'excludeBots' | 'filter'>,
  fromMs: number,
): Promise<Array<IntervalRow & { clientErrors: number; serverErrors: number; p50: number; p95: number; p99: number; visitors: number }>> {
  const tenant = tenantSql(scope);
  type Row = IntervalRow & { clientErrors: number; serverErrors: number; q: number[]; visitors: number };
  if (scope.filter) {
    // filtered: the same figures from the raw lines (the minute rollup keeps none of the dimensions)
    const rows = await store.query<Row>(
      `SELECT toUnixTimestamp(toStartOfMinute(timestamp)) AS t, toInt64(count()) AS requests, toInt64(sum(bytes)) AS bytes, toInt64(sum(toUInt64(serve_time_ms))) AS serve,
         toInt64(countIf(cache_status = 'HIT')) AS hits, toInt64(countIf(cache_status = 'MISS')) AS misses,
         toInt64(countIf(status >= 400 AND status < 500)) AS clientErrors, toInt64(countIf(status >= 500)) AS serverErrors,
         quantilesTiming(0.5, 0.95, 0.99)(serve_time_ms) AS q, toInt64(uniqIf(visitor, visitor != 0)) AS visitors
       FROM cdn_logs
       WHERE ${tenant.tenant} AND timestamp >= toDateTime({from:UInt32}, 'UTC')${scope.excludeBots ? HUMANS : ''} AND ${scope.filter.sql}
       GROUP BY t ORDER BY t`,
      { ...tenant.params, ...scope.filter.params, from: Math.floor(fromMs / 1000) },
    );
    return rows.map(({ q, ...r }) => ({ ...r, p50: q[0], p95: q[1], p99: q[2] }));
  }
  const rows = await store.query<Row>(
    `SELECT toUnixTimestamp(minute) AS t, sum(requests) AS requests, sum(bytes) AS bytes, sum(serve_time_ms) AS serve, sum(hits) AS hits,
       sum(misses) AS misses, sum(client_errors) AS clientErrors, sum(server_errors) AS serverErrors,
       quantilesTimingMerge(0.5, 0.95, 0.99)(serve_time) AS q, uniqMerge(visitors) AS visitors
     FROM cdn_minutes
     WHERE ${tenant.tenant} AND minute >= toDateTime({from:UInt32}, 'UTC')${scope.excludeBots ? HUMANS : ''}
     GROUP BY minute ORDER BY minute`,
    { ...tenant.params, from: Math.floor(fromMs / 1000) },
  );
  return rows.map(({ q, ...r }) => ({ ...r, p50: q[0], p95: q[1], p99: q[2] }));
}
