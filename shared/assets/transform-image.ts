import sharp from 'sharp';
import { MAX_INPUT_PIXELS } from './limits.js';
import { probeImage, type ImageHeader } from './probe-image.js';
import { outputSize, pixelBudgetProblem, planTransform } from './transform-plan.js';
import { unprocessable } from '../errors/index.js';
import type { ImageOps, OutputFormat } from './types.js';

export interface TransformedImage {
  data: Buffer;
  width: number;
  height: number;
  format: OutputFormat;
  contentType: string;
}

const CONTENT_TYPES: Record<OutputFormat, string> = {
  jpeg: 'image/jpeg',
  png: 'image/png',
  webp: 'image/webp',
  avif: 'image/avif',
  gif: 'image/gif',
};

export const contentTypeOf = (f: OutputFormat): string => CONTENT_TYPES[f];

/**
 * Runs one derivative through sharp. libvips does the pixel work on libuv's thread pool, so the
 * calling event loop (and a BullMQ lock renewal on it) keeps running. The header is checked
 * against the pixel limit before anything is decoded; sharp's own limit stays on as a second guard.
 */
export async function transformImage(
  input: Buffer,
  ops: ImageOps & { format: OutputFormat },
  options: { timeoutSeconds?: number; header?: ImageHeader } = {},
): Promise<TransformedImage> {
  // A header probed before (by the caller, for this very input) is not probed again.
  const header = options.header ?? (await probeImage(input));
  // The API refuses these before queueing; a job queued by an older build meets the same rule.
  const problem = pixelBudgetProblem(outputSize(ops, header));
  if (problem) throw unprocessable(`Image operations: ${problem}.`);
  const plan = planTransform(ops, header);
  // First frame only; EXIF orientation applied before any geometry; sRGB out; metadata dropped (sharp's default).
  let img = sharp(input, { limitInputPixels: MAX_INPUT_PIXELS, animated: false, pages: 1, autoOrient: true, failOn: 'error' });
  if (plan.extract) img = img.extract(plan.extract);
  if (plan.resize) img = img.resize({ ...plan.resize });
  if (ops.blur !== undefined) img = img.blur(ops.blur / 2);
  if (ops.sharpen !== undefined) img = img.sharpen({ sigma: ops.sharpen / 2 });
  img = img.toColourspace('srgb');
  switch (plan.format) {
    case 'jpeg':
      // JPEG has no alpha: composite transparent sources on white rather than black.
      img = img.flatten({ background: '#ffffff' }).jpeg({ quality: plan.quality });
      break;
    case 'png':
      img = img.png();
      break;
    case 'webp':
      img = img.webp({ quality: plan.quality });
      break;
    case 'avif':
      img = img.avif({ quality: plan.quality });
      break;
    case 'gif':
      img = img.gif();
      break;
  }
  if (options.timeoutSeconds) img = img.timeout({ seconds: options.timeoutSeconds });
  const { data, info } = await img.toBuffer({ resolveWithObject: true });
  return { data, width: info.width, height: info.height, format: plan.format, contentType: CONTENT_TYPES[plan.format] };
}
