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
    const lines = exportLines({ db: services.db, fileUrl: (a) => services.config.publicBaseUrl + filePath(services.secrets.signing, { orgId: a.orgId, assetId: a.id, versionId: a.versionId, fileName: a.fileName ?? 'file' }) }, orgId);
    // Read before anything is sent: a failure here is an ordinary error answer (503 while a
    // dependency is down); once the stream has begun, cutting it short is all that is left.
    let next = await lines.next();
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
    try {
      // the first line goes at once: from here on the answer has begun
      if (!next.done) await write(next.value + '\n');
      let chunk: string[] = [];
      for (next = await lines.next(); !next.done; next = await lines.next()) {
        chunk.push(next.value);
        if (chunk.length === LINES_PER_WRITE) {
          await write(chunk.join('\n') + '\n');
          chunk = [];
        }
        if (res.destroyed) return;
      }
      if (chunk.length > 0) await write(chunk.join('\n') + '\n');
      out.end();
    } catch (err) {
      services.logger.error({ err, orgId }, 'export failed part-way; the response was cut short');
      // what was written goes out, then the connection closes without the body's last chunk:
      // the client sees a body that broke off, not one that ended. Node 24 holds a chunk written
      // while the socket is corked until the next turn, so the close waits for that turn.
      await new Promise<void>((resolve) => setImmediate(resolve));
      if (res.socket) res.socket.destroySoon();
      else res.destroy();
    }
  });
  return r;
}
