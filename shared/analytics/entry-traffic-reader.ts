import { LRUCache } from 'lru-cache';
import type { AnalyticsStore } from '../adapters/clickhouse/index.js';
import { isAppError, serviceUnavailable } from '../errors/index.js';
import { createEntryTrafficByDay, type EntryTrafficByDay } from './entry-traffic-by-day.js';
import { queryEntryTraffic } from './entry-queries.js';

const DAY_MS = 86_400_000;
/** The window `order: { system: { traffic: DESC } }` ranks by: the last 7 days, people only. */
export const RANKING_DAYS = 7;
/** How long a ranking is reused: "most read" lists do not need to be fresher than a minute. */
const RANKING_MS = 60_000;
/** Entries a ranking holds: any entry past them counts as no traffic. */
export const RANKING_SIZE = 5_000;

export interface EntryFigures {
  requests: number;
  visitors: number;
  bytes: number;
}

/**
 * Traffic per entry for the delivery API (`system.traffic`, ordering by traffic), across every
 * distribution of the organization, and the figures of the entries report. One per process,
 * made in Services (it remembers rankings, and entries' past days).
 */
export interface EntryTrafficReader {
  /** Figures of given entries over a window, with their past days remembered (see entry-traffic-by-day.ts); unguarded. */
  readonly byDay: EntryTrafficByDay;
  /**
   * The entries the entries report listed last, per organization, distribution and bots kept or
   * left out (see `listedKey`): the next report reads their visitors beside its sums.
   */
  readonly listed: ListedEntries;
  /** Requests per entry over the last RANKING_DAYS days, without bots; the RANKING_SIZE most requested. */
  ranking(orgId: string): Promise<ReadonlyMap<string, number>>;
  /** Figures of `entryIds` over [fromMs, toMs); an entry without traffic is absent. */
  of(orgId: string, entryIds: readonly string[], window: { fromMs: number; toMs: number; excludeBots: boolean }): Promise<Map<string, EntryFigures>>;
}

/** The entries one report listed, remembered for the next (at most LISTED_SCOPES scopes). */
export interface ListedEntries {
  get(key: string): readonly string[] | undefined;
  set(key: string, entryIds: readonly string[]): void;
}

const LISTED_SCOPES = 10_000;

/** Whose list: the organization, the distribution (all when null) and whether bots are left out. */
export const listedKey = (scope: { orgId: string; distributionId: string | null; excludeBots?: boolean }) =>
  `${scope.orgId}\0${scope.distributionId ?? ''}\0${scope.excludeBots ? 1 : 0}`;

/** Any failure of the store as the catalogue's 503: content delivery goes on, the traffic figures wait. */
async function guarded<T>(read: () => Promise<T>): Promise<T> {
  try {
    return await read();
  } catch (err) {
    if (isAppError(err)) throw err;
    throw serviceUnavailable(`Traffic figures are unavailable: ${err instanceof Error ? err.message.split('\n')[0] : String(err)}.`);
  }
}

export function createEntryTrafficReader(store: AnalyticsStore): EntryTrafficReader {
  const rankings = new LRUCache<string, ReadonlyMap<string, number>>({ max: 10_000, ttl: RANKING_MS });
  const byDay = createEntryTrafficByDay(store);
  return {
    byDay,
    listed: new LRUCache<string, readonly string[]>({ max: LISTED_SCOPES }),
    async ranking(orgId) {
      const hit = rankings.get(orgId);
      if (hit) return hit;
      const toMs = Date.now();
      const rows = await guarded(() =>
        queryEntryTraffic(store, { orgId, distributionId: null, fromMs: toMs - RANKING_DAYS * DAY_MS, toMs, excludeBots: true }, { limit: RANKING_SIZE, visitors: false }),
      );
      const ranking = new Map(rows.map((r) => [r.entryId, r.requests]));
      rankings.set(orgId, ranking);
      return ranking;
    },
    async of(orgId, entryIds, window) {
      const rows = await guarded(() => byDay.of({ orgId, distributionId: null, ...window }, entryIds));
      return new Map(rows.map((r) => [r.entryId, { requests: r.requests, visitors: r.visitors, bytes: r.bytes }]));
    },
  };
}
