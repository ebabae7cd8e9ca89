import { Router } from 'express';
import { ndjsonLines } from '../../../shared/content/import/ndjson-lines.js';
import { runImport } from '../../../shared/content/import/run-import.js';
import { ok } from '../../../shared/envelope.js';
import { unsupportedMediaType } from '../../../shared/errors/index.js';
import type { Services } from '../../../shared/services.js';
import { requireScope, tenantOf } from '../auth.js';

const NDJSON_TYPES = ['application/x-ndjson', 'application/ndjson', 'application/jsonl'];

/**
 * `POST /management/v1/import`: an NDJSON body streamed line by line (never buffered whole), so
 * it sits before the global JSON parser and has no body size limit beyond the line limit.
 */
export function importRoutes(services: Services): Router {
  const r = Router();
  r.post('/management/v1/import', requireScope('manage'), async (req, res) => {
    const type = (req.headers['content-type'] ?? '').split(';')[0].trim().toLowerCase();
    if (!NDJSON_TYPES.includes(type)) throw unsupportedMediaType('Send the import as application/x-ndjson (one JSON object per line).');
    const report = await runImport(services, tenantOf(req).orgId, ndjsonLines(req));
    const messages = [`${report.succeeded} of ${report.lines} lines applied, ${report.failed} failed.`];
    if (report.truncated) messages.push('Results are listed for failed lines only (the import is large or has many failures).');
    res.json(ok(report, { messages }));
  });
  return r;
}
