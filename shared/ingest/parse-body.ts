import {
  columnsFromHeader,
  columnsOf,
  fromCloudFront,
  looksStandard,
  REALTIME_FIELDS,
  STANDARD_FIELDS,
  type Columns,
} from './formats/cloudfront.js';
import { fromCombined } from './formats/combined.js';
import { detectJsonFormat, fromJsonValue } from './formats/json-record.js';
import { RecordError, type LineError, type LogRecord } from './record.js';
import { checkRecordRanges } from './record-ranges.js';

export interface ParsedBody {
  records: LogRecord[];
  /** Lines (or array items) that carried data but could not be read. */
  rejected: number;
  /** The first errors, in order, with 1-based line numbers (array items: 1-based index). */
  errors: LineError[];
  /** The body was a destination check (Cloudflare Logpush sends `{"content":"tests"}`), not logs. */
  validationProbe: boolean;
}

export interface ParseOptions {
  /** CloudFront real-time column names when not all fields are logged (`?fields=`). */
  realtimeFields?: readonly string[];
  /** How many errors to report in detail (all are counted). @default 20 */
  maxErrors?: number;
  /** The time "more than a day in the future" is measured from. @default Date.now() */
  nowMs?: number;
  /** Days raw rows are kept: an older line would be dropped by the table's TTL as it is inserted. */
  retentionDays?: number;
}

/**
 * A shipper's envelope around a raw log line: Fluent Bit's tail input sends `{"log": "<line>"}`
 * (plus `date`), Vector's file source `{"message": "<line>", …}`. The line inside is read as if
 * it had been sent as text.
 */
function wrappedLine(value: unknown): string | undefined {
  if (value === null || typeof value !== 'object' || Array.isArray(value)) return undefined;
  const o = value as Record<string, unknown>;
  if (detectJsonFormat(o)) return undefined;
  const inner = typeof o.log === 'string' ? o.log : typeof o.message === 'string' ? o.message : undefined;
  return inner?.replace(/\r?\n$/, '');
}

const isProbe = (v: unknown) =>
  v !== null && typeof v === 'object' && !Array.isArray(v) && Object.keys(v).length === 1 && 'content' in v;

/**
 * Turns a decompressed body into records. The format is told from the content, line by line, so
 * a shipper's content type never matters: a JSON array, JSON lines (any recognized field set),
 * CloudFront standard logs with their `#` header lines, CloudFront real-time lines, or
 * nginx/Apache combined lines.
 */
export function parseBody(text: string, options: ParseOptions = {}): ParsedBody {
  const maxErrors = options.maxErrors ?? 20;
  const now = options.nowMs ?? Date.now();
  const window = { nowMs: now, oldestMs: options.retentionDays ? now - options.retentionDays * 86_400_000 : 0, retentionDays: options.retentionDays ?? 0 };
  const out: ParsedBody = { records: [], rejected: 0, errors: [], validationProbe: false };
  const reject = (line: number, err: unknown) => {
    out.rejected++;
    if (out.errors.length < maxErrors) {
      const message = err instanceof RecordError ? err.message : err instanceof SyntaxError ? 'invalid JSON' : 'unreadable line';
      out.errors.push({ line, message });
    }
  };
  const realtime: Columns = columnsOf(options.realtimeFields ?? REALTIME_FIELDS);
  const standard: Columns = columnsOf(STANDARD_FIELDS);
  let w3c: Columns | undefined;
  let probes = 0;
  /** One text line: a record, or null for a header line (which may set the CloudFront columns). */
  const readText = (line: string, depth: number): LogRecord | null => {
    const first = line.charCodeAt(0);
    if (first === 123 /* { */) {
      const value: unknown = JSON.parse(line);
      if (isProbe(value)) {
        probes++;
        return null;
      }
      const inner = depth === 0 ? wrappedLine(value) : undefined;
      return inner === undefined ? fromJsonValue(value) : readText(inner, 1);
    }
    if (first === 35 /* # */) {
      if (/^#Fields:/i.test(line)) w3c = columnsFromHeader(line);
      return null;
    }
    if (line.includes('\t')) return fromCloudFront(line, w3c ?? (looksStandard(line) ? standard : realtime));
    return fromCombined(line);
  };
  const trimmed = text.trimStart();
  if (trimmed.startsWith('[')) {
    let items: unknown;
    try {
      items = JSON.parse(text);
    } catch {
      reject(1, new RecordError('invalid JSON array'));
      return out;
    }
    if (!Array.isArray(items)) {
      reject(1, new RecordError('invalid JSON array'));
      return out;
    }
    items.forEach((item: unknown, i) => {
      try {
        // Logstash's json_batch sends its events, each possibly wrapping a raw line in `message`
        const inner = wrappedLine(item);
        const record = inner === undefined ? fromJsonValue(item) : readText(inner, 1);
        if (record) out.records.push(checkRecordRanges(record, window));
      } catch (err) {
        reject(i + 1, err);
      }
    });
    return out;
  }

  const lines = text.split('\n');
  for (let i = 0; i < lines.length; i++) {
    let line = lines[i];
    if (line.length === 0) continue;
    if (line.charCodeAt(line.length - 1) === 13 /* \r */) line = line.slice(0, -1);
    if (line.charCodeAt(0) <= 32 && line.trim() === '') continue;
    try {
      const record = readText(line, 0);
      if (record) out.records.push(checkRecordRanges(record, window));
    } catch (err) {
      reject(i + 1, err);
    }
  }
  out.validationProbe = probes > 0 && out.records.length === 0 && out.rejected === 0;
  return out;
}
