import sharp, { type Sharp, type SharpOptions } from 'sharp';
import { MAX_INPUT_PIXELS } from './limits.js';
import { probeImage, type ImageHeader } from './probe-image.js';
import { outputSize, pixelBudgetProblem, planTransform, type TransformPlan } from './transform-plan.js';
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
 * The crop rectangle, rotation and mirroring as a first pass to raw sRGB pixels: libvips
 * reorders operations inside one pipeline, so doing them apart keeps "crop, turn, then resize".
 */
async function reoriented(input: Buffer, open: SharpOptions, r: NonNullable<TransformPlan['reorient']>): Promise<Sharp> {
  let first = sharp(input, open);
  if (r.crop) first = first.extract(r.crop);
  const { data, info } = await first.toColourspace('srgb').raw().toBuffer({ resolveWithObject: true });
  let second = sharp(data, { raw: { width: info.width, height: info.height, channels: info.channels } });
  if (r.rotate) {
    const turned = await second.rotate(r.rotate).raw().toBuffer({ resolveWithObject: true });
    second = sharp(turned.data, { raw: { width: turned.info.width, height: turned.info.height, channels: turned.info.channels } });
  }
  // sharp mirrors before it rotates within one pipeline: hence after the rotation's own pass.
  if (r.flip) second = second.flip();
  if (r.flop) second = second.flop();
  return second;
}

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
  const open = { limitInputPixels: MAX_INPUT_PIXELS, animated: false, pages: 1, autoOrient: true, failOn: 'error' } as const;
  // First frame only; EXIF orientation applied before any geometry; sRGB out; metadata dropped (sharp's default).
  let img = plan.reorient ? await reoriented(input, open, plan.reorient) : sharp(input, open);
  if (plan.extract) img = img.extract(plan.extract);
  if (plan.resize) img = img.resize({ ...plan.resize });
  const background = ops.background ? `#${ops.background}` : undefined;
  if (plan.extend) {
    // JPEG cannot be transparent: its letterbox is white unless a background is given.
    const fill = background ?? (plan.format === 'jpeg' ? '#ffffff' : { r: 0, g: 0, b: 0, alpha: 0 });
    img = img.ensureAlpha().extend({ ...plan.extend, background: fill });
  }
  if (ops.blur !== undefined) img = img.blur(ops.blur / 2);
  if (ops.sharpen !== undefined) img = img.sharpen({ sigma: ops.sharpen / 2 });
  if (ops.grayscale) img = img.grayscale();
  img = img.toColourspace('srgb');
  if (background && plan.format !== 'jpeg' && !plan.extend) img = img.flatten({ background });
  switch (plan.format) {
    case 'jpeg':
      // JPEG has no alpha: composite transparent sources on white rather than black.
      img = img.flatten({ background: background ?? '#ffffff' }).jpeg({ quality: plan.quality });
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
