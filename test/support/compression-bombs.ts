import type { Transform } from 'node:stream';

/**
 * A zstd frame of RLE blocks: each 4 input bytes expand to 128 KiB of zeros (how zstd encodes a
 * run), so a few kilobytes make gigabytes. `descriptor` is the frame's window descriptor byte.
 */
export function zstdBomb(outputBytes: number, descriptor = 0x58 /* 2 MiB window */): Buffer {
  const BLOCK = 128 * 1024;
  const blocks = Math.ceil(outputBytes / BLOCK);
  const out = Buffer.alloc(6 + blocks * 4);
  out.writeUInt32LE(0xfd2fb528, 0);
  out[4] = 0x00; // no content size, not single-segment, no checksum, no dictionary
  out[5] = descriptor;
  for (let i = 0; i < blocks; i++) {
    const header = (BLOCK << 3) | (1 << 1) | (i === blocks - 1 ? 1 : 0);
    out.writeUIntLE(header, 6 + i * 4, 3);
    out[6 + i * 4 + 3] = 0;
  }
  return out;
}

/**
 * `outputBytes` of zeros, gzip- or deflate-compressed, made by streaming one reused 1 MiB chunk:
 * compressing a Buffer.alloc of the whole size would leave hundreds of megabytes of garbage whose
 * collection (a long major GC) lands in whatever the test measures next.
 */
export async function zlibBomb(kind: 'gzip' | 'deflate', outputBytes: number): Promise<Buffer> {
  const { createDeflate, createGzip } = await import('node:zlib');
  return compressZeros(kind === 'gzip' ? createGzip() : createDeflate(), outputBytes);
}

/**
 * `outputBytes` of zeros, brotli-compressed at quality 1 (the fastest: a gigabyte in about a
 * second; a run of zeros compresses about as well at any quality), streamed like `zlibBomb`.
 */
export async function brotliBomb(outputBytes: number): Promise<Buffer> {
  const { constants, createBrotliCompress } = await import('node:zlib');
  return compressZeros(createBrotliCompress({ params: { [constants.BROTLI_PARAM_QUALITY]: 1, [constants.BROTLI_PARAM_SIZE_HINT]: outputBytes } }), outputBytes);
}

/** `outputBytes` of zeros through `stream`, a megabyte at a time (waiting for it to drain), compressed. */
async function compressZeros(stream: Transform, outputBytes: number): Promise<Buffer> {
  const chunks: Buffer[] = [];
  stream.on('data', (c: Buffer) => chunks.push(c));
  const done = new Promise<void>((resolve, reject) => stream.on('end', resolve).on('error', reject));
  const zeros = Buffer.alloc(1024 * 1024);
  for (let written = 0; written < outputBytes; written += zeros.length) {
    if (!stream.write(zeros)) await new Promise((r) => stream.once('drain', r));
  }
  stream.end();
  await done;
  return Buffer.concat(chunks);
}

/**
 * `outputBytes` (a multiple of 1 MiB) of zeros as gzip or deflate in milliseconds instead of the
 * seconds `zlibBomb` compresses for: one compressed MiB repeated. gzip: whole members one after
 * another (a gzip body may hold several; decoders join them). deflate: the blocks of one
 * sync-flushed MiB after the zlib header, repeated (their back references only reach zeros), with
 * no final block or checksum — a decoder that reads it to the end finds it cut short, so it only
 * tests what stops before the end.
 */
export async function repeatedZlibBomb(kind: 'gzip' | 'deflate', outputBytes: number): Promise<Buffer> {
  const zlib = await import('node:zlib');
  const MiB = Buffer.alloc(1024 * 1024);
  const times = Math.ceil(outputBytes / MiB.length);
  if (kind === 'gzip') return Buffer.concat(Array<Buffer>(times).fill(zlib.gzipSync(MiB, { level: 9 })));
  const deflate = zlib.createDeflate({ level: 9 });
  const parts: Buffer[] = [];
  deflate.on('data', (c: Buffer) => parts.push(c));
  deflate.write(MiB);
  await new Promise<void>((resolve) => deflate.flush(zlib.constants.Z_SYNC_FLUSH, () => resolve()));
  deflate.destroy();
  const flushed = Buffer.concat(parts);
  return Buffer.concat([flushed.subarray(0, 2), ...Array<Buffer>(times).fill(flushed.subarray(2))]);
}
