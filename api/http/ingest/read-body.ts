import type { Request } from 'express';
import { payloadTooLarge } from '../../../shared/errors/index.js';

/**
 * Collects the raw (still compressed) request body, refusing more than `limitBytes` → 413.
 * Past the limit the rest is read and dropped rather than the socket destroyed, so the client
 * still receives the 413.
 */
export function readRawBody(req: Request, limitBytes: number): Promise<Buffer> {
  const declared = Number(req.headers['content-length'] ?? 0);
  if (declared > limitBytes) return Promise.reject(payloadTooLarge(limitBytes));
  return new Promise((resolve, reject) => {
    const chunks: Buffer[] = [];
    let size = 0;
    let failed = false;
    req.on('data', (chunk: Buffer) => {
      if (failed) return;
      size += chunk.length;
      if (size > limitBytes) {
        failed = true;
        chunks.length = 0;
        reject(payloadTooLarge(limitBytes));
        return;
      }
      chunks.push(chunk);
    });
    req.on('end', () => {
      if (!failed) resolve(Buffer.concat(chunks, size));
    });
    req.on('error', (err) => {
      if (!failed) reject(err);
    });
  });
}
