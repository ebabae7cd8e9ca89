import { RecordError, type LogRecord } from './record.js';

/**
 * Every field of an accepted record fits its `cdn_logs` column, checked when the line is
 * accepted: a value ClickHouse cannot store (bytes 1e30 in a UInt64, a serve time past UInt32)
 * would fail the insert of its whole batch on every retry, and an accepted line must be counted.
 * A time more than a day ahead is a clock or unit error, refused rather than counted in the future;
 * a time older than the raw-log retention would be dropped by the table's TTL as it is inserted.
 */
const UINT32_MAX = 4_294_967_295;
// bytes is a UInt64; JavaScript numbers are exact up to 2^53 (9 PB in one response is plenty).
const BYTES_MAX = Number.MAX_SAFE_INTEGER;
export const MAX_FUTURE_MS = 24 * 3600 * 1000;

export interface TimeWindow {
  nowMs: number;
  /** 0: no lower bound beyond the field parser's. */
  oldestMs: number;
  retentionDays: number;
}

export function checkRecordRanges(r: LogRecord, window: TimeWindow): LogRecord {
  if (!Number.isSafeInteger(r.bytes) || r.bytes < 0 || r.bytes > BYTES_MAX) throw new RecordError(`bytes: must be an integer from 0 to ${BYTES_MAX}`);
  if (!Number.isInteger(r.serveTimeMs) || r.serveTimeMs < 0 || r.serveTimeMs > UINT32_MAX) {
    throw new RecordError(`serveTimeMs: must be an integer number of milliseconds from 0 to ${UINT32_MAX}`);
  }
  if (!Number.isInteger(r.status) || r.status < 100 || r.status > 599) throw new RecordError('status: not an HTTP status');
  if (r.timestampMs > window.nowMs + MAX_FUTURE_MS) throw new RecordError('timestamp: more than a day in the future');
  if (r.timestampMs < window.oldestMs) throw new RecordError(`timestamp: older than the raw-log retention of ${window.retentionDays} days`);
  return r;
}
