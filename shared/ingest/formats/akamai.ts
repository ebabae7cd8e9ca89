import { normalizeCacheStatus } from '../cache-status.js';
import { decodeLoose, toCount, toCountry, toPath, toStatus, toText, toTimestampMs, toWholeCount } from '../fields.js';
import type { LogRecord } from '../record.js';

/**
 * Akamai DataStream 2, JSON log format. Every value arrives as a string; the user agent and
 * referer are URL-encoded; `cacheStatus` is 1 when served from the edge cache. Serve time is the
 * turnaround time (request in → first byte out) plus the transfer time.
 */
export function fromAkamai(o: Record<string, unknown>): LogRecord {
  return {
    timestampMs: toTimestampMs(o.reqTimeSec, 'reqTimeSec'),
    clientIp: toText(o.cliIP),
    method: toText(o.reqMethod).toUpperCase(),
    host: toText(o.reqHost).toLowerCase(),
    path: toPath(o.reqPath),
    query: toText(o.queryStr).replace(/^\?/, ''),
    status: toStatus(o.statusCode, 'statusCode'),
    bytes: toWholeCount(o.totalBytes ?? o.bytes, 'bytes', 0),
    serveTimeMs: toCount(o.turnAroundTimeMSec, 'turnAroundTimeMSec', 0) + toCount(o.transferTimeMSec, 'transferTimeMSec', 0),
    cacheStatus: normalizeCacheStatus(o.cacheStatus),
    referer: decodeLoose(toText(o.referer)),
    userAgent: decodeLoose(toText(o.UA)),
    country: toCountry(o.country),
  };
}
