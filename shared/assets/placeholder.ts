import sharp from 'sharp';
import type { BlobStore } from '../adapters/blobs/index.js';
import { MAX_INPUT_PIXELS } from './limits.js';

/** The placeholder's longest side, in pixels: a browser scales it up, blurred. */
const SIDE = 16;

/**
 * A low-quality image placeholder: the stored original shrunk to 16 pixels on its longest side,
 * blurred, as a WebP data: URI of a few hundred bytes. Streams the original (JPEG decodes at a
 * fraction of its size), so it costs little next to the upload; null when the image cannot be
 * read (or the store does not answer), since a placeholder is a nicety and never fails an upload.
 */
export async function makePlaceholder(blobs: BlobStore, key: string): Promise<string | null> {
  const blob = await blobs.get(key).catch(() => null);
  if (!blob) return null;
  const shrink = sharp({ limitInputPixels: MAX_INPUT_PIXELS, failOn: 'none' })
    .rotate()
    .resize(SIDE, SIDE, { fit: 'inside' })
    .blur(0.8)
    .webp({ quality: 40 });
  blob.body.on('error', (err) => shrink.destroy(err));
  blob.body.pipe(shrink);
  try {
    const bytes = await shrink.toBuffer();
    return `data:image/webp;base64,${bytes.toString('base64')}`;
  } catch {
    return null;
  } finally {
    blob.body.destroy();
  }
}
