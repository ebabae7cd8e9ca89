import { Router } from 'express';
import { ndjsonLines } from '../../../shared/content/import/ndjson-lines.js';
import { runImport } from '../../../shared/content/import/run-import.js';
import { failure, ok } from '../../../shared/envelope.js';
import { unsupportedMediaType } from '../../../shared/errors/index.js';
import type { Services } from '../../../shared/services.js';
import { requireScope, tenantOf } from '../auth.js';
import { decodedBody } from './decoded-body.js';

const NDJSON_TYPES = ['application/x-ndjson', 'application/ndjson', 'application/jsonl'];

/**
 * `POST /management/v1/import`: an NDJSON body streamed line by line (never buffered whole), so
 * it sits before the global JSON parser and has no body size limit beyond the line limit. It may
 * be compressed (Content-Encoding gzip, deflate or br), decoded as it is read.
 */
export function importRoutes(services: Services): Router {
  const r = Router();
  r.post('/management/v1/import', requireScope('manage'), async (req, res) => {
    const type = (req.headers['content-type'] ?? '').split(';')[0].trim().toLowerCase();
    if (!NDJSON_TYPES.includes(type)) throw unsupportedMediaType('Send the import as application/x-ndjson (one JSON object per line).');
    const body = decodedBody(req);
    const assets = { ...services, maxBytes: services.config.limits.uploadBytes, signingSecret: services.secrets.signing };
    const report = await runImport({ ...services, assets }, tenantOf(req).orgId, ndjsonLines(body.chunks));
    const messages = [`${report.succeeded} of ${report.lines} lines applied, ${report.failed} failed.`];
    const corrupt = body.corrupt();
    if (corrupt) {
      // The lines read before the break were applied; an import may be run again.
      res.status(400).json(failure([`${corrupt}: the import stopped after line ${report.lines}; the lines before it were applied, and running the import again is safe.`], messages));
      return;
    }
    if (report.truncated) messages.push('Results are listed for failed lines only (the import is large or has many failures).');
    res.json(ok(report, { messages }));
  });
  return r;
}
