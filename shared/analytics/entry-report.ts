import type { AnalyticsStore } from '../adapters/clickhouse/index.js';
import type { Queryable } from '../adapters/db/index.js';
import { findEntryLabels } from '../content/entry-repository.js';
import type { EntryTrafficByDay } from './entry-traffic-by-day.js';
import { queryEntryTraffic } from './entry-queries.js';
import type { AnalyticsRange } from './range.js';
import type { Scope } from './window-sql.js';

export interface EntryTraffic {
  id: string;
  /** The entry's model alias and title; null for an entry deleted since. */
  model: string | null;
  title: string | null;
  requests: number;
  bytes: number;
  visitors: number;
}

export interface EntryAnalytics {
  /** Requests whose path named an entry (by a site's URL patterns). */
  requests: number;
  bytes: number;
  /** The TermCount most requested entries. */
  entries: EntryTraffic[];
  /** Entry requests of the entries not listed. */
  otherRequests: number;
}

/**
 * Traffic per entry: the log lines a site's URL patterns resolved to an entry at ingest, most
 * requested first, with each entry's model and title as they are now.
 */
export async function entryAnalytics(store: AnalyticsStore, db: Queryable, byDay: EntryTrafficByDay, scope: Scope, range: AnalyticsRange): Promise<EntryAnalytics> {
  // requests of every entry first, then visitors of the listed ones only: merging the visitor
  // states of thousands of entries cost 350 ms over 30 days at 10M rows, the sums alone a fraction
  // (and the listed entries' past days are remembered, see entry-traffic-by-day.ts)
  const rows = await queryEntryTraffic(store, scope, { visitors: false });
  const listed = rows.slice(0, range.termCount);
  const ids = listed.map((r) => r.entryId);
  const [labels, visitors] = await Promise.all([
    findEntryLabels(db, scope.orgId, ids),
    ids.length === 0 ? [] : byDay.of(scope, ids),
  ]);
  const visitorsOf = new Map(visitors.map((v) => [v.entryId, v.visitors]));
  const top = listed.map((r) => ({ ...r, visitors: visitorsOf.get(r.entryId) ?? 0 }));
  const requests = rows.reduce((n, r) => n + r.requests, 0);
  return {
    requests,
    bytes: rows.reduce((n, r) => n + r.bytes, 0),
    entries: top.map((r) => ({
      id: r.entryId,
      model: labels.get(r.entryId)?.model ?? null,
      title: labels.get(r.entryId)?.title ?? null,
      requests: r.requests,
      bytes: r.bytes,
      visitors: r.visitors,
    })),
    otherRequests: requests - top.reduce((n, r) => n + r.requests, 0),
  };
}
