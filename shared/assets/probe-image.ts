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

/**
 * Reads only the image header (no pixel decoding) and refuses inputs over the pixel limit, so a
 * decompression bomb is rejected before any memory is spent on it.
 */
export async function probeImage(input: Buffer): Promise<ImageHeader> {
  let meta: Metadata;
  try {
    meta = await sharp(input, { limitInputPixels: false }).metadata();
  } catch {
    throw unprocessable('The file is not a readable image.');
  }
  if (!meta.width || !meta.height) throw unprocessable('The image has no readable dimensions.');
  if (meta.width * meta.height > MAX_INPUT_PIXELS) {
    throw unprocessable(`The image is ${meta.width}×${meta.height} pixels; the limit is ${MAX_INPUT_PIXELS / 1_000_000} megapixels.`);
  }
  return {
    format: meta.format,
    width: meta.autoOrient?.width ?? meta.width,
    height: meta.autoOrient?.height ?? meta.height,
    pages: meta.pages ?? 1,
    hasAlpha: meta.hasAlpha ?? false,
  };
}
