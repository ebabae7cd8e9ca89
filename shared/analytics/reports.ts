import type { AnalyticsStore } from '../adapters/clickhouse/index.js';
import { queryIntervals, queryTopValues, type Dimension, type Scope } from './queries.js';
import { intervalStarts, type AnalyticsRange } from './range.js';

/** A bucket group: the top `TermCount` values and the requests of all the others. */
export interface BucketGroup {
  otherCount: number;
  buckets: Array<{ name: string; count: number }>;
}

export interface DistributionAnalytics {
  averageServeTime: number;
  totalBytes: number;
  hits: number;
  misses: number;
  topReferers: BucketGroup;
  aggregatesPerInterval: Array<{ time: string; bytes: number; numberOfRequests: number }>;
}

export type BreakdownKind = 'geo' | 'path' | 'device' | 'referers';

/** The groups each breakdown endpoint returns, result key → dimension. */
export const BREAKDOWN_GROUPS: Record<BreakdownKind, Record<string, Dimension>> = {
  geo: { continents: 'continent', countries: 'country' },
  path: { paths: 'path', continents: 'continent', countries: 'country' },
  device: { devices: 'device', browsers: 'browser', operatingSystems: 'os', continents: 'continent', countries: 'country' },
  referers: { referers: 'referer', continents: 'continent', countries: 'country' },
};

const group = (buckets: BucketGroup['buckets'], total: number): BucketGroup => ({
  otherCount: total - buckets.reduce((s, b) => s + b.count, 0),
  buckets,
});

export async function distributionAnalytics(
  store: AnalyticsStore,
  scope: Scope,
  range: AnalyticsRange,
): Promise<DistributionAnalytics> {
  const [intervals, top] = await Promise.all([
    queryIntervals(store, scope, range.interval),
    queryTopValues(store, scope, ['referer'], range.termCount),
  ]);
  const sum = { requests: 0, bytes: 0, serve: 0, hits: 0, misses: 0 };
  const byStart = new Map<number, { bytes: number; requests: number }>();
  for (const r of intervals) {
    sum.requests += r.requests;
    sum.bytes += r.bytes;
    sum.serve += r.serve;
    sum.hits += r.hits;
    sum.misses += r.misses;
    byStart.set(r.t * 1000, { bytes: r.bytes, requests: r.requests });
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
      return { time: new Date(t).toISOString(), bytes: v?.bytes ?? 0, numberOfRequests: v?.requests ?? 0 };
    }),
  };
}

export async function breakdown(
  store: AnalyticsStore,
  scope: Scope,
  range: AnalyticsRange,
  kind: BreakdownKind,
): Promise<Record<string, BucketGroup>> {
  const groups = BREAKDOWN_GROUPS[kind];
  const top = await queryTopValues(store, scope, Object.values(groups), range.termCount);
  // every request has a continent (XX when unknown): its total is the window's request count
  const total = top.totals.get('continent') ?? 0;
  return Object.fromEntries(Object.entries(groups).map(([key, dim]) => [key, group(top.buckets.get(dim)!, total)]));
}

/** What an empty project or distribution id answers (an empty configuration). */
export function emptyAnalytics(kind: BreakdownKind | 'overview'): DistributionAnalytics | Record<string, BucketGroup> {
  const none = (): BucketGroup => ({ otherCount: 0, buckets: [] });
  if (kind === 'overview') {
    return { averageServeTime: 0, totalBytes: 0, hits: 0, misses: 0, topReferers: none(), aggregatesPerInterval: [] };
  }
  return Object.fromEntries(Object.keys(BREAKDOWN_GROUPS[kind]).map((key) => [key, none()]));
}
