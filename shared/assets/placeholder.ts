import sharp from 'sharp';
import type { DecodedImage } from './decode-small.js';

/** The placeholder's longest side, in pixels: a browser scales it up, blurred. */
const SIDE = 16;

/**
 * A low-quality image placeholder: the image shrunk to 16 pixels on its longest side, blurred, as
 * a WebP data: URI of a few hundred bytes. Made from the small decode shared with the other
 * upload-time analyses, so it costs little next to the upload.
 */
export async function makePlaceholder(image: DecodedImage): Promise<string> {
  const { width, height, channels } = image.info;
  const bytes = await sharp(image.data, { raw: { width, height, channels } })
    .resize(SIDE, SIDE, { fit: 'inside' })
    .blur(0.8)
    .webp({ quality: 40 })
    .toBuffer();
  return `data:image/webp;base64,${bytes.toString('base64')}`;
}
