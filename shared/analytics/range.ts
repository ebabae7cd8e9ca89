import { badRequest } from '../errors/index.js';

export type Interval = 'minute' | 'hour' | 'day' | 'month';

/** The time window and granularity of one analytics request; `to` is exclusive. */
export interface AnalyticsRange {
  fromMs: number;
  toMs: number;
  interval: Interval;
  termCount: number;
  /** Leave out requests whose user agent is a bot's (`excludeBots=true`). */
  excludeBots: boolean;
}

const MINUTE = 60_000;
const HOUR = 3_600_000;
const DAY = 24 * HOUR;
/** `intervalType` codes: 1 hourly, 2 daily, 3 monthly (the original three), 4 by the minute. */
const INTERVAL_BY_TYPE: Record<string, Interval> = { '1': 'hour', '2': 'day', '3': 'month', '4': 'minute' };
/** Minute figures are kept this long (the TTL of `cdn_minutes`) and asked for windows up to 48 h. */
const MINUTE_DAYS = 7;
const MINUTE_WINDOW_MS = 48 * HOUR;
/** Upper bound on zero-filled intervals in one answer (ten years of days; hourly for ~14 months). */
const MAX_INTERVALS = 10_000;
/** ClickHouse's DateTime (seconds since 1970 in a UInt32, to 2106-02-07) holds every log time: a window outside it is refused. */
const EARLIEST_MS = 0;
const LATEST_MS = Date.UTC(2106, 0, 1); // a day's default window after it still fits

type Query = Record<string, unknown>;

function single(query: Query, ...names: string[]): string | undefined {
  for (const name of names) {
    const v = query[name];
    if (v === undefined) continue;
    if (typeof v !== 'string') throw badRequest(`${name}: give the parameter once.`);
    return v;
  }
  return undefined;
}

export function parseTime(value: string, name: string): number {
  // ISO-8601 date or date-time; a bare date is midnight UTC
  if (!/^\d{4}-\d{2}-\d{2}([T ]\d{2}:\d{2}(:\d{2}(\.\d+)?)?(Z|[+-]\d{2}:?\d{2})?)?$/.test(value)) {
    throw badRequest(`${name}: must be an ISO-8601 date-time, e.g. 2026-01-31T00:00:00Z.`);
  }
  // Date.parse rolls 2026-02-30 over into March: check the calendar date and clock ourselves
  const [y, mo, d, h = 0, mi = 0, sec = 0] = (value.match(/\d+/g) ?? []).map(Number);
  if (mo < 1 || mo > 12 || d < 1 || d > new Date(Date.UTC(y, mo, 0)).getUTCDate() || h > 23 || mi > 59 || sec > 59) {
    throw badRequest(`${name}: not a valid date-time.`);
  }
  const hasZone = /(Z|[+-]\d{2}:?\d{2})$/.test(value) && value.length > 10;
  const ms = Date.parse(hasZone || value.length === 10 ? value : `${value}Z`);
  if (!Number.isFinite(ms)) throw badRequest(`${name}: not a valid date-time.`);
  if (ms < EARLIEST_MS || ms > LATEST_MS) throw badRequest(`${name}: must lie between 1970-01-01 and 2106-01-01 (the range of log timestamps).`);
  return ms;
}

/** `true` or `false` (absent: false). */
function parseFlag(value: string | undefined, name: string): boolean {
  if (value === undefined || value === 'false') return false;
  if (value === 'true') return true;
  throw badRequest(`${name}: must be true or false.`);
}

/** First instant of the interval holding `ms` (UTC). */
export function floorTo(interval: Interval, ms: number): number {
  if (interval === 'minute') return Math.floor(ms / MINUTE) * MINUTE;
  if (interval === 'hour') return Math.floor(ms / HOUR) * HOUR;
  if (interval === 'day') return Math.floor(ms / DAY) * DAY;
  const d = new Date(ms);
  return Date.UTC(d.getUTCFullYear(), d.getUTCMonth(), 1);
}

export function nextInterval(interval: Interval, ms: number): number {
  if (interval === 'minute') return ms + MINUTE;
  if (interval === 'hour') return ms + HOUR;
  if (interval === 'day') return ms + DAY;
  const d = new Date(ms);
  return Date.UTC(d.getUTCFullYear(), d.getUTCMonth() + 1, 1);
}

/** Interval starts covering [from, to), for zero-filling. */
export function intervalStarts(range: Pick<AnalyticsRange, 'fromMs' | 'toMs' | 'interval'>): number[] {
  const out: number[] = [];
  for (let t = floorTo(range.interval, range.fromMs); t < range.toMs; t = nextInterval(range.interval, t)) out.push(t);
  return out;
}

/**
 * Reads `from`, `to`, `intervalType`, `TermCount` and `excludeBots`: the last 24 h by default;
 * interval 1 hourly, 2 daily, 3 monthly, 4 by the minute, or chosen from the span (never minutes);
 * 7 buckets, at most 100; bots included unless `excludeBots=true`.
 */
export function parseAnalyticsQuery(query: Query, now = Date.now()): AnalyticsRange {
  const fromText = single(query, 'from');
  const toText = single(query, 'to');
  let toMs = toText !== undefined ? parseTime(toText, 'to') : undefined;
  let fromMs = fromText !== undefined ? parseTime(fromText, 'from') : undefined;
  if (toMs === undefined) toMs = fromMs !== undefined && fromMs >= now ? fromMs + DAY : now;
  fromMs ??= toMs - DAY;
  if (fromMs >= toMs) throw badRequest('from: must be earlier than to.');

  const typeText = single(query, 'intervalType');
  let interval: Interval;
  if (typeText === undefined) {
    const span = toMs - fromMs;
    interval = span <= 48 * HOUR ? 'hour' : span <= 92 * DAY ? 'day' : 'month';
  } else {
    const chosen = INTERVAL_BY_TYPE[typeText.trim()];
    if (!chosen) throw badRequest('intervalType: must be 1 (hourly), 2 (daily), 3 (monthly) or 4 (by the minute).');
    interval = chosen;
  }
  if (interval === 'minute') {
    if (toMs - fromMs > MINUTE_WINDOW_MS) throw badRequest('intervalType: 4 (by the minute) is for windows of up to 48 hours.');
    if (fromMs < now - MINUTE_DAYS * DAY) throw badRequest(`intervalType: 4 (by the minute): minute figures are kept for ${MINUTE_DAYS} days; from lies before that.`);
  }
  const excludeBots = parseFlag(single(query, 'excludeBots'), 'excludeBots');

  const termText = single(query, 'TermCount', 'termCount');
  let termCount = 7;
  if (termText !== undefined) {
    termCount = Number(termText);
    if (!/^\d+$/.test(termText.trim()) || termCount < 1 || termCount > 100) {
      throw badRequest('TermCount: must be an integer from 1 to 100.');
    }
  }
  const range = { fromMs, toMs, interval, termCount, excludeBots };
  if (tooManyIntervals(range)) throw badRequest(`The range holds more than ${MAX_INTERVALS} intervals; choose a coarser intervalType.`);
  return range;
}

/** Whether [from, to) holds more intervals than one answer zero-fills. */
export function tooManyIntervals(range: Pick<AnalyticsRange, 'fromMs' | 'toMs' | 'interval'>): boolean {
  let n = 0;
  for (let t = floorTo(range.interval, range.fromMs); t < range.toMs && n <= MAX_INTERVALS; t = nextInterval(range.interval, t)) n++;
  return n > MAX_INTERVALS;
}

/** Whether minute figures are still kept for a window starting at `fromMs`. */
export const minutesKept = (fromMs: number, now: number): boolean => fromMs >= now - MINUTE_DAYS * DAY;
