import type { ContentDeps } from '../deps.js';
import { refreshEntryStatistics } from '../entry-repository.js';
import { discardPrepared, prepareEntryBatch, writeEntryBatch, type EntryLine } from './entry-batch.js';
import type { NdjsonLine } from './ndjson-lines.js';
import { applyAssetLine, type AssetLineDeps } from './asset-line.js';
import { applyOtherLine } from './other-lines.js';
import { LINE_TYPES, MAX_LISTED_FAILURES, MAX_LISTED_RESULTS, type ImportReport, type ImportState, type LineResult } from './types.js';

export const ENTRY_BATCH_SIZE = 1000;

export interface ImportOptions {
  batchSize?: number;
  /** Every result is listed up to this many lines; beyond, failures only. @default 10000 */
  maxListedResults?: number;
  /** Failures listed at most. @default 1000 */
  maxListedFailures?: number;
  /** Called after each applied batch or line with the number of lines done so far (and the report so far). */
  onProgress?: (linesDone: number, report: Readonly<ImportReport>) => void;
  /** An import that wrote this many lines has the planner's statistics renewed when it ends. @default 10000 */
  statisticsAfterLines?: number;
  /**
   * Aborted when nobody waits for the result any more (the client went away): the import stops
   * before its next line, after the batch being written commits; lines read but not yet written
   * are dropped, so the report counts exactly what was applied.
   */
  signal?: AbortSignal;
}

const isObject = (v: unknown): v is Record<string, unknown> => typeof v === 'object' && v !== null && !Array.isArray(v);

/**
 * Runs an NDJSON import: lines are applied in order; consecutive entry lines are
 * written in batches of `batchSize` per transaction; every other line goes through the domain
 * function of its resource. A bad line is reported with its number and reasons and never stops
 * the others. The report lists every result for small imports and failures for large ones.
 */
export async function runImport(deps: ContentDeps & { assets?: AssetLineDeps }, orgId: string, lines: AsyncIterable<NdjsonLine>, options: ImportOptions = {}): Promise<ImportReport> {
  const batchSize = options.batchSize ?? ENTRY_BATCH_SIZE;
  const state: ImportState = { orgId, entries: new Map(), models: new Map() };
  const report: ImportReport = { lines: 0, succeeded: 0, failed: 0, results: [], truncated: false };
  let failuresListed = 0;
  const record = (r: LineResult) => {
    report.lines++;
    if (r.ok) report.succeeded++;
    else report.failed++;
    const listAll = report.lines <= (options.maxListedResults ?? MAX_LISTED_RESULTS);
    if (r.ok ? listAll : failuresListed < (options.maxListedFailures ?? MAX_LISTED_FAILURES)) {
      report.results.push(r);
      if (!r.ok) failuresListed++;
    } else report.truncated = true;
  };

  // Two stages overlap: while one batch is being written (the database works), the next one is
  // validated (this process works). Writes stay in line order.
  type Written = { results: LineResult[]; dirty: boolean };
  let inflight: Promise<{ ok: Written } | { err: unknown }> | null = null;
  const drain = async (): Promise<boolean> => {
    if (!inflight) return false;
    const outcome = await inflight;
    inflight = null;
    if ('err' in outcome) throw outcome.err;
    outcome.ok.results.forEach(record);
    options.onProgress?.(report.lines, report);
    return outcome.ok.dirty;
  };

  let batch: EntryLine[] = [];
  let batchIds = new Set<string>();
  const flush = async () => {
    if (batch.length === 0) return;
    const lines = batch;
    batch = [];
    batchIds = new Set();
    let prepared = await prepareEntryBatch(deps, state, lines);
    if (await drain()) {
      // An entry the previous batch accepted failed at the database: validate this one again.
      discardPrepared(state, prepared);
      prepared = await prepareEntryBatch(deps, state, lines);
    }
    const next = prepared;
    inflight = writeEntryBatch(deps, state, next).then(
      (ok) => ({ ok }),
      (err: unknown) => ({ err }),
    );
  };
  const settle = async () => {
    await flush();
    await drain();
  };

  for await (const l of lines) {
    if (options.signal?.aborted) break;
    if (l.tooLong) {
      await settle();
      record({ line: l.line, type: 'unknown', ok: false, errors: ['line: longer than the line limit'] });
      continue;
    }
    let value: unknown;
    try {
      value = JSON.parse(l.text);
    } catch {
      await settle();
      record({ line: l.line, type: 'unknown', ok: false, errors: ['line: not valid JSON'] });
      continue;
    }
    if (!isObject(value) || typeof value.type !== 'string' || !(LINE_TYPES as readonly string[]).includes(value.type)) {
      await settle();
      record({ line: l.line, type: 'unknown', ok: false, errors: [`type: must be one of ${LINE_TYPES.join(', ')}`] });
      continue;
    }
    const { type, ...body } = value;
    if (type === 'entry') {
      // A second line for the same id must see the first one applied: start a new batch.
      const id = typeof body.id === 'string' ? body.id : undefined;
      if (id !== undefined && batchIds.has(id)) await flush();
      batch.push({ line: l.line, body });
      if (id !== undefined) batchIds.add(id);
      if (batch.length >= batchSize) await flush();
      continue;
    }
    await settle();
    if (type === 'asset') {
      record(deps.assets ? await applyAssetLine(deps.assets, state.orgId, l.line, body) : { line: l.line, type, ok: false, errors: ['type: asset lines are read by POST /management/v1/import only'] });
    } else record(await applyOtherLine(deps, state, l.line, type as string, body));
    options.onProgress?.(report.lines, report);
  }
  if (options.signal?.aborted) {
    await drain();
    return report;
  }
  await settle();
  if (report.succeeded >= (options.statisticsAfterLines ?? 10_000)) {
    // only a head start on autovacuum: the lines are written, so a failure here must not fail the import
    await refreshEntryStatistics(deps.db).catch(() => undefined);
  }
  return report;
}
