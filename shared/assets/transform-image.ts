import sharp, { type OverlayOptions, type Sharp, type SharpOptions } from 'sharp';
import { MAX_INPUT_PIXELS } from './limits.js';
import { probeImage, type ImageHeader } from './probe-image.js';
import { cutOf, outputSize, pixelBudgetProblem, planTransform, SHARP_GRAVITY, type TransformPlan } from './transform-plan.js';
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

type Size = { width: number; height: number };

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
  const layer = { input: data, raw: { width: info.width, height: info.height, channels: 4 as const } };
  if (!o.offsetX && !o.offsetY) return { ...layer, gravity: SHARP_GRAVITY[o.gravity] };
  return { ...layer, ...overlayPosition(o, { width: info.width, height: info.height }, base) };
}

/**
 * Where an overlay with offsets goes: its gravity's place, moved `offsetX`/`offsetY` away from the
 * edge the gravity names on each axis (right or down from the centre where it names none), and
 * kept inside the result.
 */
export function overlayPosition(o: ImageOverlay, layer: Size, base: Size): { left: number; top: number } {
  const g = o.gravity;
  const axis = (room: number, offset: number, start: boolean, end: boolean) => {
    const at = start ? offset : end ? room - offset : Math.floor(room / 2) + offset;
    return Math.min(Math.max(0, at), Math.max(0, room));
  };
  return {
    left: axis(base.width - layer.width, o.offsetX ?? 0, g.endsWith('WEST'), g.endsWith('EAST')),
    top: axis(base.height - layer.height, o.offsetY ?? 0, g.startsWith('NORTH'), g.startsWith('SOUTH')),
  };
}

/**
 * The crop rectangle, rotation and mirroring as a first pass to raw sRGB pixels: libvips
 * reorders operations inside one pipeline, so doing them apart keeps "crop, turn, then resize".
 */
async function reoriented(start: () => Sharp, r: NonNullable<TransformPlan['reorient']>): Promise<Sharp> {
  let first = start();
  if (r.crop) first = first.extract(r.crop);
  let second = await rawPass(first.toColourspace('srgb'));
  if (r.rotate) second = await rawPass(second.rotate(r.rotate));
  // sharp mirrors before it rotates within one pipeline: hence after the rotation's own pass.
  if (r.flip) second = second.flip();
  if (r.flop) second = second.flop();
  return second;
}

/**
 * `t_N`: the cut, then the trim, as a first pass to raw pixels; what follows is planned from the
 * trimmed size (unknown before the pixels are read), the cut being done.
 */
async function trimmed(input: Buffer, open: SharpOptions, ops: ImageOps & { format: OutputFormat }, upright: Size) {
  const cut = cutOf(ops, upright);
  // sharp trims before it extracts within one pipeline: the cut takes a pass of its own.
  const first = cut ? await rawPass(sharp(input, open).extract(cut).toColourspace('srgb')) : sharp(input, open).toColourspace('srgb');
  const { data, info } = await first.trim({ threshold: ops.trim }).raw().toBuffer({ resolveWithObject: true });
  const size = { width: info.width, height: info.height };
  const start = () => sharp(data, { raw: { ...size, channels: info.channels } });
  return { start, size, ops: { ...ops, crop: undefined, cropPixels: undefined, trim: undefined } };
}

/**
 * Whether the frames of an animated source are kept: WebP and GIF can hold them (sharp writes
 * AVIF as one tall still), and only operations that act on each frame alike apply — a resize by
 * width, height and a compass gravity, quality, grey. Anything else gives the first frame, as
 * does `fr_N` its frame.
 */
export function keepsAnimation(ops: ImageOps & { format: OutputFormat }, pages: number): boolean {
  if (pages < 2 || ops.frame !== undefined || (ops.format !== 'webp' && ops.format !== 'gif')) return false;
  return !(ops.crop || ops.cropPixels || ops.trim || ops.rotate || ops.flip || ops.overlay || ops.smartCrop || ops.focalPoint || ops.resize === 'PAD' || ops.blur || ops.sharpen || ops.background);
}

/** An animated source resized frame by frame into WebP or GIF, its delays and loop kept. */
async function animated(input: Buffer, ops: ImageOps & { format: 'webp' | 'gif' }, header: ImageHeader, timeoutSeconds?: number): Promise<TransformedImage> {
  // The whole strip of frames is decoded: the input limit counts every frame's pixels.
  if (header.width * header.height * header.pages > MAX_INPUT_PIXELS) {
    throw unprocessable(`Image operations: the source's ${header.pages} frames of ${header.width}×${header.height} are over the input pixel limit.`);
  }
  const size = outputSize(ops, header);
  const problem = pixelBudgetProblem({ width: size.width, height: size.height * header.pages });
  if (problem) throw unprocessable(`Image operations: ${header.pages} frames of ${size.width}×${size.height}: ${problem}.`);
  const plan = planTransform(ops, header);
  let img = sharp(input, { limitInputPixels: MAX_INPUT_PIXELS, animated: true, failOn: 'error' });
  if (plan.resize) img = img.resize({ ...plan.resize });
  if (ops.grayscale) img = img.grayscale();
  img = ops.format === 'webp' ? img.webp({ quality: plan.quality }) : img.gif();
  if (timeoutSeconds) img = img.timeout({ seconds: timeoutSeconds });
  const { data, info } = await img.toBuffer({ resolveWithObject: true });
  return { data, width: info.width, height: info.pageHeight ?? Math.round(info.height / header.pages), format: ops.format, contentType: CONTENT_TYPES[ops.format] };
}

/**
 * Runs one derivative through sharp. libvips does the pixel work on libuv's thread pool, so the
 * calling event loop (and a BullMQ lock renewal on it) keeps running. The header is checked
 * against the pixel limit before anything is decoded; sharp's own limit stays on as a second guard.
 */
export async function transformImage(
  input: Buffer,
  asked: ImageOps & { format: OutputFormat },
  options: { timeoutSeconds?: number; header?: ImageHeader; overlay?: { input: Buffer; header: ImageHeader } } = {},
): Promise<TransformedImage> {
  // A header probed before (by the caller, for this very input) is not probed again.
  const header = options.header ?? (await probeImage(input));
  // The API refuses these before queueing; a job queued by an older build meets the same rule.
  const problem = pixelBudgetProblem(outputSize(asked, header));
  if (problem) throw unprocessable(`Image operations: ${problem}.`);
  let ops = asked;
  if (keepsAnimation(asked, header.pages)) return animated(input, { ...asked, format: asked.format as 'webp' | 'gif' }, header, options.timeoutSeconds);
  if (asked.frame !== undefined && asked.frame >= header.pages) {
    throw unprocessable(`Image operation "fr": the source has ${header.pages} frame${header.pages === 1 ? '' : 's'} (0 to ${header.pages - 1}).`);
  }
  // One frame: the first, or the one fr_N names.
  const open = { limitInputPixels: MAX_INPUT_PIXELS, animated: false, pages: 1, page: asked.frame ?? 0, autoOrient: true, failOn: 'error' } as const;
  let start = () => sharp(input, open);
  let upright: Size = header;
  if (asked.trim) {
    ({ start, size: upright, ops } = await trimmed(input, open, asked, header));
    const grown = pixelBudgetProblem(outputSize(ops, upright));
    if (grown) throw unprocessable(`Image operations: ${grown}.`);
  }
  const plan = planTransform(ops, upright);
  // One frame; EXIF orientation applied before any geometry; sRGB out; metadata dropped (sharp's default).
  let img = plan.reorient ? await reoriented(start, plan.reorient) : start();
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
    img = img.composite([await overlayLayer(options.overlay, ops.overlay, outputSize(ops, upright), open)]);
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
