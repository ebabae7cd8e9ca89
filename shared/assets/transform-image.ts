import sharp, { type OverlayOptions, type Sharp, type SharpOptions } from 'sharp';
import { MAX_INPUT_PIXELS } from './limits.js';
import { probeImage, type ImageHeader } from './probe-image.js';
import { outputSize, pixelBudgetProblem, planTransform, SHARP_GRAVITY, type TransformPlan } from './transform-plan.js';
import { unprocessable } from '../errors/index.js';
import type { ImageOps, ImageOverlay, OutputFormat } from './types.js';

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

/** The pipeline so far, run to raw pixels: what follows starts from its result. */
async function rawPass(img: Sharp): Promise<Sharp> {
  const { data, info } = await img.raw().toBuffer({ resolveWithObject: true });
  return sharp(data, { raw: { width: info.width, height: info.height, channels: info.channels } });
}

/** The overlay at its size and opacity, as a composite layer placed by its gravity. */
async function overlayLayer(source: { input: Buffer; header: ImageHeader }, o: ImageOverlay, base: { width: number; height: number }, open: SharpOptions): Promise<OverlayOptions> {
  const problem = source.header.width * source.header.height > MAX_INPUT_PIXELS ? 'the overlay image is over the input pixel limit' : null;
  if (problem) throw unprocessable(`Image operations: ${problem}.`);
  const width = Math.max(1, Math.round(o.scale * base.width));
  const { data, info } = await sharp(source.input, open)
    .resize({ width, height: base.height, fit: 'inside' })
    .toColourspace('srgb')
    .ensureAlpha()
    .raw()
    .toBuffer({ resolveWithObject: true });
  if (o.opacity < 1) for (let i = 3; i < data.length; i += 4) data[i] = Math.round(data[i] * o.opacity);
  return { input: data, raw: { width: info.width, height: info.height, channels: 4 }, gravity: SHARP_GRAVITY[o.gravity] };
}

/**
 * The crop rectangle, rotation and mirroring as a first pass to raw sRGB pixels: libvips
 * reorders operations inside one pipeline, so doing them apart keeps "crop, turn, then resize".
 */
async function reoriented(input: Buffer, open: SharpOptions, r: NonNullable<TransformPlan['reorient']>): Promise<Sharp> {
  let first = sharp(input, open);
  if (r.crop) first = first.extract(r.crop);
  let second = await rawPass(first.toColourspace('srgb'));
  if (r.rotate) second = await rawPass(second.rotate(r.rotate));
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
  options: { timeoutSeconds?: number; header?: ImageHeader; overlay?: { input: Buffer; header: ImageHeader } } = {},
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
  if (ops.blur !== undefined) img = img.blur(ops.blur / 2);
  if (ops.sharpen !== undefined) img = img.sharpen({ sigma: ops.sharpen / 2 });
  // The image is greyed, not the background it is padded or flattened on: libvips greys last in
  // a pipeline, so with a background the grey takes a pass of its own.
  // (its one grey band made three again, so that the background keeps its colour).
  if (ops.grayscale) img = plan.extend || background || ops.overlay ? await rawPass((await rawPass(img.grayscale())).toColourspace('srgb')) : img.grayscale();
  if (plan.extend) {
    // JPEG cannot be transparent: its letterbox is white unless a background is given.
    const fill = background ?? (plan.format === 'jpeg' ? '#ffffff' : { r: 0, g: 0, b: 0, alpha: 0 });
    img = img.ensureAlpha().extend({ ...plan.extend, background: fill });
  }
  if (ops.overlay) {
    if (!options.overlay) throw new Error('An overlay was asked for without its image.');
    img = img.composite([await overlayLayer(options.overlay, ops.overlay, outputSize(ops, header), open)]);
  }
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
