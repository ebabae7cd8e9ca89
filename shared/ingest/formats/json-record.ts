import { RecordError, type LogRecord } from '../record.js';
import { fromAkamai } from './akamai.js';
import { fromCanonical } from './canonical.js';
import { fromCloudflare } from './cloudflare.js';
import { fromFastly } from './fastly.js';

export type JsonFormat = 'canonical' | 'cloudflare' | 'fastly' | 'akamai';

/** Which field set a JSON object uses, told by keys only that set has. */
export function detectJsonFormat(o: Record<string, unknown>): JsonFormat | undefined {
  if ('EdgeStartTimestamp' in o || 'ClientRequestHost' in o) return 'cloudflare';
  if ('reqTimeSec' in o || 'cliIP' in o) return 'akamai';
  if ('client_ip' in o || 'response_state' in o || 'time_elapsed' in o) return 'fastly';
  if ('timestamp' in o) return 'canonical';
  return undefined;
}

const mappers: Record<JsonFormat, (o: Record<string, unknown>) => LogRecord> = {
  canonical: fromCanonical,
  cloudflare: fromCloudflare,
  fastly: fromFastly,
  akamai: fromAkamai,
};

/** One JSON value (an NDJSON line or an array element) → a record, or a RecordError. */
export function fromJsonValue(value: unknown): LogRecord {
  if (value === null || typeof value !== 'object' || Array.isArray(value)) throw new RecordError('expected a JSON object');
  const o = value as Record<string, unknown>;
  const format = detectJsonFormat(o);
  if (!format) {
    throw new RecordError('unrecognized fields: expected the canonical set or a Cloudflare, Fastly or Akamai record');
  }
  return mappers[format](o);
}
