import sharp from 'sharp';
import type { BlobStore } from '../adapters/blobs/index.js';
import { MAX_INPUT_PIXELS } from './limits.js';

/** The longest side the upload-time analyses look at: the attention peak lands on the same source pixel as at full size on the fixture photographs, and a JPEG decodes at an eighth of its size. */
const SIDE = 512;

/** Upright pixels of an image, at most SIDE on its longest side. */
export interface DecodedImage {
  data: Buffer;
  info: { width: number; height: number; channels: 1 | 2 | 3 | 4 };
}

/**
 * Streams a stored original through sharp once, for everything computed at upload (placeholder,
 * focal-point suggestion). Throws when the store does not answer or the image cannot be read.
 */
export async function decodeSmall(blobs: BlobStore, key: string): Promise<DecodedImage> {
  const blob = await blobs.get(key);
  if (!blob) throw new Error(`original ${key} not found`);
  const shrink = sharp({ limitInputPixels: MAX_INPUT_PIXELS, failOn: 'none' })
    .rotate()
    .resize(SIDE, SIDE, { fit: 'inside', withoutEnlargement: true })
    .raw();
  blob.body.on('error', (err) => shrink.destroy(err));
  blob.body.pipe(shrink);
  try {
    const { data, info } = await shrink.toBuffer({ resolveWithObject: true });
    return { data, info: { width: info.width, height: info.height, channels: info.channels } };
  } finally {
    blob.body.destroy();
  }
}
