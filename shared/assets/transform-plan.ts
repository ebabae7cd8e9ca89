import { DEFAULT_QUALITY, MAX_OUTPUT_SIDE } from './limits.js';
import type { FocalPoint, Gravity, ImageOps, OutputFormat } from './types.js';

/**
 * What sharp must do for a set of operations on a source of known (auto-oriented) size: pure
 * arithmetic, unit-tested without decoding anything.
 */
export interface TransformPlan {
  /** Crop in source pixels, before the resize (focal-point fills). */
  extract?: { left: number; top: number; width: number; height: number };
  resize?: { width: number; height: number; fit: 'inside' | 'cover' | 'fill'; position?: string };
  format: OutputFormat;
  quality: number;
}

const SHARP_GRAVITY: Record<Gravity, string> = {
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

const clamp = (v: number, lo: number, hi: number) => Math.min(hi, Math.max(lo, v));
const orientation = (w: number, h: number) => Math.sign(w - h);

/**
 * The source window that, scaled to `width`×`height`, covers it while centring the focal point
 * as far as the image edges allow (the window is clamped inside the image, so the point stays in it).
 */
export function focalCrop(source: { width: number; height: number }, target: { width: number; height: number }, fp: FocalPoint) {
  const scale = Math.max(target.width / source.width, target.height / source.height);
  const width = clamp(Math.round(target.width / scale), 1, source.width);
  const height = clamp(Math.round(target.height / scale), 1, source.height);
  const left = clamp(Math.round(fp.x * source.width - width / 2), 0, source.width - width);
  const top = clamp(Math.round(fp.y * source.height - height / 2), 0, source.height - height);
  return { left, top, width, height };
}

export function planTransform(ops: ImageOps & { format: OutputFormat }, source: { width: number; height: number }): TransformPlan {
  const plan: TransformPlan = { format: ops.format, quality: ops.quality ?? DEFAULT_QUALITY };
  const { width, height } = ops;
  if (width === undefined && height === undefined) {
    // No size asked: the source's own, but never over the output limit.
    if (source.width > MAX_OUTPUT_SIDE || source.height > MAX_OUTPUT_SIDE) plan.resize = { width: MAX_OUTPUT_SIDE, height: MAX_OUTPUT_SIDE, fit: 'inside' };
    return plan;
  }
  if (width === undefined || height === undefined) {
    // One side: keep the aspect ratio; the other side is bounded by the output limit too.
    plan.resize = { width: width ?? MAX_OUTPUT_SIDE, height: height ?? MAX_OUTPUT_SIDE, fit: 'inside' };
    return plan;
  }
  const mode = ops.resize ?? 'FIT';
  const fill = mode === 'FILL' || (mode === 'AUTO' && orientation(source.width, source.height) === orientation(width, height));
  if (!fill) {
    plan.resize = { width, height, fit: 'inside' };
  } else if (ops.focalPoint) {
    plan.extract = focalCrop(source, { width, height }, ops.focalPoint);
    plan.resize = { width, height, fit: 'fill' };
  } else {
    plan.resize = { width, height, fit: 'cover', position: SHARP_GRAVITY[ops.gravity ?? 'CENTER'] };
  }
  return plan;
}
