import busboy from 'busboy';
import type { Request } from 'express';
import type { Readable } from 'node:stream';
import { badRequest, payloadTooLarge } from '../../../shared/errors/index.js';

export interface UploadSource {
  stream: Readable;
  /** The multipart part's file name, when there was one. */
  fileName?: string;
  /** Multipart text fields sent before the file. */
  fields: Record<string, string>;
}

/**
 * The uploaded bytes as a stream: the raw request body, or the first file part of a
 * multipart/form-data body (text fields before it are kept as metadata). The client's declared
 * content type of the file is ignored: the type is sniffed from the bytes.
 */
export function uploadSource(req: Request, maxBytes: number): Promise<UploadSource> {
  const declared = Number(req.headers['content-length']);
  if (Number.isFinite(declared) && declared > maxBytes + 64 * 1024) return Promise.reject(payloadTooLarge(maxBytes));
  if (!/^multipart\/form-data/i.test(req.headers['content-type'] ?? '')) return Promise.resolve({ stream: req, fields: {} });

  return new Promise((resolve, reject) => {
    let parser: busboy.Busboy;
    try {
      parser = busboy({ headers: req.headers, limits: { files: 1, fileSize: maxBytes + 1, fields: 50, fieldSize: 10_000 } });
    } catch {
      reject(badRequest('Malformed multipart/form-data body.'));
      return;
    }
    const fields: Record<string, string> = {};
    let found = false;
    parser.on('field', (name, value) => {
      if (!found) fields[name] = value;
    });
    parser.on('file', (_name, file, info) => {
      if (found) return file.resume();
      found = true;
      file.on('limit', () => file.destroy(payloadTooLarge(maxBytes)));
      resolve({ stream: file, fileName: info.filename || undefined, fields });
    });
    parser.on('error', () => reject(badRequest('Malformed multipart/form-data body.')));
    parser.on('close', () => {
      if (!found) reject(badRequest('The multipart body has no file part.'));
    });
    req.pipe(parser);
  });
}
