import { badRequest } from '../errors/index.js';
import { DEFAULT_QUALITY, MAX_OUTPUT_SIDE } from './limits.js';
import { GRAVITIES, OUTPUT_FORMATS, RESIZE_MODES, type FocalPoint, type Gravity, type ImageOps, type OutputFormat, type ResizeMode } from './types.js';

/**
 * The canonical text form of image operations, as it appears in a derivative URL:
 * comma-separated `key_value` pairs in the fixed order w, h, r, g, fp, q, bl, sh, up, f (e.g.
 * `w_800,h_600,r_fill,fp_0.5_0.25,q_70`), or `-` for none; the output format is the extension.
 * `bl_N` blurs (1–100, sigma N/2) and `sh_N` sharpens (1–10, sigma N/2) after resizing;
 * `up_1` allows an output larger than the source (a size is needed for it to mean anything);
 * `f_auto` lets each request's `Accept` choose the format, the extension being the fallback.
 * `normalizeOps` drops what has no effect so that equal results share one text and one cache key.
 */
export const NO_OPS = '-';

const EXT_BY_FORMAT: Record<OutputFormat, string> = { jpeg: 'jpg', png: 'png', webp: 'webp', avif: 'avif', gif: 'gif' };
const FORMAT_BY_EXT: Record<string, OutputFormat> = { jpg: 'jpeg', png: 'png', webp: 'webp', avif: 'avif', gif: 'gif' };

export const extOfFormat = (f: OutputFormat): string => EXT_BY_FORMAT[f];
export const formatOfExt = (ext: string): OutputFormat | undefined => FORMAT_BY_EXT[ext];

/** Rounds a focal coordinate to 4 decimals so equal points print equally. */
const roundFp = (v: number): number => Math.round(v * 10_000) / 10_000;

/** Drops operations without effect; the same result always gets the same ops. */
export function normalizeOps(ops: ImageOps): Omit<ImageOps, 'format'> {
  const out: Omit<ImageOps, 'format'> = {};
  if (ops.width !== undefined) out.width = ops.width;
  if (ops.height !== undefined) out.height = ops.height;
  const both = out.width !== undefined && out.height !== undefined;
  // With one side given the other follows the aspect ratio: no mode, no crop.
  const resize: ResizeMode | undefined = both ? (ops.resize ?? 'FIT') : undefined;
  if (resize !== undefined) out.resize = resize;
  if (resize === 'FILL' || resize === 'AUTO') {
    if (ops.focalPoint) out.focalPoint = { x: roundFp(ops.focalPoint.x), y: roundFp(ops.focalPoint.y) };
    else if (ops.gravity !== undefined && ops.gravity !== 'CENTER') out.gravity = ops.gravity;
  }
  if (ops.quality !== undefined && ops.quality !== DEFAULT_QUALITY) out.quality = ops.quality;
  if (ops.blur !== undefined) out.blur = ops.blur;
  if (ops.sharpen !== undefined) out.sharpen = ops.sharpen;
  if (ops.upscale && (out.width !== undefined || out.height !== undefined)) out.upscale = true;
  if (ops.autoFormat) out.autoFormat = true;
  return out;
}

export function encodeOps(ops: ImageOps): string {
  const n = normalizeOps(ops);
  const parts: string[] = [];
  if (n.width !== undefined) parts.push(`w_${n.width}`);
  if (n.height !== undefined) parts.push(`h_${n.height}`);
  if (n.resize !== undefined) parts.push(`r_${n.resize.toLowerCase()}`);
  if (n.gravity !== undefined) parts.push(`g_${n.gravity.toLowerCase()}`);
  if (n.focalPoint !== undefined) parts.push(`fp_${n.focalPoint.x}_${n.focalPoint.y}`);
  if (n.quality !== undefined) parts.push(`q_${n.quality}`);
  if (n.blur !== undefined) parts.push(`bl_${n.blur}`);
  if (n.sharpen !== undefined) parts.push(`sh_${n.sharpen}`);
  if (n.upscale) parts.push('up_1');
  if (n.autoFormat) parts.push('f_auto');
  return parts.length === 0 ? NO_OPS : parts.join(',');
}

const ORDER = ['w', 'h', 'r', 'g', 'fp', 'q', 'bl', 'sh', 'up', 'f'] as const;
type OpKey = (typeof ORDER)[number];

function parseIntIn(raw: string, key: string, min: number, max: number): number {
  if (!/^[1-9][0-9]{0,4}$/.test(raw)) throw badRequest(`Image operation "${key}": must be an integer between ${min} and ${max}.`);
  const n = Number(raw);
  if (n < min || n > max) throw badRequest(`Image operation "${key}": must be an integer between ${min} and ${max}.`);
  return n;
}

function parseFraction(raw: string): number {
  if (!/^(0(\.[0-9]{1,4})?|1(\.0{1,4})?)$/.test(raw)) throw badRequest('Image operation "fp": coordinates must be numbers from 0 to 1 with at most 4 decimals.');
  return Number(raw);
}

/** Parses the text form; anything malformed, repeated or out of order is a 400 naming the operation. */
export function parseOps(text: string, ext: string): ImageOps {
  const format = formatOfExt(ext);
  if (!format) throw badRequest(`Image format ".${ext}" is not supported; use one of ${OUTPUT_FORMATS.map(extOfFormat).join(', ')}.`);
  const ops: ImageOps = { format };
  if (text === NO_OPS) return ops;
  let last = -1;
  for (const part of text.split(',')) {
    const sep = part.indexOf('_');
    const key = (sep < 0 ? part : part.slice(0, sep)) as OpKey;
    const value = sep < 0 ? '' : part.slice(sep + 1);
    const index = ORDER.indexOf(key);
    if (index < 0) throw badRequest(`Image operation "${key}" is unknown; expected one of ${ORDER.join(', ')}.`);
    if (index <= last) throw badRequest(`Image operation "${key}" is repeated or out of order (order: ${ORDER.join(', ')}).`);
    last = index;
    switch (key) {
      case 'w':
        ops.width = parseIntIn(value, 'w', 1, MAX_OUTPUT_SIDE);
        break;
      case 'h':
        ops.height = parseIntIn(value, 'h', 1, MAX_OUTPUT_SIDE);
        break;
      case 'r': {
        const mode = value.toUpperCase() as ResizeMode;
        if (!RESIZE_MODES.includes(mode) || value !== value.toLowerCase()) throw badRequest(`Image operation "r": must be one of ${RESIZE_MODES.map((m) => m.toLowerCase()).join(', ')}.`);
        ops.resize = mode;
        break;
      }
      case 'g': {
        const g = value.toUpperCase() as Gravity;
        if (!GRAVITIES.includes(g) || value !== value.toLowerCase()) throw badRequest(`Image operation "g": must be one of ${GRAVITIES.map((v) => v.toLowerCase()).join(', ')}.`);
        ops.gravity = g;
        break;
      }
      case 'fp': {
        const xy = value.split('_');
        if (xy.length !== 2) throw badRequest('Image operation "fp": expected fp_<x>_<y>.');
        ops.focalPoint = { x: parseFraction(xy[0]), y: parseFraction(xy[1]) } satisfies FocalPoint;
        break;
      }
      case 'q':
        ops.quality = parseIntIn(value, 'q', 1, 100);
        break;
      case 'bl':
        ops.blur = parseIntIn(value, 'bl', 1, 100);
        break;
      case 'sh':
        ops.sharpen = parseIntIn(value, 'sh', 1, 10);
        break;
      case 'up':
        if (value !== '1') throw badRequest('Image operation "up": the only value is up_1.');
        ops.upscale = true;
        break;
      case 'f':
        if (value !== 'auto') throw badRequest('Image operation "f": the only value is f_auto (a fixed format is the extension).');
        ops.autoFormat = true;
        break;
    }
  }
  return ops;
}
