import { crc32 } from 'node:zlib';

/**
 * A PNG whose header claims `width`×`height` pixels, followed by junk instead of image data:
 * what a decompression bomb or an oversized upload looks like before any decoding.
 */
export function pngWithHeaderOnly(width: number, height: number, junkBytes = 64): Buffer {
  const chunk = (type: string, body: Buffer) => {
    const len = Buffer.alloc(4);
    len.writeUInt32BE(body.length);
    const crc = Buffer.alloc(4);
    crc.writeUInt32BE(crc32(Buffer.concat([Buffer.from(type), body])));
    return Buffer.concat([len, Buffer.from(type), body, crc]);
  };
  const ihdr = Buffer.alloc(13);
  ihdr.writeUInt32BE(width, 0);
  ihdr.writeUInt32BE(height, 4);
  ihdr.set([8, 2, 0, 0, 0], 8);
  return Buffer.concat([Buffer.from([137, 80, 78, 71, 13, 10, 26, 10]), chunk('IHDR', ihdr), chunk('IDAT', Buffer.alloc(junkBytes, 7)), chunk('IEND', Buffer.alloc(0))]);
}
