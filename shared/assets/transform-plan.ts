import { AUTO_QUALITY, DEFAULT_QUALITY, MAX_OUTPUT_PIXELS, MAX_OUTPUT_SIDE } from './limits.js';
import type { CropRect, FocalPoint, Gravity, ImageOps, OutputFormat, PixelRect, SmartCrop } from './types.js';

/**
 * What sharp must do for a set of operations on a source of known (auto-oriented) size: pure
 * arithmetic, unit-tested without decoding anything.
 */
export interface TransformPlan {
  /**
   * Crop rectangle in pixels of the upright source, then rotation and mirroring: done in a first
   * pass, so every size below is that of its result (`orientedSize`).
   */
  reorient?: { crop?: Box; rotate?: number; flip: boolean; flop: boolean };
  /** Crop in source pixels, before the resize (focal-point fills). */
  extract?: { left: number; top: number; width: number; height: number };
  resize?: { width: number; height: number; fit: 'inside' | 'cover' | 'fill'; position?: string; withoutEnlargement?: boolean };
  /** PAD: the borders added around the resized image to make the box. */
  extend?: { top: number; bottom: number; left: number; right: number };
  format: OutputFormat;
  quality: number;
}

export const SHARP_GRAVITY: Record<Gravity, string> = {
  NORTH: 'north',
  SOUTH: 'south',
  EAST: 'east',
  WEST: 'west',
  NORTH_EAST: 'northeast',
  NORTH_WEST: 'northwest',
  SOUTH_EAST: 'southeast',
  SOUTH_WEST: 'southwest',
  CENTER: 'centre',
};

type Size = { width: number; height: number };
type Box = { left: number; top: number; width: number; height: number };

const SHARP_STRATEGY: Record<SmartCrop, string> = { AUTO: 'attention', ATTENTION: 'attention', ENTROPY: 'entropy' };

/** A fractional crop in pixels of a source, at least one pixel and inside it. */
export function cropBox(source: Size, c: CropRect): Box {
  const left = Math.min(source.width - 1, Math.round(c.x * source.width));
  const top = Math.min(source.height - 1, Math.round(c.y * source.height));
  return {
    left,
    top,
    width: clamp(Math.round(c.width * source.width), 1, source.width - left),
    height: clamp(Math.round(c.height * source.height), 1, source.height - top),
  };
}

/** A pixel cut clamped inside the source (the API refuses one that is not; this keeps sharp safe). */
export function pixelBox(source: Size, c: PixelRect): Box {
  const left = Math.min(source.width - 1, c.x);
  const top = Math.min(source.height - 1, c.y);
  return { left, top, width: clamp(c.width, 1, source.width - left), height: clamp(c.height, 1, source.height - top) };
}

/** The cut of the upright source the operations ask for, in pixels, or undefined. */
export function cutOf(ops: ImageOps, source: Size): Box | undefined {
  if (ops.cropPixels) return pixelBox(source, ops.cropPixels);
  return ops.crop ? cropBox(source, ops.crop) : undefined;
}

/** The quality the encoder gets: `q_auto`'s for the format, else the asked or default one. */
export function qualityOf(ops: ImageOps, format: OutputFormat): number {
  if (ops.autoQuality && (format === 'jpeg' || format === 'webp' || format === 'avif')) return AUTO_QUALITY[format];
  return ops.quality ?? DEFAULT_QUALITY;
}

/**
 * The size the resize starts from: the upright source after the cut and rotation. A trim is not
 * known before the pixels are read: the worker plans again from the trimmed size, and sizes
 * computed ahead (the pixel budget) are of the untrimmed cut, which a trim only makes smaller
 * (with `up_1` a fit of the smaller cut may grow: the worker checks the budget again after it).
 */
export function orientedSize(ops: ImageOps, source: Size): Size {
  const cropped = cutOf(ops, source) ?? source;
  const turned = ops.rotate === 90 || ops.rotate === 270;
  return turned ? { width: cropped.height, height: cropped.width } : { width: cropped.width, height: cropped.height };
}

const clamp = (v: number, lo: number, hi: number) => Math.min(hi, Math.max(lo, v));
const orientation = (w: number, h: number) => Math.sign(w - h);

/**
 * The source window that, scaled to `width`×`height`, covers it while centring the focal point
 * as far as the image edges allow (the window is clamped inside the image, so the point stays in it).
 */
export function focalCrop(source: Size, target: Size, fp: FocalPoint) {
  const scale = Math.max(target.width / source.width, target.height / source.height);
  const width = clamp(Math.round(target.width / scale), 1, source.width);
  const height = clamp(Math.round(target.height / scale), 1, source.height);
  const left = clamp(Math.round(fp.x * source.width - width / 2), 0, source.width - width);
  const top = clamp(Math.round(fp.y * source.height - height / 2), 0, source.height - height);
  return { left, top, width, height };
}

/** The scale that fits `source` inside `box`, never above 1 unless enlarging is allowed. */
function fitScale(source: Size, box: Size, enlarge: boolean): number {
  const scale = Math.min(box.width / source.width, box.height / source.height);
  return enlarge ? scale : Math.min(1, scale);
}

/**
 * A fill keeps the requested shape; without `upscale` its box shrinks (same aspect ratio) to
 * what the source can cover, so a small source is cropped, never enlarged.
 */
function fillBox(source: Size, target: Size, enlarge: boolean): Size {
  const f = enlarge ? 1 : Math.min(1, source.width / target.width, source.height / target.height);
  return { width: Math.max(1, Math.round(target.width * f)), height: Math.max(1, Math.round(target.height * f)) };
}

const isFill = (ops: ImageOps, source: Size, target: Size) => {
  const mode = ops.resize ?? 'FIT';
  return mode === 'FILL' || (mode === 'AUTO' && orientation(source.width, source.height) === orientation(target.width, target.height));
};

/**
 * The size a derivative will have (to a pixel of sharp's rounding): what the pixel budget is
 * checked against before any work is queued.
 */
export function outputSize(ops: ImageOps, upright: Size): Size {
  const source = orientedSize(ops, upright);
  const enlarge = ops.upscale === true;
  const { width, height } = ops;
  if (width !== undefined && height !== undefined && ops.resize === 'PAD') return { width, height };
  if (width !== undefined && height !== undefined && isFill(ops, source, { width, height })) return fillBox(source, { width, height }, enlarge);
  const box = { width: width ?? MAX_OUTPUT_SIDE, height: height ?? MAX_OUTPUT_SIDE };
  const scale = width === undefined && height === undefined ? Math.min(1, fitScale(source, box, false)) : fitScale(source, box, enlarge);
  return { width: Math.max(1, Math.round(source.width * scale)), height: Math.max(1, Math.round(source.height * scale)) };
}

/** Why a derivative of this size is refused (over MAX_OUTPUT_PIXELS), or null. */
export function pixelBudgetProblem(size: Size): string | null {
  const pixels = size.width * size.height;
  return pixels > MAX_OUTPUT_PIXELS ? `the image would be ${size.width}×${size.height} (${pixels} pixels); one image may have at most ${MAX_OUTPUT_PIXELS}` : null;
}

export function planTransform(ops: ImageOps & { format: OutputFormat }, upright: Size): TransformPlan {
  const plan: TransformPlan = { format: ops.format, quality: qualityOf(ops, ops.format) };
  const cut = cutOf(ops, upright);
  if (cut || ops.rotate || ops.flip) {
    plan.reorient = {
      ...(cut ? { crop: cut } : {}),
      ...(ops.rotate ? { rotate: ops.rotate } : {}),
      flip: ops.flip === 'VERTICAL' || ops.flip === 'BOTH',
      flop: ops.flip === 'HORIZONTAL' || ops.flip === 'BOTH',
    };
  }
  const source = orientedSize(ops, upright);
  const { width, height } = ops;
  const enlarge = ops.upscale === true;
  const inside = (box: Size) => ({ ...box, fit: 'inside' as const, ...(enlarge ? {} : { withoutEnlargement: true }) });
  if (width === undefined && height === undefined) {
    // No size asked: the source's own, but never over the output limit.
    if (source.width > MAX_OUTPUT_SIDE || source.height > MAX_OUTPUT_SIDE) plan.resize = { width: MAX_OUTPUT_SIDE, height: MAX_OUTPUT_SIDE, fit: 'inside' };
    return plan;
  }
  if (width === undefined || height === undefined) {
    // One side: keep the aspect ratio; the other side is bounded by the output limit too.
    plan.resize = inside({ width: width ?? MAX_OUTPUT_SIDE, height: height ?? MAX_OUTPUT_SIDE });
    return plan;
  }
  if (ops.resize === 'PAD') {
    // Fit inside the box (enlarged only with upscale), then centre it on the background.
    const scale = fitScale(source, { width, height }, enlarge);
    const inner = { width: clamp(Math.round(source.width * scale), 1, width), height: clamp(Math.round(source.height * scale), 1, height) };
    plan.resize = { ...inner, fit: 'fill' };
    const left = Math.floor((width - inner.width) / 2);
    const top = Math.floor((height - inner.height) / 2);
    plan.extend = { left, right: width - inner.width - left, top, bottom: height - inner.height - top };
    return plan;
  }
  if (!isFill(ops, source, { width, height })) {
    plan.resize = inside({ width, height });
    return plan;
  }
  const box = fillBox(source, { width, height }, enlarge);
  if (ops.focalPoint) {
    plan.extract = focalCrop(source, box, ops.focalPoint);
    plan.resize = { ...box, fit: 'fill' };
  } else {
    const position = ops.smartCrop ? SHARP_STRATEGY[ops.smartCrop] : SHARP_GRAVITY[ops.gravity ?? 'CENTER'];
    plan.resize = { ...box, fit: 'cover', position };
  }
  return plan;
}
