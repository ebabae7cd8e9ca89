import { badRequest } from '../errors/index.js';
import { minutesKept, parseTime, tooManyIntervals, type AnalyticsRange } from './range.js';

// The change of every figure of a report against the same report over another period.

/** A figure's change: null relative where the previous figure is 0. */
export interface Change {
  absolute: number;
  relative: number | null;
}

export type Changes = Change | { [key: string]: Changes };

const isRecord = (v: unknown): v is Record<string, unknown> => typeof v === 'object' && v !== null && !Array.isArray(v);

/** What names a list's item across the two periods (a bucket's name, an entry's or asset's id). */
const keyOf = (item: unknown): string | null => (isRecord(item) ? (typeof item.name === 'string' ? item.name : typeof item.id === 'string' ? item.id : null) : null);

function change(current: number, previous: number): Change {
  const absolute = current - previous;
  return { absolute, relative: previous === 0 ? null : Math.round((absolute / previous) * 10_000) / 10_000 };
}

/**
 * Per figure of `current`: numbers compared with the same field of `previous`; objects field by
 * field; lists of named items (buckets, entries, assets) item by item, for the items listed in
 * both periods (an item outside the previous top list has no known previous figure). Lists of
 * intervals are left out: their times differ between the periods.
 */
export function changeOf(current: unknown, previous: unknown): Changes | null {
  if (typeof current === 'number' && typeof previous === 'number') return change(current, previous);
  if (isRecord(current) && isRecord(previous)) {
    const out: Record<string, Changes> = {};
    for (const [k, v] of Object.entries(current)) {
      const c = changeOf(v, previous[k]);
      if (c !== null) out[k] = c;
    }
    return Object.keys(out).length === 0 ? null : out;
  }
  if (Array.isArray(current) && Array.isArray(previous)) {
    const before = new Map(previous.map((p) => [keyOf(p), p]));
    const out: Record<string, Changes> = {};
    for (const item of current) {
      const key = keyOf(item);
      if (key === null || !before.has(key)) continue;
      const c = changeOf(item, before.get(key));
      if (c !== null) out[key] = c;
    }
    return Object.keys(out).length === 0 ? null : out;
  }
  return null;
}

/** What a report is compared with: the period of the same length just before, or a given one. */
export type Comparison = { kind: 'previous' } | { kind: 'range'; fromMs: number; toMs: number };

const COMPARE_HELP = 'compare: must be previous (the period of the same length just before) or a period from/to, e.g. 2026-01-01T00:00:00Z/2026-01-08T00:00:00Z.';

/**
 * `compare=previous`, or `compare=<from>/<to>` (an ISO-8601 interval of two instants, `to`
 * exclusive) read with the report's own interval; absent: none.
 */
export function parseCompare(query: Record<string, unknown>, range: AnalyticsRange, now = Date.now()): Comparison | null {
  const v = query.compare;
  if (v === undefined) return null;
  if (typeof v !== 'string') throw badRequest('compare: give the parameter once.');
  if (v === 'previous') return { kind: 'previous' };
  const parts = v.split('/');
  if (parts.length !== 2) throw badRequest(COMPARE_HELP);
  const fromMs = parseTime(parts[0], 'compare');
  const toMs = parseTime(parts[1], 'compare');
  if (fromMs >= toMs) throw badRequest('compare: the period must start before it ends.');
  if (tooManyIntervals({ fromMs, toMs, interval: range.interval })) throw badRequest('compare: the period holds too many intervals of the report; choose a coarser intervalType.');
  if (range.interval === 'minute' && (toMs - fromMs > 48 * 3_600_000 || !minutesKept(fromMs, now))) {
    throw badRequest('compare: by the minute, the period must be at most 48 hours within the last 7 days.');
  }
  return { kind: 'range', fromMs, toMs };
}

/**
 * The period a report is compared with: the given one, or the one of the same length just
 * before (cut at 1970, when log times start); null when the window starts at 1970 and has none.
 */
export function comparedPeriod(range: Pick<AnalyticsRange, 'fromMs' | 'toMs'>, comparison: Comparison): { fromMs: number; toMs: number } | null {
  if (comparison.kind === 'range') return { fromMs: comparison.fromMs, toMs: comparison.toMs };
  if (range.fromMs === 0) return null;
  return { fromMs: Math.max(0, range.fromMs - (range.toMs - range.fromMs)), toMs: range.fromMs };
}
