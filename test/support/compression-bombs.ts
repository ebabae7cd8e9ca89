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
  const stream = kind === 'gzip' ? createGzip() : createDeflate();
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
