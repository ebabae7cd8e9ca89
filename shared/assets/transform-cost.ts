import type { ImageOps, OutputFormat } from './types.js';

type Size = { width: number; height: number };

/**
 * Milliseconds of one core to encode a megapixel of output, by format (sharp's defaults at
 * quality 80, a photograph). Measured on a 2-core machine: AVIF of a 49-megapixel output took
 * about 24 s, a JPEG of the same size under one; PNG (lossless, zlib) and WebP sit between.
 * Estimates for sharing workers fairly, not promises: what matters is their ratio.
 */
const ENCODE_MS_PER_MEGAPIXEL: Record<OutputFormat, number> = {
  jpeg: 15,
  gif: 100,
  webp: 80,
  png: 250,
  avif: 500,
};
/** Decoding a source megapixel (JPEG shrink-on-load often does better; PNG and HEIC worse). */
const DECODE_MS_PER_MEGAPIXEL = 10;
/**
 * Per source megapixel, measured on a 9-megapixel JPEG to JPEG on the 2-core machine: a crop
 * rectangle or mirroring is a first pass to raw pixels (+19 ms), a rotation one more (+48 ms in
 * all); a smart crop scores the whole image, without JPEG shrink-on-load (+40 ms).
 */
const REORIENT_MS_PER_MEGAPIXEL = 20;
const ROTATE_MS_PER_MEGAPIXEL = 30;
const SMART_CROP_MS_PER_MEGAPIXEL = 40;
/** Reading the source, writing the derivative, the job's round trip. */
const FIXED_MS = 20;

/**
 * What a transform is estimated to cost in worker time, in whole milliseconds: the source's
 * decode plus the output's encode by format, so a 49-megapixel AVIF counts about thirty times a
 * JPEG of the same size; smart crops, crop rectangles, rotations and mirroring add their passes,
 * an overlay its read and decode.
 * An unknown source size counts as a megapixel.
 */
export function estimateTransformMs(format: OutputFormat, source: Size | null, output: Size | null, ops: ImageOps = {}, overlay: Size | null = null): number {
  const megapixels = (s: Size | null) => (s ? (s.width * s.height) / 1_000_000 : 1);
  // A trim is one more such first pass to raw pixels (it reads them all to find the border).
  const reorient = (ops.crop || ops.cropPixels || ops.rotate || ops.flip ? REORIENT_MS_PER_MEGAPIXEL : 0) + (ops.trim ? REORIENT_MS_PER_MEGAPIXEL : 0) + (ops.rotate ? ROTATE_MS_PER_MEGAPIXEL : 0);
  const smart = ops.smartCrop ? SMART_CROP_MS_PER_MEGAPIXEL : 0;
  // An overlay is decoded like the base (unknown size: a megapixel) and read from storage too.
  const layer = ops.overlay ? FIXED_MS + DECODE_MS_PER_MEGAPIXEL * megapixels(overlay) : 0;
  return Math.ceil(FIXED_MS + layer + (DECODE_MS_PER_MEGAPIXEL + reorient + smart) * megapixels(source) + ENCODE_MS_PER_MEGAPIXEL[format] * megapixels(output ?? source));
}
