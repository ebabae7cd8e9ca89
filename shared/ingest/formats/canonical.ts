import { normalizeCacheStatus } from '../cache-status.js';
import { toCount, toCountry, toPath, toStatus, toText, toTimestampMs } from '../fields.js';
import type { LogRecord } from '../record.js';

/** Folio's own field set: what the README's Vector and Fluent Bit configs send. */
export function fromCanonical(o: Record<string, unknown>): LogRecord {
  return {
    timestampMs: toTimestampMs(o.timestamp, 'timestamp'),
    clientIp: toText(o.clientIp),
    method: toText(o.method).toUpperCase(),
    host: toText(o.host).toLowerCase(),
    path: toPath(o.path),
    status: toStatus(o.status, 'status'),
    bytes: toCount(o.bytes, 'bytes', 0),
    serveTimeMs: toCount(o.serveTimeMs, 'serveTimeMs', 0),
    cacheStatus: normalizeCacheStatus(o.cacheStatus),
    referer: toText(o.referer),
    userAgent: toText(o.userAgent),
    country: toCountry(o.country),
  };
}
