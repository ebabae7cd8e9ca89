import { normalizeCacheStatus } from '../cache-status.js';
import { toCount, toCountry, toPath, toQuery, toStatus, toText, toTimestampMs, toWholeCount } from '../fields.js';
import { RecordError, type LogRecord } from '../record.js';

/**
 * `serveTimeMs`, whole milliseconds; or `serveTime` in seconds, as nginx's `$request_time` and
 * most web servers log it. A fraction in `serveTimeMs` is refused: 0.123 is almost always seconds
 * sent in the milliseconds field, and rounding it would count a 123-ms request as 0.
 */
function serveTimeMsOf(o: Record<string, unknown>): number {
  if (o.serveTimeMs !== undefined && o.serveTimeMs !== null && o.serveTimeMs !== '' && o.serveTimeMs !== '-') {
    const ms = toCount(o.serveTimeMs, 'serveTimeMs', 0);
    if (!Number.isInteger(Number(o.serveTimeMs))) throw new RecordError('serveTimeMs: must be whole milliseconds (send seconds with a fraction as serveTime)');
    return ms;
  }
  const seconds = o.serveTime;
  if (seconds === undefined || seconds === null || seconds === '' || seconds === '-') return 0;
  const n = typeof seconds === 'number' ? seconds : typeof seconds === 'string' ? Number(seconds) : NaN;
  if (!Number.isFinite(n) || n < 0) throw new RecordError('serveTime: must be a non-negative number of seconds');
  return Math.round(n * 1000);
}

/** Folio's own field set: what the README's Vector and Fluent Bit configs send. */
export function fromCanonical(o: Record<string, unknown>): LogRecord {
  return {
    timestampMs: toTimestampMs(o.timestamp, 'timestamp'),
    clientIp: toText(o.clientIp),
    method: toText(o.method).toUpperCase(),
    host: toText(o.host).toLowerCase(),
    path: toPath(o.path),
    query: toQuery(o.path),
    status: toStatus(o.status, 'status'),
    bytes: toWholeCount(o.bytes, 'bytes', 0),
    serveTimeMs: serveTimeMsOf(o),
    cacheStatus: normalizeCacheStatus(o.cacheStatus),
    referer: toText(o.referer),
    userAgent: toText(o.userAgent),
    country: toCountry(o.country),
  };
}
