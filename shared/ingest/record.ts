/**
 * The canonical log record every recognized format is mapped to. Strings are empty
 * when the source has no value; `country` is undefined when the source carries none (GeoIP fills
 * it at enrichment).
 */
export interface LogRecord {
  /** Milliseconds since the epoch, UTC. */
  timestampMs: number;
  clientIp: string;
  method: string;
  host: string;
  /** Request path without the query string. */
  path: string;
  /** The query string (read for campaign values only, never stored); '' or absent when none. */
  query?: string;
  status: number;
  bytes: number;
  serveTimeMs: number;
  /** `HIT` or `MISS` when the vendor value means one of them, else the raw value upper-cased. */
  cacheStatus: string;
  referer: string;
  userAgent: string;
  country?: string;
}

/** A line that could not be turned into a record; `line` is 1-based within the body. */
export interface LineError {
  line: number;
  message: string;
}

/** Thrown by a field mapper for one bad line; the parser turns it into a LineError. */
export class RecordError extends Error {}
