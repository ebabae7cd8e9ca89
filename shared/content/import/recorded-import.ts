import type { ContentDeps } from '../deps.js';
import type { AssetLineDeps } from './asset-line.js';
import { finishImportRun, insertImportRun, updateImportRun, type ImportCounts } from './import-runs.js';
import type { NdjsonLine } from './ndjson-lines.js';
import { runImport, type ImportOptions } from './run-import.js';
import type { ImportReport } from './types.js';

// The run's row is brought up to date at most this often while it goes (a statement per batch
// would cost an import of a million lines a thousand writes for nobody).
const PROGRESS_EVERY_MS = 1000;

export interface RecordedImportOptions extends Pick<ImportOptions, 'signal'> {
  /** Read once the lines end: why they ended before the body did (a break or the size limit), or null. */
  stoppedBecause: () => string | null;
}

/**
 * `runImport` with a row in `import_runs` that says how far it got and how it ended, kept up to
 * date as batches are written, so `GET /management/v1/import` reports an import whose client
 * disconnected (stopped, with what was applied) as well as one that completed.
 */
export async function runRecordedImport(
  deps: ContentDeps & { assets?: AssetLineDeps },
  orgId: string,
  lines: AsyncIterable<NdjsonLine>,
  options: RecordedImportOptions,
): Promise<ImportReport> {
  const runId = await insertImportRun(deps.db, orgId);
  const counts = (r: Readonly<ImportReport>): ImportCounts => ({ lines: r.lines, succeeded: r.succeeded, failed: r.failed });
  let progress: ImportCounts = { lines: 0, succeeded: 0, failed: 0 };
  let lastWrite = Date.now();
  let writing: Promise<void> | null = null;
  let report: ImportReport;
  try {
    report = await runImport(deps, orgId, lines, {
      signal: options.signal,
      onProgress: (_, r) => {
        progress = counts(r);
        if (writing || Date.now() - lastWrite < PROGRESS_EVERY_MS) return;
        lastWrite = Date.now();
        // a lost progress write only leaves the row behind until the next one or the end
        writing = updateImportRun(deps.db, orgId, runId, progress)
          .catch(() => undefined)
          .finally(() => (writing = null));
      },
    });
  } catch (err) {
    await writing;
    await finishImportRun(deps.db, orgId, runId, progress, { state: 'stopped', reason: 'the import failed on the server; the batches before the failure were applied' }).catch(() => undefined);
    throw err;
  }
  await writing;
  const reason = options.signal?.aborted ? 'the client disconnected' : options.stoppedBecause();
  const c = counts(report);
  await finishImportRun(deps.db, orgId, runId, c, reason === null ? { state: 'completed', reason: null } : { state: 'stopped', reason: `${reason}; the ${c.lines} lines before were applied` });
  return report;
}
