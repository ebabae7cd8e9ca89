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
