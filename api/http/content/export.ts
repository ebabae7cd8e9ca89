import { once } from 'node:events';
import type { Writable } from 'node:stream';
import zlib from 'node:zlib';
import { Router } from 'express';
import { filePath } from '../../../shared/assets/url-grammar.js';
import { exportLines } from '../../../shared/content/export/export-lines.js';
import type { Services } from '../../../shared/services.js';
import { requireScope, tenantOf } from '../auth.js';

/** Lines gathered into one write: fewer, larger writes to the socket. */
const LINES_PER_WRITE = 200;

/**
 * `GET /management/v1/export`: the organization's content as the NDJSON the import takes, streamed
 * as it is read (a page of rows at a time, waiting for the client when it reads slower), gzip-
 * compressed when the client accepts it. Its assets' lines carry their signed `/files` URLs.
 */
export function exportRoutes(services: Services): Router {
  const r = Router();
  r.get('/management/v1/export', requireScope('manage'), async (req, res) => {
    const { orgId } = tenantOf(req);
    const gzip = /\bgzip\b/i.test(String(req.headers['accept-encoding'] ?? ''));
    res.setHeader('Content-Type', 'application/x-ndjson; charset=utf-8');
    res.setHeader('Content-Disposition', `attachment; filename="folio-export-${orgId}.ndjson"`);
    res.setHeader('Cache-Control', 'no-store');
    res.setHeader('Vary', 'Accept-Encoding');
    let out: Writable = res;
    if (gzip) {
      res.setHeader('Content-Encoding', 'gzip');
      const zipped = zlib.createGzip();
      zipped.pipe(res);
      out = zipped;
    }
    const write = async (text: string) => {
      if (!out.write(text)) await once(out, 'drain');
    };
    const lines = exportLines({ db: services.db, fileUrl: (a) => services.config.publicBaseUrl + filePath(services.secrets.signing, { orgId: a.orgId, assetId: a.id, versionId: a.versionId, fileName: a.fileName ?? 'file' }) }, orgId);
    try {
      let chunk: string[] = [];
      for await (const line of lines) {
        chunk.push(JSON.stringify(line));
        if (chunk.length === LINES_PER_WRITE) {
          await write(chunk.join('\n') + '\n');
          chunk = [];
        }
        if (res.destroyed) return;
      }
      if (chunk.length > 0) await write(chunk.join('\n') + '\n');
      out.end();
    } catch (err) {
      // The status is sent; cutting the stream short is how the client learns it is incomplete.
      services.logger.error({ err, orgId }, 'export failed part-way; the response was cut short');
      res.destroy(err instanceof Error ? err : new Error(String(err)));
    }
  });
  return r;
}
