import pg from 'pg';

export const TIMESTAMPTZ = 1184;
const parsePostgresDate = pg.types.getTypeParser(TIMESTAMPTZ, 'text') as (s: string) => Date | number | null;

const two = (s: string, i: number) => (s.charCodeAt(i) - 48) * 10 + s.charCodeAt(i + 1) - 48;
const isDigit = (c: number) => c >= 48 && c <= 57;

/**
 * Postgres's text form of a timestamptz (`2024-03-05 12:34:56.789123+00`, DateStyle ISO) as a
 * Date. The common shape is read digit by digit, about five times faster than pg's regular
 * expressions (a page of 20 entries carries a hundred timestamps); anything else — other years,
 * BC, infinity, offsets with seconds — goes to pg's own parser.
 */
export function parseTimestamptz(s: string): Date | number | null {
  const n = s.length;
  if (n < 22 || s.charCodeAt(4) !== 45 || s.charCodeAt(7) !== 45 || s.charCodeAt(10) !== 32 || s.charCodeAt(13) !== 58 || s.charCodeAt(16) !== 58) {
    return parsePostgresDate(s);
  }
  const year = two(s, 0) * 100 + two(s, 2);
  // Date.UTC reads years 0–99 as 1900–1999
  if (year < 100) return parsePostgresDate(s);
  let i = 19;
  let ms = 0;
  if (s.charCodeAt(i) === 46) {
    let scale = 100;
    for (i++; i < n && isDigit(s.charCodeAt(i)); i++, scale /= 10) ms += (s.charCodeAt(i) - 48) * scale;
  }
  const sign = s.charCodeAt(i);
  // ±HH or ±HH:MM, and nothing after it
  const end = s.charCodeAt(i + 3) === 58 ? i + 6 : i + 3;
  if ((sign !== 43 && sign !== 45) || end !== n) return parsePostgresDate(s);
  const offsetMinutes = two(s, i + 1) * 60 + (end === i + 6 ? two(s, i + 4) : 0);
  const local = Date.UTC(year, two(s, 5) - 1, two(s, 8), two(s, 11), two(s, 14), two(s, 17), Math.trunc(ms));
  return new Date(local - (sign === 43 ? offsetMinutes : -offsetMinutes) * 60_000);
}
