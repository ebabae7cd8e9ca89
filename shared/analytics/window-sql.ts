import type { QueryParams } from '../adapters/clickhouse/index.js';
import { splitRange, type Span } from './split-range.js';

// How a report's window is read: the WHERE conditions of its whole days, whole hours (or minutes)
// and the raw rows at its ends, bound as parameters. Fixed SQL, never user input.

/** Whose traffic and which window; `toMs` exclusive. */
export interface Scope {
  orgId: string;
  /** One distribution of the organization; null for all of them. */
  distributionId: string | null;
  fromMs: number;
  toMs: number;
  /** Leave out requests whose user agent is a bot's. */
  excludeBots?: boolean;
  /**
   * Conditions on raw lines (see filters.ts): when set, the whole window is read from `cdn_logs`,
   * as the rollups keep none of the filtered dimensions.
   */
  filter?: { sql: string; params: QueryParams } | null;
}

/** The condition on whose rows: the organization's, of one distribution or of all. */
export function tenantSql(scope: Pick<Scope, 'orgId' | 'distributionId'>): { tenant: string; params: QueryParams } {
  if (scope.distributionId === null) return { tenant: 'org_id = {org:String}', params: { org: scope.orgId } };
  return { tenant: 'org_id = {org:String} AND distribution_id = {dist:String}', params: { org: scope.orgId, dist: scope.distributionId } };
}

const isoDate = (ms: number) => new Date(ms).toISOString().slice(0, 10);

/**
 * WHERE conditions of one window split into days, hours and raw edges, with their parameters.
 * `minus` (when some hours are subtracted) is true for an hourly row to be counted negatively;
 * `hours` then selects those rows too.
 */
export interface WindowSql {
  days: string | null;
  hours: string | null;
  minus: string | null;
  raw: string | null;
  params: QueryParams;
}

/** `tag` prefixes the parameter names, so that two splits of one window can share a statement. */
export function windowSql(scope: Scope, options: { days: boolean; subtract?: boolean; tag?: string }): WindowSql {
  if (scope.filter) return filteredWindowSql(scope, scope.filter, options.tag ?? '');
  const split = splitRange(scope.fromMs, scope.toMs, options);
  const { tenant, params } = tenantSql(scope);
  const spansSql = (spans: Span[], prefix: string, cond: (a: string, b: string) => string, value: (ms: number) => string | number) => {
    if (spans.length === 0) return null;
    const parts = spans.map((s, i) => {
      const name = `${options.tag ?? ''}${prefix}${i}`;
      params[`${name}a`] = value(s.fromMs);
      params[`${name}b`] = value(s.toMs);
      return `(${cond(`${name}a`, `${name}b`)})`;
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

/** A filtered window: raw lines only, the filter's conditions and parameters added. */
function filteredWindowSql(scope: Scope, filter: { sql: string; params: QueryParams }, tag: string): WindowSql {
  const { tenant, params } = tenantSql(scope);
  Object.assign(params, filter.params, { [`${tag}ea`]: scope.fromMs, [`${tag}eb`]: scope.toMs });
  const raw = `${tenant} AND timestamp >= fromUnixTimestamp64Milli({${tag}ea:Int64}, 'UTC') AND timestamp < fromUnixTimestamp64Milli({${tag}eb:Int64}, 'UTC') AND ${filter.sql}`;
  return { days: null, hours: null, minus: null, raw, params };
}

/**
 * Whether a window's counts are worth reading from the daily rollups: windows up to two days are
 * read from the hourly ones alone, as a daily level would be one more part of the statement to
 * plan (3–4 ms) for fewer rows than it saves (a day by the hour, in the referers: 14 → 10 ms at
 * 10M rows).
 */
export const readsDays = (scope: Pick<Scope, 'fromMs' | 'toMs'>): boolean => scope.toMs - scope.fromMs > 48 * 3_600_000;

/** Appended to a condition on rows that carry `is_bot`: humans only. */
export const HUMANS = ' AND is_bot = 0';

/** The window as whole minutes (from `cdn_minutes`) and the seconds at its ends (from `cdn_logs`). */
export function minuteWindowSql(scope: Scope): { minutes: string | null; raw: string | null; params: QueryParams } {
  const MINUTE = 60_000;
  const a = Math.ceil(scope.fromMs / MINUTE) * MINUTE;
  const b = Math.floor(scope.toMs / MINUTE) * MINUTE;
  const { tenant, params } = tenantSql(scope);
  Object.assign(params, { ma: a / 1000, mb: b / 1000, ra: scope.fromMs, rb: scope.toMs });
  const bots = scope.excludeBots ? HUMANS : '';
  if (scope.filter) {
    Object.assign(params, scope.filter.params);
    return { minutes: null, raw: `${tenant} AND timestamp >= fromUnixTimestamp64Milli({ra:Int64}, 'UTC') AND timestamp < fromUnixTimestamp64Milli({rb:Int64}, 'UTC')${bots} AND ${scope.filter.sql}`, params };
  }
  if (a >= b) {
    return { minutes: null, raw: `${tenant} AND timestamp >= fromUnixTimestamp64Milli({ra:Int64}, 'UTC') AND timestamp < fromUnixTimestamp64Milli({rb:Int64}, 'UTC')${bots}`, params };
  }
  const edges = [
    scope.fromMs < a ? `(timestamp >= fromUnixTimestamp64Milli({ra:Int64}, 'UTC') AND timestamp < toDateTime({ma:UInt32}, 'UTC'))` : null,
    b < scope.toMs ? `(timestamp >= toDateTime({mb:UInt32}, 'UTC') AND timestamp < fromUnixTimestamp64Milli({rb:Int64}, 'UTC'))` : null,
  ].filter((e) => e !== null);
  return {
    minutes: `${tenant} AND minute >= toDateTime({ma:UInt32}, 'UTC') AND minute < toDateTime({mb:UInt32}, 'UTC')${bots}`,
    raw: edges.length > 0 ? `${tenant} AND (${edges.join(' OR ')})${bots}` : null,
    params,
  };
}
