import { promisify } from 'node:util';
import zlib from 'node:zlib';
import { decompress as zstdDecompress } from 'fzstd';
import { badRequest, isAppError, payloadTooLarge, unsupportedMediaType } from '../errors/index.js';

const gunzip = promisify(zlib.gunzip);
const inflate = promisify(zlib.inflate);

/**
 * Undoes `Content-Encoding` (gzip, deflate, zstd; identity when absent), refusing output beyond
 * `limitBytes` so a small compressed body cannot expand without bound. gzip runs on the libuv
 * pool; zstd has no Node 20 binding and uses fzstd (pure JS).
 */
export async function decompressBody(body: Buffer, encoding: string | undefined, limitBytes: number): Promise<Buffer> {
  const codings = (encoding ?? '').toLowerCase().split(',').map((c) => c.trim()).filter((c) => c !== '' && c !== 'identity');
  let out = body;
  // codings are listed in the order they were applied: undo them from the last
  for (const coding of codings.reverse()) {
    try {
      if (coding === 'gzip' || coding === 'x-gzip') out = await gunzip(out, { maxOutputLength: limitBytes });
      else if (coding === 'deflate') out = await inflate(out, { maxOutputLength: limitBytes });
      else if (coding === 'zstd') out = Buffer.from(zstdDecompress(out));
      else throw unsupportedMediaType(`Content-Encoding "${coding}" is not supported; use gzip, zstd or deflate.`);
    } catch (err) {
      if (err instanceof RangeError || (err as { code?: string }).code === 'ERR_BUFFER_TOO_LARGE') throw payloadTooLarge(limitBytes);
      if (isAppError(err)) throw err;
      throw badRequest(`The body is not valid ${coding} data.`);
    }
    if (out.length > limitBytes) throw payloadTooLarge(limitBytes);
  }
  return out;
}
