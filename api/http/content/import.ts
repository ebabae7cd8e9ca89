import { Router } from 'express';
import { findLatestImportRun } from '../../../shared/content/import/import-runs.js';
import { ndjsonLines } from '../../../shared/content/import/ndjson-lines.js';
import { runRecordedImport } from '../../../shared/content/import/recorded-import.js';
import { failure, ok } from '../../../shared/envelope.js';
import { unsupportedMediaType } from '../../../shared/errors/index.js';
import type { Services } from '../../../shared/services.js';
import { requireScope, tenantOf } from '../auth.js';
import { decodedBody } from './decoded-body.js';

const NDJSON_TYPES = ['application/x-ndjson', 'application/ndjson', 'application/jsonl'];

/**
 * `POST /management/v1/import`: an NDJSON body streamed line by line (never buffered whole), so
 * it sits before the global JSON parser. It may be compressed (Content-Encoding gzip, deflate or
 * br), decoded as it is read; IMPORT_BODY_LIMIT_BYTES bounds it on the wire and decoded (413).
 * An import whose client disconnects stops after the batch being written; `GET` reports the
 * organization's latest import, however it ended.
 */
export function importRoutes(services: Services): Router {
  const r = Router();
  r.post('/management/v1/import', requireScope('manage'), async (req, res) => {
    const type = (req.headers['content-type'] ?? '').split(';')[0].trim().toLowerCase();
    if (!NDJSON_TYPES.includes(type)) throw unsupportedMediaType('Send the import as application/x-ndjson (one JSON object per line).');
    const gone = new AbortController();
    res.on('close', () => {
      if (!res.writableFinished) gone.abort();
    });
    const body = decodedBody(req, services.config.limits.importBytes, gone.signal);
    const assets = { ...services, maxBytes: services.config.limits.uploadBytes, signingSecret: services.secrets.signing };
    const report = await runRecordedImport({ ...services, assets }, tenantOf(req).orgId, ndjsonLines(body.chunks), {
      signal: gone.signal,
      stoppedBecause: () => body.stopped()?.reason ?? null,
    });
    const messages = [`${report.succeeded} of ${report.lines} lines applied, ${report.failed} failed.`];
    const stopped = body.stopped();
    if (stopped) {
      // The lines read before the stop were applied; an import may be run again.
      const status = stopped.kind === 'too-large' ? 413 : 400;
      res.status(status).json(failure([`${stopped.reason}: the import stopped after line ${report.lines}; the lines before it were applied, and running the import again is safe.`], messages));
      return;
    }
    if (report.truncated) messages.push('Results are listed for failed lines only (the import is large or has many failures).');
    res.json(ok(report, { messages }));
  });
  r.get('/management/v1/import', requireScope('manage'), async (req, res) => {
    res.json(ok(await findLatestImportRun(services.db, tenantOf(req).orgId)));
  });
  return r;
}
