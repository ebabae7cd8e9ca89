import { RecordError } from './record.js';

/**
 * Field conversions shared by the format mappers. Each throws a RecordError naming the field,
 * so a rejected line says why.
 */

// Plausible log times: 2000-01-01 to 2100-01-01, in ms.
const MIN_MS = 946_684_800_000;
const MAX_MS = 4_102_444_800_000;

const digit = (s: string, i: number) => s.charCodeAt(i) - 48;
const two = (s: string, i: number) => digit(s, i) * 10 + digit(s, i + 1);

/**
 * The common shape `YYYY-MM-DDTHH:MM:SS[.fff…]Z` read without Date.parse (it is on the path of
 * every line); NaN when the text has another shape.
 */
function fastIsoUtc(s: string): number {
  const n = s.length;
  if (n < 20 || s.charCodeAt(n - 1) !== 90 /* Z */ || s.charCodeAt(4) !== 45 || s.charCodeAt(10) !== 84 || s.charCodeAt(13) !== 58) {
    return NaN;
  }
  const year = two(s, 0) * 100 + two(s, 2);
  const month = two(s, 5);
  const day = two(s, 8);
  const hour = two(s, 11);
  const minute = two(s, 14);
  const second = two(s, 17);
  let ms = 0;
  if (n > 20) {
    if (s.charCodeAt(19) !== 46 /* . */) return NaN;
    const frac = s.slice(20, n - 1);
    if (!/^\d{1,9}$/.test(frac)) return NaN;
    ms = Math.floor(Number(frac.padEnd(3, '0').slice(0, 3)));
  }
  if (!(month >= 1 && month <= 12 && day >= 1 && day <= 31 && hour <= 23 && minute <= 59 && second <= 60)) return NaN;
  const t = Date.UTC(year, month - 1, day, hour, minute, second, ms);
  // Date.UTC rolls 2026-02-30 over into March: such a date is invalid, not a different day
  return new Date(t).getUTCDate() === day ? t : NaN;
}

const ISO_DATE = /^(\d{4})-(\d{2})-(\d{2})/;

/**
 * False for a calendar date that does not exist (2026-02-30): Date.parse rolls it over into
 * March instead of refusing it. Text that does not start with a YYYY-MM-DD date passes.
 */
export function isRealDate(text: string): boolean {
  const m = ISO_DATE.exec(text);
  if (!m) return true;
  const year = Number(m[1]);
  const month = Number(m[2]);
  const day = Number(m[3]);
  return month >= 1 && month <= 12 && day >= 1 && day <= new Date(Date.UTC(year, month, 0)).getUTCDate();
}

/** ISO-8601 / RFC 3339 text, or a Unix time in s, ms, µs or ns (number or numeric string). */
export function toTimestampMs(value: unknown, field: string): number {
  let ms: number;
  if (typeof value === 'string' && value.length >= 20 && value.charCodeAt(value.length - 1) === 90) {
    ms = fastIsoUtc(value);
    if (Number.isNaN(ms) && isRealDate(value)) ms = Date.parse(value);
  } else if (typeof value === 'number' || (typeof value === 'string' && /^\d+(\.\d+)?$/.test(value))) {
    const n = Number(value);
    // choose the unit by magnitude: seconds ~1e9, ms ~1e12, µs ~1e15, ns ~1e18
    ms = n < 1e11 ? n * 1000 : n < 1e14 ? n : n < 1e17 ? n / 1000 : n / 1e6;
  } else if (typeof value === 'string' && value !== '') {
    ms = isRealDate(value) ? Date.parse(value) : NaN;
  } else {
    throw new RecordError(`${field}: required`);
  }
  if (!Number.isFinite(ms) || ms < MIN_MS || ms > MAX_MS) throw new RecordError(`${field}: not a valid timestamp`);
  return Math.floor(ms);
}

/** A non-negative integer from a number or numeric string; `-`, '' and absent give `fallback`. */
export function toCount(value: unknown, field: string, fallback?: number): number {
  if (value === undefined || value === null || value === '' || value === '-') {
    if (fallback !== undefined) return fallback;
    throw new RecordError(`${field}: required`);
  }
  const n = typeof value === 'number' ? value : typeof value === 'string' ? Number(value) : NaN;
  if (!Number.isFinite(n) || n < 0) throw new RecordError(`${field}: must be a non-negative number`);
  return Math.round(n);
}

/**
 * A count of whole things (bytes): as `toCount`, but a fraction is refused instead of rounded —
 * `1.5` bytes is a broken shipper, not a number to guess at.
 */
export function toWholeCount(value: unknown, field: string, fallback?: number): number {
  const n = toCount(value, field, fallback);
  if (value !== undefined && value !== null && value !== '' && value !== '-' && !Number.isInteger(Number(value))) throw new RecordError(`${field}: must be a whole number`);
  return n;
}

export function toStatus(value: unknown, field: string): number {
  const n = toCount(value, field);
  if (n < 100 || n > 599) throw new RecordError(`${field}: not an HTTP status`);
  return n;
}

/** A string field; absent, null and `-` give ''. */
export function toText(value: unknown): string {
  if (value === undefined || value === null || value === '-') return '';
  return typeof value === 'string' ? value : String(value);
}

/** The path of a request target: query string and fragment dropped, `/` when empty. */
export function toPath(value: unknown): string {
  const text = toText(value);
  const q = text.indexOf('?');
  const h = text.indexOf('#');
  const cut = q === -1 ? h : h === -1 ? q : Math.min(q, h);
  const path = cut === -1 ? text : text.slice(0, cut);
  if (path === '') return '/';
  if (path.charCodeAt(0) === 47 /* / */) return path;
  // an absolute-form target (proxy logs) keeps only its path
  if (/^[a-z][a-z0-9+.-]*:\/\//i.test(path)) {
    const slash = path.indexOf('/', path.indexOf('//') + 2);
    return slash === -1 ? '/' : path.slice(slash);
  }
  return path.startsWith('/') ? path : `/${path}`;
}

/** The query string of a request target (without `?` and fragment); '' when none. */
export function toQuery(value: unknown): string {
  const text = toText(value);
  const q = text.indexOf('?');
  if (q === -1) return '';
  const h = text.indexOf('#', q);
  return h === -1 ? text.slice(q + 1) : text.slice(q + 1, h);
}

/** A two-letter country code when the value looks like one, otherwise undefined. */
export function toCountry(value: unknown): string | undefined {
  const text = toText(value).trim().toUpperCase();
  return /^[A-Z]{2}$/.test(text) && text !== 'XX' ? text : undefined;
}

/** Percent-decoding that leaves malformed escapes as they are (CloudFront, Akamai encode UAs). */
export function decodeLoose(value: string): string {
  if (!value.includes('%')) return value;
  try {
    return decodeURIComponent(value);
  } catch {
    return value;
  }
}
