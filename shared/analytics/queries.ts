import type { AnalyticsStore, QueryParams } from '../adapters/clickhouse/index.js';
import type { Interval } from './range.js';
import { splitRange, type Span } from './split-range.js';

/** Whose traffic and which window; `toMs` exclusive. */
export interface Scope {
  orgId: string;
  distributionId: string;
  fromMs: number;
  toMs: number;
}

export type Dimension = 'path' | 'referer' | 'country' | 'continent' | 'device' | 'browser' | 'os';

/**
 * Where each dimension lives: the rollup family (`<family>_hourly`, `<family>_daily`) and its
 * column, which is also the `cdn_logs` column. Fixed SQL, never user input.
 */
const SOURCE: Record<Dimension, { family: string; column: string }> = {
  path: { family: 'cdn_paths', column: 'path' },
  referer: { family: 'cdn_referers', column: 'referer_host' },
  country: { family: 'cdn_audience', column: 'country' },
  continent: { family: 'cdn_audience', column: 'continent' },
  device: { family: 'cdn_audience', column: 'device' },
  browser: { family: 'cdn_audience', column: 'browser' },
  os: { family: 'cdn_audience', column: 'os' },
};

const BUCKET_SQL: Record<Interval, string> = {
  hour: 'toUnixTimestamp(toStartOfHour(t))',
  day: 'toUnixTimestamp(toStartOfDay(t))',
  month: "toUnixTimestamp(toDateTime(toStartOfMonth(t), 'UTC'))",
};

const isoDate = (ms: number) => new Date(ms).toISOString().slice(0, 10);

/**
 * WHERE conditions of one window split into days, hours and raw edges, with their parameters.
 * `minus` (when some hours are subtracted) is true for an hourly row to be counted negatively;
 * `hours` then selects those rows too.
 */
interface WindowSql {
  days: string | null;
  hours: string | null;
  minus: string | null;
  raw: string | null;
  params: QueryParams;
}

function windowSql(scope: Scope, options: { days: boolean }): WindowSql {
  const split = splitRange(scope.fromMs, scope.toMs, options);
  const params: QueryParams = { org: scope.orgId, dist: scope.distributionId };
  const tenant = 'org_id = {org:String} AND distribution_id = {dist:String}';
  const spansSql = (spans: Span[], prefix: string, cond: (a: string, b: string) => string, value: (ms: number) => string | number) => {
    if (spans.length === 0) return null;
    const parts = spans.map((s, i) => {
      params[`${prefix}${i}a`] = value(s.fromMs);
      params[`${prefix}${i}b`] = value(s.toMs);
      return `(${cond(`${prefix}${i}a`, `${prefix}${i}b`)})`;
    });
    return `(${parts.join(' OR ')})`;
  };
  const scoped = (cond: string | null) => (cond ? `${tenant} AND ${cond}` : null);
  const hourCond = (a: string, b: string) => `hour >= toDateTime({${a}:UInt32}, 'UTC') AND hour < toDateTime({${b}:UInt32}, 'UTC')`;
  const plus = spansSql(split.hours, 'h', hourCond, (ms) => ms / 1000);
  const minus = spansSql(split.minusHours, 'm', hourCond, (ms) => ms / 1000);
  return {
    days: scoped(spansSql(split.days, 'd', (a, b) => `day >= {${a}:Date} AND day < {${b}:Date}`, isoDate)),
    hours: scoped(plus && minus ? `(${plus} OR ${minus})` : (plus ?? minus)),
    minus,
    raw: scoped(
      spansSql(
        split.edges,
        'e',
        (a, b) => `timestamp >= fromUnixTimestamp64Milli({${a}:Int64}, 'UTC') AND timestamp < fromUnixTimestamp64Milli({${b}:Int64}, 'UTC')`,
        (ms) => ms,
      ),
    ),
    params,
  };
}

export interface IntervalRow {
  /** Interval start, Unix seconds. */
  t: number;
  requests: number;
  bytes: number;
  serve: number;
  hits: number;
  misses: number;
}

/** Requests, bytes, serve time and cache results per interval (only intervals with traffic). */
export async function queryIntervals(store: AnalyticsStore, scope: Scope, interval: Interval): Promise<IntervalRow[]> {
  // hourly totals are small (24 rows a day): no daily level needed
  const w = windowSql(scope, { days: false });
  const parts: string[] = [];
  if (w.hours) {
    parts.push(`SELECT hour AS t, requests, bytes, serve_time_ms AS serve, hits, misses
      FROM cdn_totals_hourly WHERE ${w.hours}`);
  }
  if (w.raw) {
    parts.push(`SELECT toStartOfHour(timestamp) AS t, count() AS requests, sum(bytes) AS bytes,
        sum(toUInt64(serve_time_ms)) AS serve, countIf(cache_status = 'HIT') AS hits, countIf(cache_status = 'MISS') AS misses
      FROM cdn_logs WHERE ${w.raw} GROUP BY t`);
  }
  const sql = `SELECT ${BUCKET_SQL[interval]} AS t, sum(requests) AS requests, sum(bytes) AS bytes,
      sum(serve) AS serve, sum(hits) AS hits, sum(misses) AS misses
    FROM (${parts.join(' UNION ALL ')}) GROUP BY t ORDER BY t`;
  return store.query<IntervalRow>(sql, w.params);
}

/**
 * Counts per value of every requested dimension of one rollup family, over the window. Counts are
 * signed (subtracted hours): a value whose hours were all subtracted sums to 0 and is left out.
 */
function familySql(w: WindowSql, family: string, dims: Dimension[]): string {
  const columns = [...new Set(dims.map((d) => SOURCE[d].column))];
  const cols = columns.join(', ');
  const hourly = w.minus ? `sum(if(${w.minus}, -toInt64(requests), toInt64(requests)))` : 'toInt64(sum(requests))';
  const parts: string[] = [];
  // each piece is grouped on its own first: the outer grouping then merges far fewer rows
  // (measured about a third faster than grouping the raw union)
  if (w.days) parts.push(`SELECT ${cols}, toInt64(sum(requests)) AS n FROM ${family}_daily WHERE ${w.days} GROUP BY ${cols}`);
  if (w.hours) parts.push(`SELECT ${cols}, ${hourly} AS n FROM ${family}_hourly WHERE ${w.hours} GROUP BY ${cols}`);
  if (w.raw) parts.push(`SELECT ${cols}, toInt64(count()) AS n FROM cdn_logs WHERE ${w.raw} GROUP BY ${cols}`);
  const union = parts.join(' UNION ALL ');
  if (dims.length === 1) {
    const column = SOURCE[dims[0]].column;
    return `SELECT '${dims[0]}' AS dimension, toString(${column}) AS value, sum(n) AS n FROM (${union}) GROUP BY value HAVING n > 0`;
  }
  // several dimensions of one family: aggregate once per combination, then fan out
  const tuples = dims.map((d) => `('${d}', toString(${SOURCE[d].column}))`).join(', ');
  return `SELECT d.1 AS dimension, d.2 AS value, sum(n) AS n FROM (
      SELECT ${cols}, sum(n) AS n FROM (${union}) GROUP BY ${cols} HAVING n > 0
    ) ARRAY JOIN [${tuples}] AS d GROUP BY dimension, value`;
}

export interface TopValues {
  /** Per dimension: the top values by requests (empty values left out), most first, ties by name. */
  buckets: Map<Dimension, Array<{ name: string; count: number }>>;
  /** Per dimension: requests counted over all of its values (empty ones included). */
  totals: Map<Dimension, number>;
}

/** The `limit` most frequent values of each dimension, in one query (`LIMIT n BY dimension`). */
export async function queryTopValues(store: AnalyticsStore, scope: Scope, dims: Dimension[], limit: number): Promise<TopValues> {
  const w = windowSql(scope, { days: true });
  const byFamily = new Map<string, Dimension[]>();
  for (const d of dims) byFamily.set(SOURCE[d].family, [...(byFamily.get(SOURCE[d].family) ?? []), d]);
  const groups = [...byFamily].map(([family, ds]) => familySql(w, family, ds));
  const sql = `SELECT dimension, value, n AS c, sum(n) OVER (PARTITION BY dimension) AS total
    FROM (${groups.join(' UNION ALL ')})
    ORDER BY dimension, c DESC, value ASC
    LIMIT {n_limit:UInt32} BY dimension`;
  // the window total must include empty values (no referer): filter them after LIMIT BY
  const rows = await store.query<{ dimension: Dimension; value: string; c: number; total: number }>(
    `SELECT dimension, value, c, total FROM (${sql.replace('LIMIT {n_limit:UInt32} BY dimension', 'LIMIT {n_plus:UInt32} BY dimension')})
     WHERE value != '' ORDER BY dimension, c DESC, value ASC LIMIT {n_limit:UInt32} BY dimension`,
    { ...w.params, n_limit: limit, n_plus: limit + 1 },
  );
  const out: TopValues = { buckets: new Map(dims.map((d) => [d, []])), totals: new Map(dims.map((d) => [d, 0])) };
  for (const r of rows) {
    out.buckets.get(r.dimension)!.push({ name: r.value, count: r.c });
    out.totals.set(r.dimension, r.total);
  }
  return out;
}
