import { normalizeCacheStatus } from '../cache-status.js';
import { toCount, toCountry, toPath, toQuery, toStatus, toText, toTimestampMs, toWholeCount } from '../fields.js';
import type { LogRecord } from '../record.js';

/**
 * Cloudflare Logpush, dataset `http_requests` (any `timestamps` option: rfc3339, unix, unixnano).
 * Serve time is EdgeTimeToFirstByteMs, or the edge start/end difference when that is not logged.
 */
export function fromCloudflare(o: Record<string, unknown>): LogRecord {
  const start = toTimestampMs(o.EdgeStartTimestamp, 'EdgeStartTimestamp');
  let serve = toCount(o.EdgeTimeToFirstByteMs, 'EdgeTimeToFirstByteMs', -1);
  if (serve < 0) serve = o.EdgeEndTimestamp === undefined ? 0 : Math.max(0, toTimestampMs(o.EdgeEndTimestamp, 'EdgeEndTimestamp') - start);
  return {
    timestampMs: start,
    clientIp: toText(o.ClientIP),
    method: toText(o.ClientRequestMethod).toUpperCase(),
    host: toText(o.ClientRequestHost).toLowerCase(),
    path: toPath(o.ClientRequestPath ?? o.ClientRequestURI),
    query: toQuery(o.ClientRequestURI) || toText(o.ClientRequestQuery).replace(/^\?/, ''),
    status: toStatus(o.EdgeResponseStatus, 'EdgeResponseStatus'),
    bytes: toWholeCount(o.EdgeResponseBytes, 'EdgeResponseBytes', 0),
    serveTimeMs: serve,
    cacheStatus: normalizeCacheStatus(o.CacheCacheStatus),
    referer: toText(o.ClientRequestReferer),
    userAgent: toText(o.ClientRequestUserAgent),
    country: toCountry(o.ClientCountry),
  };
}
