import sharp from 'sharp';
import type { FocalPoint } from './types.js';
import type { DecodedImage } from './decode-small.js';

/**
 * Where libvips's attention strategy (edges, skin tones, saturation) puts the subject, as
 * fractions of the image. sharp reports the strategy's peak (`attentionX`/`attentionY`, in the
 * input's pixels) only when it really crops, so the image is cropped to half its height without
 * scaling: the peak does not depend on the crop's size. Null for an image too small to crop, and
 * for a flat one (nothing stands out: the strategy would name its top-left corner).
 */
export async function suggestFocalPoint(image: DecodedImage): Promise<FocalPoint | null> {
  const { width, height, channels } = image.info;
  if (height < 2 || width < 1) return null;
  const pixels = () => sharp(image.data, { raw: { width, height, channels } });
  const { channels: spread } = await pixels().stats();
  if (spread.every((c) => c.stdev < FLAT_STDEV)) return null;
  const { info } = await pixels()
    .resize({ width, height: Math.floor(height / 2), fit: 'cover', position: 'attention' })
    .raw()
    .toBuffer({ resolveWithObject: true });
  if (info.attentionX === undefined || info.attentionY === undefined) return null;
  return { x: round(clamp(info.attentionX / width)), y: round(clamp(info.attentionY / height)) };
}

/** Below one grey level of spread in every channel the image is flat. */
const FLAT_STDEV = 1;
const clamp = (v: number) => Math.min(1, Math.max(0, v));
/** Four decimals: a tenth of a pixel at 1000 px, and a stable JSON value. */
const round = (v: number) => Math.round(v * 10_000) / 10_000;
