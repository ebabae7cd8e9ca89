import { promisify } from 'node:util';
import zlib from 'node:zlib';
import { setImmediate as nextTurn } from 'node:timers/promises';
import { Decompress } from 'fzstd';
import { largestZstdWindow } from './zstd-frames.js';
import { badRequest, isAppError, payloadTooLarge, unsupportedMediaType } from '../errors/index.js';

const gunzip = promisify(zlib.gunzip);
const inflate = promisify(zlib.inflate);

class OutputTooLarge extends Error {}

// Input fed to fzstd per turn of the event loop. fzstd decodes a block once it has all of it: a
// compressed block is at most 128 KiB of input and output, so a turn costs about a millisecond
// whatever the ratio (an RLE block turns 4 bytes into 128 KiB).
const ZSTD_SLICE_BYTES = 16 * 1024;
// The reference decoder's default limit (2^27, `--long=27`): a frame asking for more is refused.
const ZSTD_MAX_WINDOW_BYTES = 2 ** 27;

/**
 * zstd through fzstd's streaming decoder (pure JS, on the main thread: Node 20 has no zstd
 * binding), a slice at a time with a turn of the event loop between slices, stopping as soon as
 * the output passes `limitBytes`: a 99 KB body of zeros that expands to 3 GB used to be decoded
 * whole, in one call (51 s of blocked event loop, 7.4 GB of memory).
 */
async function unzstd(body: Buffer, limitBytes: number): Promise<Buffer> {
  const window = largestZstdWindow(body);
  if (window > ZSTD_MAX_WINDOW_BYTES) throw badRequest(`The zstd body asks for a ${window}-byte window; at most ${ZSTD_MAX_WINDOW_BYTES} bytes (zstd's own default limit) are accepted.`);
  const parts: Uint8Array[] = [];
  let size = 0;
  const decoder = new Decompress((chunk) => {
    size += chunk.length;
    if (size > limitBytes) throw new OutputTooLarge();
    parts.push(chunk);
  });
  for (let at = 0; at < body.length; at += ZSTD_SLICE_BYTES) {
    const end = Math.min(body.length, at + ZSTD_SLICE_BYTES);
    decoder.push(body.subarray(at, end), end === body.length);
    if (end < body.length) await nextTurn();
  }
  if (body.length === 0) decoder.push(new Uint8Array(0), true);
  return Buffer.concat(parts, size);
}

/**
 * Undoes `Content-Encoding` (gzip, deflate, zstd; identity when absent), refusing output beyond
 * `limitBytes` so a small compressed body cannot expand without bound: gzip and deflate on the
 * libuv pool with zlib's `maxOutputLength`, zstd a slice per event-loop turn (`unzstd`).
 */
export async function decompressBody(body: Buffer, encoding: string | undefined, limitBytes: number): Promise<Buffer> {
  const codings = (encoding ?? '').toLowerCase().split(',').map((c) => c.trim()).filter((c) => c !== '' && c !== 'identity');
  let out = body;
  // codings are listed in the order they were applied: undo them from the last
  for (const coding of codings.reverse()) {
    try {
      if (coding === 'gzip' || coding === 'x-gzip') out = await gunzip(out, { maxOutputLength: limitBytes });
      else if (coding === 'deflate') out = await inflate(out, { maxOutputLength: limitBytes });
      else if (coding === 'zstd') out = await unzstd(out, limitBytes);
      else throw unsupportedMediaType(`Content-Encoding "${coding}" is not supported; use gzip, zstd or deflate.`);
    } catch (err) {
      if (err instanceof OutputTooLarge || err instanceof RangeError || (err as { code?: string }).code === 'ERR_BUFFER_TOO_LARGE') throw payloadTooLarge(limitBytes);
      if (isAppError(err)) throw err;
      throw badRequest(`The body is not valid ${coding} data.`);
    }
    if (out.length > limitBytes) throw payloadTooLarge(limitBytes);
  }
  return out;
}
