import { normalizeCacheStatus } from '../cache-status.js';
import { decodeLoose, toCount, toCountry, toPath, toStatus, toText, toTimestampMs, toWholeCount } from '../fields.js';
import { RecordError, type LogRecord } from '../record.js';

/**
 * Amazon CloudFront logs, tab-separated. Standard logs (W3C) carry `#Version` and `#Fields`
 * header lines naming the columns (without them, AWS's standard order is assumed); real-time logs have no header and list the selected fields in
 * AWS's fixed order, all of them by default (a subset can be named with `?fields=`). Times are in
 * seconds; the user agent and referer are URL-encoded; `-` means empty.
 */
export const REALTIME_FIELDS = [
  'timestamp', 'c-ip', 'time-to-first-byte', 'sc-status', 'sc-bytes', 'cs-method', 'cs-protocol', 'cs-host',
  'cs-uri-stem', 'cs-bytes', 'x-edge-location', 'x-edge-request-id', 'x-host-header', 'time-taken',
  'cs-protocol-version', 'c-ip-version', 'cs-user-agent', 'cs-referer', 'cs-cookie', 'cs-uri-query',
  'x-edge-response-result-type', 'x-forwarded-for', 'ssl-protocol', 'ssl-cipher', 'x-edge-result-type',
  'fle-encrypted-fields', 'fle-status', 'sc-content-type', 'sc-content-len', 'sc-range-start', 'sc-range-end',
  'c-port', 'x-edge-detailed-result-type', 'c-country', 'cs-accept-encoding', 'cs-accept',
  'cache-behavior-path-pattern', 'cs-headers', 'cs-header-names', 'cs-headers-count',
];

/**
 * The standard (legacy) log's fields in AWS's fixed order, for lines that arrive without the
 * file's `#Fields:` header (a shipper that splits a file into batches sends it only once).
 */
export const STANDARD_FIELDS = [
  'date', 'time', 'x-edge-location', 'sc-bytes', 'c-ip', 'cs-method', 'cs(host)', 'cs-uri-stem', 'sc-status', 'cs(referer)',
  'cs(user-agent)', 'cs-uri-query', 'cs(cookie)', 'x-edge-result-type', 'x-edge-request-id', 'x-host-header', 'cs-protocol',
  'cs-bytes', 'time-taken', 'x-forwarded-for', 'ssl-protocol', 'ssl-cipher', 'x-edge-response-result-type',
  'cs-protocol-version', 'fle-status', 'fle-encrypted-fields', 'c-port', 'time-to-first-byte', 'x-edge-detailed-result-type',
  'sc-content-type', 'sc-content-len', 'sc-range-start', 'sc-range-end',
];

/** A standard-log data line starts with its date and time columns. */
export const looksStandard = (line: string) => /^\d{4}-\d{2}-\d{2}\t\d{2}:\d{2}:\d{2}\t/.test(line);

/** Column name → index, from a `#Fields:` line or a field list. */
export type Columns = Map<string, number>;

export function columnsOf(names: readonly string[]): Columns {
  return new Map(names.map((n, i) => [n.trim().toLowerCase(), i]));
}

/** Parses a `#Fields: date time …` header line. */
export function columnsFromHeader(line: string): Columns {
  return columnsOf(line.slice(line.indexOf(':') + 1).trim().split(/\s+/));
}

/** One data line of a standard (W3C) or real-time log, read through `columns`. */
export function fromCloudFront(line: string, columns: Columns): LogRecord {
  const cells = line.split('\t');
  const get = (...names: string[]): string | undefined => {
    for (const n of names) {
      const i = columns.get(n);
      if (i !== undefined && i < cells.length && cells[i] !== '-') return cells[i];
    }
    return undefined;
  };
  let timestampMs: number;
  if (columns.has('date')) {
    const date = get('date');
    const time = get('time');
    if (!date || !time) throw new RecordError('date/time: required');
    timestampMs = toTimestampMs(`${date}T${time}Z`, 'date/time');
  } else {
    timestampMs = toTimestampMs(get('timestamp'), 'timestamp');
  }
  const seconds = get('time-taken');
  return {
    timestampMs,
    clientIp: toText(get('c-ip')),
    method: toText(get('cs-method')).toUpperCase(),
    host: toText(get('x-host-header', 'cs(host)', 'cs-host')).toLowerCase(),
    path: toPath(get('cs-uri-stem')),
    query: toText(get('cs-uri-query')),
    status: toStatus(get('sc-status'), 'sc-status'),
    bytes: toWholeCount(get('sc-bytes'), 'sc-bytes', 0),
    serveTimeMs: seconds === undefined ? 0 : Math.round(toCount(Number(seconds) * 1000, 'time-taken')),
    cacheStatus: normalizeCacheStatus(get('x-edge-result-type')),
    referer: decodeLoose(toText(get('cs(referer)', 'cs-referer'))),
    userAgent: decodeLoose(toText(get('cs(user-agent)', 'cs-user-agent'))),
    country: toCountry(get('c-country')),
  };
}
