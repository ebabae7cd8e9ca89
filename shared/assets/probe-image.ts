import sharp, { type Metadata } from 'sharp';
import { unprocessable } from '../errors/index.js';
import { MAX_INPUT_PIXELS } from './limits.js';

export interface ImageHeader {
  format: string;
  /** Display size: EXIF orientation applied. */
  width: number;
  height: number;
  pages: number;
  hasAlpha: boolean;
}

/** The header's metadata, or null when these bytes hold no readable image header. */
async function readMetadata(input: Buffer): Promise<Metadata | null> {
  try {
    const meta = await sharp(input, { limitInputPixels: false }).metadata();
    return meta.width && meta.height ? meta : null;
  } catch {
    return null;
  }
}

/**
 * Reads only the image header (no pixel decoding) and refuses inputs over the pixel limit, so a
 * decompression bomb is rejected before any memory is spent on it. `more` supplies a longer
 * prefix of a file whose header was not in `input` (the rest of an upload still streaming).
 */
export async function probeImage(input: Buffer, more?: () => Promise<Buffer>): Promise<ImageHeader> {
  const meta = (await readMetadata(input)) ?? (more ? await readMetadata(await more()) : null);
  if (!meta) throw unprocessable('The file is not a readable image.');
  const width = meta.width!;
  const height = meta.height!;
  if (width * height > MAX_INPUT_PIXELS) {
    throw unprocessable(`The image is ${width}×${height} pixels; the limit is ${MAX_INPUT_PIXELS / 1_000_000} megapixels.`);
  }
  return {
    format: meta.format,
    width: meta.autoOrient?.width ?? width,
    height: meta.autoOrient?.height ?? height,
    pages: meta.pages ?? 1,
    hasAlpha: meta.hasAlpha ?? false,
  };
}
