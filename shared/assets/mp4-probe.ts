/**
 * Duration and frame size of an MP4/QuickTime file from its `moov` box, read through ranged
 * reads so the file is never loaded whole (the box may sit at the end of a large upload).
 */
export type RangeReader = (start: number, length: number) => Promise<Buffer>;

export interface VideoInfo {
  duration: number | null;
  width: number | null;
  height: number | null;
}

const MAX_MOOV_BYTES = 32 * 1024 * 1024;

function boxHeader(b: Buffer, at: number, limit: number): { size: number; type: string; header: number } | null {
  if (at + 8 > limit) return null;
  let size = b.readUInt32BE(at);
  const type = b.toString('latin1', at + 4, at + 8);
  let header = 8;
  if (size === 1) {
    if (at + 16 > limit) return null;
    size = Number(b.readBigUInt64BE(at + 8));
    header = 16;
  } else if (size === 0) {
    size = limit - at;
  }
  if (size < header) return null;
  return { size, type, header };
}

/** Children of a container box held in `b[from, to)`. */
function* children(b: Buffer, from: number, to: number) {
  let at = from;
  while (at < to) {
    const h = boxHeader(b, at, to);
    if (!h) return;
    yield { ...h, start: at + h.header, end: Math.min(at + h.size, to) };
    at += h.size;
  }
}

function parseMoov(moov: Buffer): VideoInfo {
  const info: VideoInfo = { duration: null, width: null, height: null };
  for (const box of children(moov, 0, moov.length)) {
    if (box.type === 'mvhd') {
      const v = moov[box.start];
      const timescale = moov.readUInt32BE(box.start + (v === 1 ? 20 : 12));
      const duration = v === 1 ? Number(moov.readBigUInt64BE(box.start + 24)) : moov.readUInt32BE(box.start + 16);
      if (timescale > 0) info.duration = Math.round((duration / timescale) * 1000) / 1000;
    }
    if (box.type === 'trak' && info.width === null) {
      for (const t of children(moov, box.start, box.end)) {
        if (t.type !== 'tkhd') continue;
        const at = t.start + (moov[t.start] === 1 ? 88 : 76);
        if (at + 8 > t.end) continue;
        const width = moov.readUInt32BE(at) / 65536;
        const height = moov.readUInt32BE(at + 4) / 65536;
        if (width > 0 && height > 0) {
          info.width = Math.round(width);
          info.height = Math.round(height);
        }
      }
    }
  }
  return info;
}

export async function probeMp4(read: RangeReader, size: number): Promise<VideoInfo | null> {
  let at = 0;
  for (let guard = 0; guard < 10_000 && at + 8 <= size; guard++) {
    const head = await read(at, Math.min(16, size - at));
    const h = boxHeader(head, 0, head.length >= 16 ? Math.min(size - at, Number.MAX_SAFE_INTEGER) : head.length);
    if (!h) return null;
    if (h.type === 'moov') {
      const length = Math.min(h.size, size - at) - h.header;
      if (length > MAX_MOOV_BYTES) return null;
      return parseMoov(await read(at + h.header, length));
    }
    at += h.size;
  }
  return null;
}
