/**
 * Normalization of scalar field values to their stored shapes (see model-types.ts). Each
 * function returns the stored value, or a string describing why the input is not acceptable.
 */

export const MAX_DECIMAL_DIGITS = 38;

const DECIMAL = /^([+-])?(\d*)(?:\.(\d*))?(?:[eE]([+-]?\d+))?$/;

/** A decimal (string or number) as an exact plain string: no exponent, no redundant zeros. */
export function normalizeDecimal(value: unknown): string | { problem: string } {
  let text: string;
  if (typeof value === 'number') {
    if (!Number.isFinite(value)) return { problem: 'must be a finite number' };
    text = String(value);
  } else if (typeof value === 'string') text = value.trim();
  else return { problem: 'must be a decimal number or a string holding one' };
  const m = DECIMAL.exec(text);
  if (!m || (m[2] === '' && (m[3] ?? '') === '')) return { problem: `"${text}" is not a decimal number` };
  const exponent = m[4] ? Number(m[4]) : 0;
  if (Math.abs(exponent) > 1000) return { problem: 'exponent out of range' };
  const digits = m[2] + (m[3] ?? '');
  // Position of the decimal point within `digits` after applying the exponent.
  let point = m[2].length + exponent;
  let all = digits;
  if (point < 0) {
    all = '0'.repeat(-point) + all;
    point = 0;
  }
  if (point > all.length) all = all + '0'.repeat(point - all.length);
  let intPart = all.slice(0, point).replace(/^0+/, '');
  const fracPart = all.slice(point).replace(/0+$/, '');
  const significant = (intPart + fracPart).replace(/^0+/, '').length;
  if (significant > MAX_DECIMAL_DIGITS) return { problem: `has more than ${MAX_DECIMAL_DIGITS} significant digits` };
  if (intPart === '') intPart = '0';
  const negative = m[1] === '-' && (intPart !== '0' || fracPart !== '');
  return `${negative ? '-' : ''}${intPart}${fracPart ? `.${fracPart}` : ''}`;
}

const DATETIME =
  /^(\d{4})-(\d{2})-(\d{2})(?:[Tt ](\d{2}):(\d{2})(?::(\d{2})(?:[.,](\d{1,9}))?)?([Zz]|[+-]\d{2}(?::?\d{2})?)?)?$/;

/**
 * ISO-8601 date or date-time as `YYYY-MM-DDTHH:mm:ss.sssZ` (UTC). A time needs an offset or
 * `Z` (a local time would depend on the server's zone); a bare date means midnight UTC.
 * Calendar-invalid dates (Feb 30, hour 25) are refused, not rolled over.
 */
export function normalizeDateTime(value: unknown): string | { problem: string } {
  if (typeof value !== 'string') return { problem: 'must be an ISO-8601 date-time string' };
  const m = DATETIME.exec(value.trim());
  if (!m) return { problem: `"${value}" is not an ISO-8601 date-time (e.g. 2024-05-01T12:00:00Z)` };
  const [, y, mo, d, h, mi, s, frac, zone] = m;
  if (h !== undefined && zone === undefined) return { problem: `"${value}" needs a time zone offset or "Z"` };
  const year = Number(y);
  const month = Number(mo);
  const day = Number(d);
  const hour = Number(h ?? 0);
  const minute = Number(mi ?? 0);
  const second = Number(s ?? 0);
  const ms = frac ? Number(frac.slice(0, 3).padEnd(3, '0')) : 0;
  // setUTCFullYear, unlike Date.UTC, does not map years 0–99 to 1900–1999.
  const check = new Date(0);
  check.setUTCFullYear(year, month - 1, day);
  check.setUTCHours(hour, minute, second, ms);
  const local = check.getTime();
  if (
    check.getUTCFullYear() !== year ||
    check.getUTCMonth() !== month - 1 ||
    check.getUTCDate() !== day ||
    check.getUTCHours() !== hour ||
    check.getUTCMinutes() !== minute ||
    check.getUTCSeconds() !== second
  ) {
    return { problem: `"${value}" is not a valid calendar date-time` };
  }
  let offsetMinutes = 0;
  if (zone && zone !== 'Z' && zone !== 'z') {
    const sign = zone.startsWith('-') ? -1 : 1;
    const digits = zone.slice(1).replace(':', '');
    const oh = Number(digits.slice(0, 2));
    const om = Number(digits.slice(2) || '0');
    if (oh > 23 || om > 59) return { problem: `"${value}" has an invalid offset` };
    offsetMinutes = sign * (oh * 60 + om);
  }
  const utc = new Date(local - offsetMinutes * 60_000);
  if (Number.isNaN(utc.getTime()) || utc.getUTCFullYear() < 1 || utc.getUTCFullYear() > 9999) {
    return { problem: `"${value}" is out of range (years 0001–9999)` };
  }
  return utc.toISOString();
}

export const isProblem = (v: unknown): v is { problem: string } =>
  typeof v === 'object' && v !== null && 'problem' in v;
