const HOUR = 3_600_000;
const DAY = 24 * HOUR;

export interface Span {
  fromMs: number;
  toMs: number;
}

/**
 * How a window is read: whole UTC days from the daily rollups, whole hours from the hourly ones,
 * the ragged minutes at its ends from `cdn_logs`. Every instant of [from, to) is in exactly one
 * piece.
 */
export interface RangeSplit {
  days: Span[];
  hours: Span[];
  edges: Span[];
}

/** The part of [from, to) made of whole `unit`s, if any. */
function whole(from: number, to: number, unit: number): Span | undefined {
  const a = Math.ceil(from / unit) * unit;
  const b = Math.floor(to / unit) * unit;
  return a < b ? { fromMs: a, toMs: b } : undefined;
}

/** Splits into whole units of each size in turn (largest first), the rest into `edges`. */
export function splitRange(fromMs: number, toMs: number, units: { days: boolean } = { days: true }): RangeSplit {
  const out: RangeSplit = { days: [], hours: [], edges: [] };
  const hoursAndEdges = (from: number, to: number) => {
    if (from >= to) return;
    const h = whole(from, to, HOUR);
    if (!h) {
      out.edges.push({ fromMs: from, toMs: to });
      return;
    }
    if (from < h.fromMs) out.edges.push({ fromMs: from, toMs: h.fromMs });
    out.hours.push(h);
    if (h.toMs < to) out.edges.push({ fromMs: h.toMs, toMs: to });
  };
  const d = units.days ? whole(fromMs, toMs, DAY) : undefined;
  if (!d) {
    hoursAndEdges(fromMs, toMs);
    return out;
  }
  hoursAndEdges(fromMs, d.fromMs);
  out.days.push(d);
  hoursAndEdges(d.toMs, toMs);
  return out;
}
