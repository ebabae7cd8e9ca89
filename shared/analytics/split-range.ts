const HOUR = 3_600_000;
const DAY = 24 * HOUR;

export interface Span {
  fromMs: number;
  toMs: number;
}

/**
 * How a window is read: whole UTC days from the daily rollups, whole hours from the hourly ones,
 * the ragged minutes at its ends from `cdn_logs`. Every instant of [from, to) is counted exactly
 * once: in `days`, `hours` or `edges`, or in a day of `days` whose instants outside the window
 * are taken away again by `minusHours` (whole hours, read from the hourly rollups).
 */
export interface RangeSplit {
  days: Span[];
  hours: Span[];
  /** Whole hours inside `days` but not in the window (edges excepted): subtracted. */
  minusHours: Span[];
  edges: Span[];
}

/** The part of [from, to) made of whole `unit`s, if any. */
function whole(from: number, to: number, unit: number): Span | undefined {
  const a = Math.ceil(from / unit) * unit;
  const b = Math.floor(to / unit) * unit;
  return a < b ? { fromMs: a, toMs: b } : undefined;
}

/** Joins touching spans (kept in order), so that each level reads as few ranges as possible. */
function joined(spans: Span[]): Span[] {
  const out: Span[] = [];
  for (const s of [...spans].sort((a, b) => a.fromMs - b.fromMs)) {
    const last = out.at(-1);
    if (last && last.toMs === s.fromMs) last.toMs = s.toMs;
    else out.push({ ...s });
  }
  return out;
}

/**
 * Splits into whole units of each size in turn (largest first), the rest into `edges`. With days,
 * a day the window covers most of (more than 12 whole hours) is read whole from the daily level
 * minus its hours outside the window: fewer hourly rows than its hours inside, for the same sum.
 */
export function splitRange(fromMs: number, toMs: number, units: { days: boolean; subtract?: boolean } = { days: true }): RangeSplit {
  const out: RangeSplit = { days: [], hours: [], minusHours: [], edges: [] };
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
  // [from, to) lies within one UTC day and is not all of it
  const partOfDay = (from: number, to: number) => {
    if (from >= to) return;
    const h = whole(from, to, HOUR);
    // states (percentiles, visitors) cannot be taken away: without subtraction, hours and edges
    if (!h || h.toMs - h.fromMs <= 12 * HOUR || units.subtract === false) {
      hoursAndEdges(from, to);
      return;
    }
    const day = Math.floor(from / DAY) * DAY;
    out.days.push({ fromMs: day, toMs: day + DAY });
    if (day < h.fromMs) out.minusHours.push({ fromMs: day, toMs: h.fromMs });
    if (h.toMs < day + DAY) out.minusHours.push({ fromMs: h.toMs, toMs: day + DAY });
    if (from < h.fromMs) out.edges.push({ fromMs: from, toMs: h.fromMs });
    if (h.toMs < to) out.edges.push({ fromMs: h.toMs, toMs: to });
  };
  if (!units.days) {
    hoursAndEdges(fromMs, toMs);
    return out;
  }
  const d = whole(fromMs, toMs, DAY);
  if (d) {
    partOfDay(fromMs, d.fromMs);
    out.days.push(d);
    partOfDay(d.toMs, toMs);
  } else {
    const midnight = Math.ceil(fromMs / DAY) * DAY;
    partOfDay(fromMs, Math.min(midnight, toMs));
    partOfDay(Math.max(midnight, fromMs), toMs);
  }
  out.days = joined(out.days);
  return out;
}

/** The whole UTC days of [from, to) as YYYY-MM-DD: the days a read without subtraction takes from a daily level. */
export function wholeDays(scope: { fromMs: number; toMs: number }): string[] {
  const out: string[] = [];
  for (const span of splitRange(scope.fromMs, scope.toMs, { days: true, subtract: false }).days) {
    for (let t = span.fromMs; t < span.toMs; t += DAY) out.push(new Date(t).toISOString().slice(0, 10));
  }
  return out;
}
