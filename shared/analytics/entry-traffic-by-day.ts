import { LRUCache } from 'lru-cache';
import type { AnalyticsStore } from '../adapters/clickhouse/index.js';
import { queryEntryDays, queryEntryTraffic, type EntryDayRow, type EntryTrafficRow } from './entry-queries.js';
import { wholeDays } from './split-range.js';
import type { Scope } from './window-sql.js';

/** Entry-days remembered per process (about 100 bytes each). */
const REMEMBERED_DAYS = 200_000;

type DayFigures = Pick<EntryDayRow, 'requests' | 'bytes' | 'visitors'>;
const NONE: DayFigures = { requests: 0, bytes: 0, visitors: 0 };

/**
 * Requests, bytes and unique visitors of given entries over a window, as `queryEntryTraffic`
 * answers them, with each entry's whole past days remembered. Merging visitor states is most of
 * such a read (a popular entry's day holds tens of thousands of keys), and a day's figures stay
 * what they are until lines of that day arrive late. So a remembered entry-day is used as long as
 * its requests in the rollup are still those it was remembered with — a cheap read of one column
 * that runs beside the read of the window's ragged ends; one whose requests changed is read again.
 * One per process, made in Services.
 */
export interface EntryTrafficByDay {
  of(scope: Scope, entryIds: readonly string[]): Promise<EntryTrafficRow[]>;
}

export function createEntryTrafficByDay(store: AnalyticsStore): EntryTrafficByDay {
  const remembered = new LRUCache<string, DayFigures>({ max: REMEMBERED_DAYS });

  return {
    async of(scope, entryIds) {
      const ids = [...new Set(entryIds)];
      const days = wholeDays(scope);
      if (ids.length === 0 || days.length === 0) return queryEntryTraffic(store, scope, { entryIds: ids });
      const keyOf = (id: string, day: string) => `${scope.orgId}\0${scope.distributionId ?? ''}\0${scope.excludeBots ? 1 : 0}\0${id}\0${day}`;
      const known = new Map<string, DayFigures>();
      const hits: Array<[string, string]> = [];
      const missing: Array<[string, string]> = [];
      for (const id of ids) {
        for (const day of days) {
          const hit = remembered.get(keyOf(id, day));
          if (hit) {
            known.set(keyOf(id, day), hit);
            hits.push([id, day]);
          } else missing.push([id, day]);
        }
      }
      const crossed = (pairs: Array<[string, string]>) => ({ ids: [...new Set(pairs.map(([id]) => id))], days: [...new Set(pairs.map(([, day]) => day))] });
      const read = async (pairs: Array<[string, string]>) => {
        if (pairs.length === 0) return;
        // the entries and days of the pairs, crossed: a few pairs more than asked, in one read
        const c = crossed(pairs);
        const rows = new Map((await queryEntryDays(store, scope, c.ids, c.days, { visitors: true })).map((r) => [keyOf(r.entryId, r.day), r]));
        for (const id of c.ids) {
          for (const day of c.days) {
            const r = rows.get(keyOf(id, day));
            const figures = r ? { requests: r.requests, bytes: r.bytes, visitors: r.visitors } : NONE;
            known.set(keyOf(id, day), figures);
            remembered.set(keyOf(id, day), figures);
          }
        }
      };
      const checked = crossed(hits);
      const [edges, , counts] = await Promise.all([
        queryEntryTraffic(store, scope, { entryIds: ids, wholeDays: false }),
        read(missing),
        queryEntryDays(store, scope, checked.ids, checked.days, { visitors: false }),
      ]);
      // lines that arrived late for a remembered day: that day is read again
      const now = new Map(counts.map((r) => [keyOf(r.entryId, r.day), r.requests]));
      await read(hits.filter(([id, day]) => known.get(keyOf(id, day))!.requests !== (now.get(keyOf(id, day)) ?? 0)));

      const total = new Map<string, EntryTrafficRow>(edges.map((r) => [r.entryId, { ...r }]));
      for (const id of ids) {
        for (const day of days) {
          const f = known.get(keyOf(id, day))!;
          if (f.requests === 0) continue;
          const t = total.get(id) ?? { entryId: id, requests: 0, bytes: 0, visitors: 0 };
          t.requests += f.requests;
          t.bytes += f.bytes;
          t.visitors += f.visitors; // a visitor key is one UTC day's: days add up
          total.set(id, t);
        }
      }
      return [...total.values()].sort((a, b) => b.requests - a.requests || (a.entryId < b.entryId ? -1 : a.entryId > b.entryId ? 1 : 0));
    },
  };
}
