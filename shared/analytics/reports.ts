import type { AnalyticsStore } from '../adapters/clickhouse/index.js';
import type { DayVisitors } from './day-visitors.js';
import { queryTopValues, type Dimension } from './top-values.js';
import { queryBotShare, queryIntervals, queryRecentMinutes, queryStatuses, type IntervalRow } from './traffic-queries.js';
import type { Scope } from './window-sql.js';
import { floorTo, intervalStarts, type AnalyticsRange } from './range.js';

export type Bucket = { name: string; count: number };

/** A bucket group: the top `TermCount` values and the requests of all the others. */
export interface BucketGroup {
  otherCount: number;
  buckets: Bucket[];
}

/** Serve-time percentiles in ms (0 without requests). */
export interface ServeTimes {
  p50ServeTime: number;
  p95ServeTime: number;
  p99ServeTime: number;
}

export interface IntervalAggregate extends ServeTimes {
  time: string;
  bytes: number;
  numberOfRequests: number;
  hits: number;
  misses: number;
  /** hits / (hits + misses), 4 decimals; 0 when neither. */
  hitRatio: number;
  uniqueVisitors: number;
}

export interface DistributionAnalytics {
  averageServeTime: number;
  totalBytes: number;
  hits: number;
  misses: number;
  topReferers: BucketGroup;
  aggregatesPerInterval: IntervalAggregate[];
  /** Distinct visitor keys of the window (a visitor's key changes with each UTC day). */
  uniqueVisitors: number;
  /** Requests whose user agent is a bot's (0 with excludeBots). */
  botRequests: number;
}

export type BreakdownKind = 'geo' | 'path' | 'device' | 'referers';
export type ReportKind = BreakdownKind | 'overview' | 'status' | 'bots' | 'realtime' | 'assets' | 'entries' | 'campaigns';

/** The groups each breakdown endpoint returns, result key → dimension. */
export const BREAKDOWN_GROUPS: Record<BreakdownKind, Record<string, Dimension>> = {
  geo: { continents: 'continent', countries: 'country' },
  path: { paths: 'path', continents: 'continent', countries: 'country' },
  device: { devices: 'device', browsers: 'browser', operatingSystems: 'os', continents: 'continent', countries: 'country' },
  referers: { referers: 'referer', continents: 'continent', countries: 'country' },
};

/** Most `count` first, ties by `name` ascending: the order of every list of the reports. */
export const mostFirst =
  <T>(count: (t: T) => number, name: (t: T) => string) =>
  (a: T, b: T): number =>
    count(b) - count(a) || (name(a) < name(b) ? -1 : name(a) > name(b) ? 1 : 0);

export const group = (buckets: BucketGroup['buckets'], total: number): BucketGroup => ({
  otherCount: total - buckets.reduce((s, b) => s + b.count, 0),
  buckets,
});

const hitRatio = (hits: number, misses: number) => (hits + misses === 0 ? 0 : Math.round((hits / (hits + misses)) * 10_000) / 10_000);

/** `remembered`: whole days' visitors kept by this process (see day-visitors.ts). */
export async function distributionAnalytics(store: AnalyticsStore, scope: Scope, range: AnalyticsRange, remembered?: DayVisitors): Promise<DistributionAnalytics> {
  const [intervals, top] = await Promise.all([queryIntervals(store, scope, range.interval, remembered), queryTopValues(store, scope, ['referer'], range.termCount)]);
  const sum = { requests: 0, bytes: 0, serve: 0, hits: 0, misses: 0, bots: 0 };
  const byStart = new Map<number, IntervalRow>();
  for (const r of intervals.rows) {
    sum.requests += r.requests;
    sum.bytes += r.bytes;
    sum.serve += r.serve;
    sum.hits += r.hits;
    sum.misses += r.misses;
    sum.bots += r.bots;
    byStart.set(r.t * 1000, r);
  }
  return {
    averageServeTime: sum.requests === 0 ? 0 : Math.round(sum.serve / sum.requests),
    totalBytes: sum.bytes,
    hits: sum.hits,
    misses: sum.misses,
    topReferers: group(top.buckets.get('referer')!, sum.requests),
    // every interval of the window appears, with zeros where there was no traffic
    aggregatesPerInterval: intervalStarts(range).map((t) => {
      const v = byStart.get(t);
      return {
        time: new Date(t).toISOString(),
        bytes: v?.bytes ?? 0,
        numberOfRequests: v?.requests ?? 0,
        hits: v?.hits ?? 0,
        misses: v?.misses ?? 0,
        hitRatio: hitRatio(v?.hits ?? 0, v?.misses ?? 0),
        p50ServeTime: v?.p50 ?? 0,
        p95ServeTime: v?.p95 ?? 0,
        p99ServeTime: v?.p99 ?? 0,
        uniqueVisitors: v?.visitors ?? 0,
      };
    }),
    uniqueVisitors: intervals.visitors,
    botRequests: sum.bots,
  };
}

export interface StatusAnalytics {
  /** 1xx … 5xx, every class listed. */
  statusClasses: BucketGroup;
  statusCodes: BucketGroup;
  /** Paths answered 4xx; otherCount: the other 4xx requests. */
  clientErrorPaths: BucketGroup;
  /** Paths answered 5xx; otherCount: the other 5xx requests. */
  serverErrorPaths: BucketGroup;
}

export async function statusAnalytics(store: AnalyticsStore, scope: Scope, range: AnalyticsRange): Promise<StatusAnalytics> {
  const [statuses, top] = await Promise.all([queryStatuses(store, scope), queryTopValues(store, scope, ['clientErrorPath', 'serverErrorPath'], range.termCount)]);
  const total = statuses.reduce((n, s) => n + s.requests, 0);
  const inClass = (c: number) => statuses.filter((s) => Math.floor(s.status / 100) === c).reduce((n, s) => n + s.requests, 0);
  const codes = statuses
    .map((s) => ({ name: String(s.status), count: s.requests }))
    .sort(mostFirst<Bucket>((b) => b.count, (b) => b.name))
    .slice(0, range.termCount);
  return {
    statusClasses: { otherCount: 0, buckets: [1, 2, 3, 4, 5].map((c) => ({ name: `${c}xx`, count: inClass(c) })) },
    statusCodes: group(codes, total),
    clientErrorPaths: group(top.buckets.get('clientErrorPath')!, inClass(4)),
    serverErrorPaths: group(top.buckets.get('serverErrorPath')!, inClass(5)),
  };
}

export interface BotAnalytics {
  humanRequests: number;
  humanBytes: number;
  botRequests: number;
  botBytes: number;
  /** Bots by name (the product token of their user agent). */
  topBots: BucketGroup;
}

export async function botAnalytics(store: AnalyticsStore, scope: Scope, range: AnalyticsRange): Promise<BotAnalytics> {
  const [share, top] = await Promise.all([queryBotShare(store, scope), queryTopValues(store, scope, ['bot'], range.termCount)]);
  const botRequests = scope.excludeBots ? 0 : share.botRequests;
  return {
    humanRequests: share.requests - share.botRequests,
    humanBytes: share.bytes - share.botBytes,
    botRequests,
    botBytes: scope.excludeBots ? 0 : share.botBytes,
    topBots: group(top.buckets.get('bot')!, botRequests),
  };
}

/** The real-time view: the last REALTIME_MINUTES minutes, the current one last. */
export const REALTIME_MINUTES = 30;

export interface RealtimeAnalytics {
  from: string;
  numberOfRequests: number;
  bytes: number;
  perMinute: Array<
    ServeTimes & { time: string; numberOfRequests: number; bytes: number; hits: number; misses: number; clientErrors: number; serverErrors: number; uniqueVisitors: number }
  >;
}

export async function realtimeAnalytics(store: AnalyticsStore, scope: Pick<Scope, 'orgId' | 'distributionId' | 'excludeBots' | 'filter'>, now = Date.now()): Promise<RealtimeAnalytics> {
  const first = floorTo('minute', now) - (REALTIME_MINUTES - 1) * 60_000;
  const rows = new Map((await queryRecentMinutes(store, scope, first)).map((r) => [r.t * 1000, r]));
  const perMinute = Array.from({ length: REALTIME_MINUTES }, (_, i) => {
    const t = first + i * 60_000;
    const r = rows.get(t);
    return {
      time: new Date(t).toISOString(),
      numberOfRequests: r?.requests ?? 0,
      bytes: r?.bytes ?? 0,
      hits: r?.hits ?? 0,
      misses: r?.misses ?? 0,
      clientErrors: r?.clientErrors ?? 0,
      serverErrors: r?.serverErrors ?? 0,
      uniqueVisitors: r?.visitors ?? 0,
      p50ServeTime: r?.p50 ?? 0,
      p95ServeTime: r?.p95 ?? 0,
      p99ServeTime: r?.p99 ?? 0,
    };
  });
  return {
    from: new Date(first).toISOString(),
    numberOfRequests: perMinute.reduce((n, m) => n + m.numberOfRequests, 0),
    bytes: perMinute.reduce((n, m) => n + m.bytes, 0),
    perMinute,
  };
}

export async function breakdown(
  store: AnalyticsStore,
  scope: Scope,
  range: AnalyticsRange,
  kind: BreakdownKind,
): Promise<Record<string, BucketGroup>> {
  const groups = BREAKDOWN_GROUPS[kind];
  // every request has a continent (XX when unknown): its family's total is the window's request count
  const top = await queryTopValues(store, scope, Object.values(groups), range.termCount, 'continent');
  return Object.fromEntries(Object.entries(groups).map(([key, dim]) => [key, group(top.buckets.get(dim)!, top.total)]));
}

/** What an empty project or distribution id answers (an empty configuration). */
export function emptyAnalytics(kind: ReportKind): unknown {
  const none = (): BucketGroup => ({ otherCount: 0, buckets: [] });
  switch (kind) {
    case 'overview':
      return { averageServeTime: 0, totalBytes: 0, hits: 0, misses: 0, topReferers: none(), aggregatesPerInterval: [], uniqueVisitors: 0, botRequests: 0 };
    case 'status':
      return { statusClasses: none(), statusCodes: none(), clientErrorPaths: none(), serverErrorPaths: none() };
    case 'bots':
      return { humanRequests: 0, humanBytes: 0, botRequests: 0, botBytes: 0, topBots: none() };
    case 'realtime':
      return { from: null, numberOfRequests: 0, bytes: 0, perMinute: [] };
    case 'assets':
      return { requests: 0, bytes: 0, bytesSaved: 0, assets: [], otherRequests: 0, formats: [] };
    case 'entries':
      return { requests: 0, bytes: 0, entries: [], otherRequests: 0 };
    case 'campaigns':
      return { sources: none(), mediums: none(), campaigns: none() };
    default:
      return Object.fromEntries(Object.keys(BREAKDOWN_GROUPS[kind]).map((key) => [key, none()]));
  }
}
