import { badRequest } from '../errors/index.js';

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

/** `compare=previous` (the only comparison offered); absent: none. */
export function parseCompare(query: Record<string, unknown>): boolean {
  const v = query.compare;
  if (v === undefined) return false;
  if (v !== 'previous') throw badRequest('compare: must be previous (the period of the same length just before).');
  return true;
}
