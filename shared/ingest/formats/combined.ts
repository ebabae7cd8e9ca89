import { normalizeCacheStatus } from '../cache-status.js';
import { isRealDate, toPath, toQuery, toStatus, toTimestampMs, toWholeCount } from '../fields.js';
import { RecordError, type LogRecord } from '../record.js';
import { decodeLogEscapes } from './log-escapes.js';

/**
 * nginx / Apache "combined" access log lines, optionally followed by the request time and the
 * cache status (nginx `$request_time $upstream_cache_status`, Apache `%D`):
 *   1.2.3.4 - - [10/Oct/2026:13:55:36 +0200] "GET /a.jpg HTTP/1.1" 200 2326 "https://r/" "UA" 0.012 HIT
 * A request time with a decimal point is in seconds (nginx), an integer in microseconds (Apache
 * %D). The combined format has no host; it stays empty. The request target, referrer and user
 * agent have their `\xHH` escapes decoded (`decodeLogEscapes`).
 */
const LINE =
  /^(\S+) \S+ \S+ \[([^\]]+)\] "(\S+) (\S+)[^"]*" (\d{3}) (\d+|-)(?: "((?:[^"\\]|\\.)*)" "((?:[^"\\]|\\.)*)")?(?: (\d+\.\d+|\d+|-))?(?: (\S+))?\s*$/;

const MONTHS: Record<string, string> = {
  Jan: '01', Feb: '02', Mar: '03', Apr: '04', May: '05', Jun: '06',
  Jul: '07', Aug: '08', Sep: '09', Oct: '10', Nov: '11', Dec: '12',
};

/** `10/Oct/2026:13:55:36 +0200` → epoch ms. */
function clfTime(text: string): number {
  const m = /^(\d{2})\/([A-Za-z]{3})\/(\d{4}):(\d{2}):(\d{2}):(\d{2})(?:\.(\d+))? ([+-])(\d{2})(\d{2})$/.exec(text);
  const month = m ? MONTHS[m[2]] : undefined;
  if (!m || !month) throw new RecordError('time: not a [dd/Mon/yyyy:hh:mm:ss +zzzz] timestamp');
  const frac = m[7] ? `.${m[7].slice(0, 3)}` : '';
  const iso = `${m[3]}-${month}-${m[1]}T${m[4]}:${m[5]}:${m[6]}${frac}${m[8]}${m[9]}:${m[10]}`;
  if (!isRealDate(iso)) throw new RecordError('time: not a real date');
  return Date.parse(iso);
}

const unescape = (s: string | undefined) => (s === undefined || s === '-' ? '' : decodeLogEscapes(s));

export function fromCombined(line: string): LogRecord {
  const m = LINE.exec(line);
  if (!m) throw new RecordError('not a recognized log line (JSON, CloudFront or nginx/Apache combined)');
  const requestTime = m[9];
  let serveTimeMs = 0;
  if (requestTime !== undefined && requestTime !== '-') {
    serveTimeMs = requestTime.includes('.') ? Math.round(Number(requestTime) * 1000) : Math.round(Number(requestTime) / 1000);
  }
  const target = decodeLogEscapes(m[4]);
  return {
    timestampMs: toTimestampMs(clfTime(m[2]), 'time'),
    clientIp: m[1],
    method: m[3].toUpperCase(),
    host: '',
    path: toPath(target),
    query: toQuery(target),
    status: toStatus(m[5], 'status'),
    bytes: toWholeCount(m[6], 'bytes', 0),
    serveTimeMs,
    cacheStatus: normalizeCacheStatus(m[10]),
    referer: unescape(m[7]),
    userAgent: unescape(m[8]),
  };
}
