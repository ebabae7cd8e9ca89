import { normalizeCacheStatus } from '../cache-status.js';
import { toCount, toCountry, toPath, toQuery, toStatus, toText, toTimestampMs, toWholeCount } from '../fields.js';
import type { LogRecord } from '../record.js';

/**
 * Fastly HTTPS logging with a JSON log format (`json_format` 2 → NDJSON). Fastly has no fixed
 * schema; these are the keys of its documented JSON format examples: `timestamp` or `time_start`,
 * `client_ip`, `request_method` or `request`, `host`, `url`, `response_status`,
 * `response_body_size`, `time_elapsed` (µs, from `time.elapsed.usec`), `response_state`
 * (`fastly_info.state`), `request_referer`, `request_user_agent`, `geo_country_code`.
 */
export function fromFastly(o: Record<string, unknown>): LogRecord {
  return {
    timestampMs: toTimestampMs(o.timestamp ?? o.time_start, 'timestamp'),
    clientIp: toText(o.client_ip),
    method: toText(o.request_method ?? o.request).toUpperCase(),
    host: toText(o.host).toLowerCase(),
    path: toPath(o.url),
    query: toQuery(o.url),
    status: toStatus(o.response_status ?? o.status, 'response_status'),
    bytes: toWholeCount(o.response_body_size ?? o.resp_body_size ?? o.response_bytes, 'response_body_size', 0),
    serveTimeMs: Math.round(toCount(o.time_elapsed, 'time_elapsed', 0) / 1000),
    cacheStatus: normalizeCacheStatus(o.response_state ?? o.cache_status),
    referer: toText(o.request_referer),
    userAgent: toText(o.request_user_agent),
    country: toCountry(o.geo_country_code ?? o.client_country_code ?? o.country_code),
  };
}
