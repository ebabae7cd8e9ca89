import type { AnalyticsStore } from '../adapters/clickhouse/index.js';
import type { AnalyticsRange } from './range.js';
import { group, mostFirst, type Bucket, type BucketGroup } from './reports.js';
import { HUMANS, windowSql, type Scope } from './window-sql.js';

// Campaigns: the UTM values read from each request's query string at ingest, reported like
// referrers. No rollup keeps them: the report reads the raw lines of the window.

export interface CampaignAnalytics {
  /** `utm_source` (or `source`, `ref`); otherCount: every other request of the window, with none too. */
  sources: BucketGroup;
  mediums: BucketGroup;
  campaigns: BucketGroup;
}

const GROUPS = { sources: 'utm_source', mediums: 'utm_medium', campaigns: 'utm_campaign' } as const;

export async function campaignAnalytics(store: AnalyticsStore, scope: Scope, range: AnalyticsRange): Promise<CampaignAnalytics> {
  // a filter of no condition makes the window one read of raw lines
  const w = windowSql({ ...scope, filter: scope.filter ?? { sql: '1', params: {} } }, { days: false });
  const where = `${w.raw}${scope.excludeBots ? HUMANS : ''}`;
  const tuples = Object.entries(GROUPS).map(([key, column]) => `('${key}', ${column})`).join(', ');
  const [rows, [total]] = await Promise.all([
    store.query<{ dimension: keyof CampaignAnalytics; value: string; c: number }>(
      `SELECT d.1 AS dimension, d.2 AS value, toInt64(count()) AS c FROM cdn_logs ARRAY JOIN [${tuples}] AS d
       WHERE ${where} AND d.2 != '' GROUP BY dimension, value ORDER BY dimension, c DESC, value ASC LIMIT {n_limit:UInt32} BY dimension`,
      { ...w.params, n_limit: range.termCount },
    ),
    store.query<{ n: number }>(`SELECT toInt64(count()) AS n FROM cdn_logs WHERE ${where}`, w.params),
  ]);
  const buckets = (key: keyof CampaignAnalytics): Bucket[] =>
    rows
      .filter((r) => r.dimension === key)
      .map((r) => ({ name: r.value, count: r.c }))
      .sort(mostFirst<Bucket>((b) => b.count, (b) => b.name));
  const n = total?.n ?? 0;
  return { sources: group(buckets('sources'), n), mediums: group(buckets('mediums'), n), campaigns: group(buckets('campaigns'), n) };
}
