import { createHash } from 'node:crypto';
import { ingestSpoolKey } from '../adapters/blobs/keys.js';
import { badRequest, serviceUnavailable } from '../errors/index.js';
import { randomBase62 } from '../ids.js';
import type { Services } from '../services.js';
import type { Backpressure } from './backpressure.js';
import { decompressBody } from './decompress.js';
import { parseBody } from './parse-body.js';
import type { LineError } from './record.js';
import { findClientIps } from '../tenancy/organization-repository.js';
import type { VisitorScope } from './enrich.js';
import { findBatchByToken, insertBatch } from './spool-repository.js';

export interface IngestInput {
  orgId: string;
  distributionId: string;
  requestId?: string;
  body: Buffer;
  contentEncoding?: string;
  /** CloudFront real-time column names, when not every field is logged. */
  realtimeFields?: string[];
}

export interface IngestResult {
  batchId: string | null;
  accepted: number;
  rejected: number;
  errors: LineError[];
  /** The same batch was accepted before; it is counted once. */
  duplicate: boolean;
  /** A destination check without log lines (Cloudflare Logpush's validation upload). */
  probe: boolean;
}

export type IngestDeps = Pick<Services, 'db' | 'blobs' | 'queue' | 'config' | 'logger' | 'enricher' | 'visitorSalts' | 'entryResolver'>;

/**
 * Accepts one pushed batch: decompress, parse and enrich every line, then make the batch durable
 * (rows in the blob store + a spool row in Postgres) and queue its insert into ClickHouse. Returns
 * only once durable, so a 2xx never loses data; ClickHouse being down does not stop ingestion.
 * The dedup token is derived from the decompressed bytes: a resent batch is recognized here and,
 * should a worker insert twice, by ClickHouse's insert_deduplication_token.
 */
export async function ingestLogBatch(deps: IngestDeps, backpressure: Backpressure, input: IngestInput): Promise<IngestResult> {
  const limit = deps.config.limits.ingestBodyBytes;
  const raw = await decompressBody(input.body, input.contentEncoding, limit);
  const parsed = parseBody(raw.toString('utf8'), { realtimeFields: input.realtimeFields, retentionDays: deps.config.clickhouseRawTtlDays });
  const base = { accepted: parsed.records.length, rejected: parsed.rejected, errors: parsed.errors };
  if (parsed.validationProbe) return { ...base, batchId: null, duplicate: false, probe: true };
  if (parsed.records.length === 0) {
    const details = parsed.errors.map((e) => `line ${e.line}: ${e.message}`);
    throw badRequest(parsed.rejected === 0 ? 'The body holds no log lines.' : 'No line of the batch is valid.', details);
  }

  const dedupToken = createHash('sha256')
    .update(input.orgId)
    .update('\0')
    .update(input.distributionId)
    .update('\0')
    .update(raw)
    .digest('hex');
  const existing = await findBatchByToken(deps.db, input.orgId, dedupToken);
  if (existing) return { ...base, batchId: existing.id, duplicate: true, probe: false };
  await backpressure.check(deps.db, input.orgId);

  const enricher = await deps.enricher();
  const [clientIps, saltFor, entryIds] = await Promise.all([
    findClientIps(deps.db, input.orgId),
    deps.visitorSalts.forInstants(parsed.records.map((r) => r.timestampMs)),
    deps.entryResolver.resolve(input.orgId, input.distributionId, parsed.records.map((r) => r.path)),
  ]);
  const visitors: VisitorScope = { clientIps: clientIps ?? 'full', saltFor };
  // one more, empty, line: the joined text ends with a line break without another copy of it
  const lines: string[] = new Array(parsed.records.length + 1);
  for (let i = 0; i < parsed.records.length; i++) {
    lines[i] = enricher.toTsv(parsed.records[i], input.orgId, input.distributionId, visitors, entryIds[i]);
  }
  lines[parsed.records.length] = '';
  const rows = Buffer.from(lines.join('\n'));

  const batchId = randomBase62(20);
  const blobKey = ingestSpoolKey(input.orgId, input.distributionId, batchId);
  let inserted: boolean;
  try {
    await deps.blobs.put(blobKey, rows, { contentType: 'text/tab-separated-values' });
    inserted = await insertBatch(deps.db, {
      orgId: input.orgId,
      id: batchId,
      distributionId: input.distributionId,
      dedupToken,
      blobKey,
      accepted: parsed.records.length,
      rejected: parsed.rejected,
    });
  } catch (err) {
    deps.logger.error({ err, requestId: input.requestId }, 'ingest: spooling a batch failed');
    throw serviceUnavailable('The batch could not be stored; retry later.', 5);
  }
  if (!inserted) {
    // the same batch raced in through another request: keep theirs
    await deps.blobs.delete(blobKey).catch(() => undefined);
    const other = await findBatchByToken(deps.db, input.orgId, dedupToken);
    return { ...base, batchId: other?.id ?? null, duplicate: true, probe: false };
  }
  backpressure.spooled(input.orgId);
  try {
    await deps.queue.enqueue('log-ingest', { orgId: input.orgId, requestId: input.requestId, version: 1, batchId }, { jobId: batchId });
  } catch (err) {
    // durable already: the spool drainer picks the batch up without the job
    deps.logger.warn({ err, batchId }, 'ingest: queueing a batch failed; left to the drainer');
  }
  return { ...base, batchId, duplicate: false, probe: false };
}
