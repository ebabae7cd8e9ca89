/**
 * The largest window a zstd frame of the body declares, read from the frame headers without
 * decoding (blocks are stepped over by their sizes). A decoder allocates the window up front —
 * fzstd up to 2 GB for a header that asks for it — so a hostile frame is refused before any
 * decoding. Skippable frames are stepped over; a truncated or malformed body ends the walk (the
 * decoder then reports it).
 */
const ZSTD_MAGIC = 0xfd2fb528;
const FCS_BYTES = [0, 2, 4, 8];

export function largestZstdWindow(body: Uint8Array): number {
  const view = new DataView(body.buffer, body.byteOffset, body.byteLength);
  let at = 0;
  let largest = 0;
  while (at + 8 <= body.length) {
    const magic = view.getUint32(at, true);
    if ((magic & 0xfffffff0) === 0x184d2a50) {
      at += 8 + view.getUint32(at + 4, true);
      continue;
    }
    if (magic !== ZSTD_MAGIC) break;
    const fhd = body[at + 4];
    const singleSegment = (fhd >> 5) & 1;
    const checksum = (fhd >> 2) & 1;
    const dictBytes = [0, 1, 2, 4][fhd & 3];
    const fcsBytes = FCS_BYTES[fhd >> 6] || singleSegment;
    let p = at + 5;
    const descriptor = singleSegment ? -1 : body[p++];
    p += dictBytes;
    if (p + fcsBytes > body.length) break;
    let contentSize = 0;
    for (let i = fcsBytes - 1; i >= 0; i--) contentSize = contentSize * 256 + body[p + i];
    if (fcsBytes === 2) contentSize += 256;
    p += fcsBytes;
    const windowBase = descriptor >= 0 ? 2 ** (10 + (descriptor >> 3)) : 0;
    const window = descriptor >= 0 ? windowBase + (windowBase / 8) * (descriptor & 7) : contentSize;
    largest = Math.max(largest, window);
    // blocks: a 3-byte header (last flag, type, size), then size bytes (one for an RLE block)
    for (;;) {
      if (p + 3 > body.length) return largest;
      const header = body[p] | (body[p + 1] << 8) | (body[p + 2] << 16);
      const type = (header >> 1) & 3;
      if (type === 3) return largest;
      p += 3 + (type === 1 ? 1 : header >> 3);
      if (header & 1) break;
    }
    at = p + (checksum ? 4 : 0);
  }
  return largest;
}
