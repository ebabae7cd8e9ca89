import type { AnalyticsStore } from '../adapters/clickhouse/index.js';
import type { Queryable } from '../adapters/db/index.js';
import { findEntryLabels } from '../content/entry-repository.js';
import { queryEntryTop, queryEntryTraffic } from './entry-queries.js';
import { listedKey, type EntryTrafficReader } from './entry-traffic-reader.js';
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
export async function entryAnalytics(
  store: AnalyticsStore,
  db: Queryable,
  traffic: Pick<EntryTrafficReader, 'byDay' | 'listed'>,
  scope: Scope,
  range: AnalyticsRange,
): Promise<EntryAnalytics> {
  // requests of every entry first, then visitors of the listed ones only: merging the visitor
  // states of thousands of entries cost 350 ms over 30 days at 10M rows, the sums alone a fraction
  // (and the listed entries' past days are remembered, see entry-traffic-by-day.ts). The list is
  // known only once the sums are, but it is mostly the one listed last time: those entries'
  // visitors are read beside the sums, and only entries new to the list after them. Each
  // entry's figures are its own, whichever others are read with it.
  if (scope.filter) {
    // filtered: no remembered days or list (they are of the unfiltered traffic): two statements
    const top = await queryEntryTop(store, scope, range.termCount);
    const ids = top.rows.map((r) => r.entryId);
    const [labels, visitors] = await Promise.all([findEntryLabels(db, scope.orgId, ids), ids.length === 0 ? [] : queryEntryTraffic(store, scope, { entryIds: ids })]);
    return entriesOf(top, labels, new Map(visitors.map((v) => [v.entryId, v.visitors])));
  }
  const key = listedKey(scope);
  const guess = traffic.listed.get(key) ?? [];
  const [top, early] = await Promise.all([queryEntryTop(store, scope, range.termCount), guess.length === 0 ? [] : traffic.byDay.of(scope, guess)]);
  const listed = top.rows;
  const ids = listed.map((r) => r.entryId);
  traffic.listed.set(key, ids);
  const guessed = new Set(guess);
  const unread = ids.filter((id) => !guessed.has(id));
  const [labels, late] = await Promise.all([
    findEntryLabels(db, scope.orgId, ids),
    unread.length === 0 ? [] : traffic.byDay.of(scope, unread),
  ]);
  return entriesOf(top, labels, new Map([...early, ...late].map((v) => [v.entryId, v.visitors])));
}

function entriesOf(
  top: Awaited<ReturnType<typeof queryEntryTop>>,
  labels: Awaited<ReturnType<typeof findEntryLabels>>,
  visitorsOf: Map<string, number>,
): EntryAnalytics {
  const listed = top.rows;
  return {
    requests: top.requests,
    bytes: top.bytes,
    entries: listed.map((r) => ({
      id: r.entryId,
      model: labels.get(r.entryId)?.model ?? null,
      title: labels.get(r.entryId)?.title ?? null,
      requests: r.requests,
      bytes: r.bytes,
      visitors: visitorsOf.get(r.entryId) ?? 0,
    })),
    otherRequests: top.requests - listed.reduce((n, r) => n + r.requests, 0),
  };
}
