import { badRequest } from '../errors/index.js';
import { DEFAULT_QUALITY, MAX_FRAME, MAX_INPUT_SIDE, MAX_OUTPUT_SIDE } from './limits.js';
import {
  GRAVITIES,
  MAX_TRIM,
  OUTPUT_FORMATS,
  RESIZE_MODES,
  ROTATIONS,
  SMART_CROPS,
  type CropRect,
  type Flip,
  type FocalPoint,
  type Gravity,
  type ImageOps,
  type ImageOverlay,
  type OutputFormat,
  type PixelRect,
  type ResizeMode,
  type Rotation,
  type SmartCrop,
} from './types.js';

/**
 * The canonical text form of image operations, as it appears in a derivative URL:
 * comma-separated `key_value` pairs in the fixed order w, h, r, g, fp, q, bl, sh, up, c, cp, t, ro,
 * fl, bg, gs, o, ox, oy, fr, f (e.g. `w_800,h_600,r_fill,fp_0.5_0.25,q_70`), or `-` for none; the
 * output format is the extension. `g_auto`, `g_attention`, `g_entropy` are smart crops of a fill;
 * `r_pad` letterboxes; `q_auto` picks the quality per output format; `c_x_y_w_h` crops fractions
 * of the upright source first (`cp_…` the same in pixels), `t_N` trims a uniform border,
 * `ro_90|180|270` rotates,
 * `fl_h|v|hv` mirrors, `bg_rrggbb` colours PAD's fill and flattened transparency, `gs_1` greys.
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

const SMART_CROP_KEYS = SMART_CROPS.map((c) => c.toLowerCase());
const FLIP_KEYS: Record<Flip, string> = { HORIZONTAL: 'h', VERTICAL: 'v', BOTH: 'hv' };
const FULL = 10_000;
const GRAVITY_KEYS: Record<Gravity, string> = {
  NORTH: 'n',
  SOUTH: 's',
  EAST: 'e',
  WEST: 'w',
  NORTH_EAST: 'ne',
  NORTH_WEST: 'nw',
  SOUTH_EAST: 'se',
  SOUTH_WEST: 'sw',
  CENTER: 'c',
};
const OVERLAY_ID = /^[A-Za-z0-9_-]{1,64}$/;

/** Why an overlay's numbers are refused, or null: opacity and scale above 0, at most 1; offsets whole pixels. */
export function overlayProblem(o: Pick<ImageOverlay, 'opacity' | 'scale' | 'offsetX' | 'offsetY'>): string | null {
  for (const k of ['opacity', 'scale'] as const) {
    const v = o[k];
    if (!Number.isFinite(v) || Math.round(v * FULL) <= 0 || v > 1) return `${k} must be a number above 0 and at most 1`;
  }
  for (const k of ['offsetX', 'offsetY'] as const) {
    const v = o[k];
    if (v !== undefined && (!Number.isInteger(v) || v < 0 || v > MAX_OUTPUT_SIDE)) return `${k} must be an integer from 0 to ${MAX_OUTPUT_SIDE}`;
  }
  return null;
}

/** A crop rounded to 4 decimals, or undefined when it keeps the whole image. */
function normalCrop(c: CropRect | undefined): CropRect | undefined {
  if (!c) return undefined;
  const r = { x: roundFp(c.x), y: roundFp(c.y), width: roundFp(c.width), height: roundFp(c.height) };
  return r.x === 0 && r.y === 0 && r.width === 1 && r.height === 1 ? undefined : r;
}

/** Why a crop rectangle is refused, or null: fractions 0–1, a non-empty area inside the image. */
export function cropProblem(c: CropRect): string | null {
  const v = [c.x, c.y, c.width, c.height];
  if (v.some((n) => !Number.isFinite(n) || n < 0 || n > 1)) return 'x, y, width and height must be fractions from 0 to 1';
  const [x, y, w, h] = v.map((n) => Math.round(n * FULL));
  if (w === 0 || h === 0) return 'width and height must be above 0';
  if (x + w > FULL || y + h > FULL) return 'the rectangle must lie inside the image (x + width and y + height at most 1)';
  return null;
}

/** Why a pixel rectangle is refused before the source is known, or null: whole pixels, a non-empty area. */
export function pixelCropProblem(c: PixelRect): string | null {
  if ([c.x, c.y].some((n) => !Number.isInteger(n) || n < 0 || n >= MAX_INPUT_SIDE)) return `x and y must be integers from 0 to ${MAX_INPUT_SIDE - 1}`;
  if ([c.width, c.height].some((n) => !Number.isInteger(n) || n < 1 || n > MAX_INPUT_SIDE)) return `width and height must be integers from 1 to ${MAX_INPUT_SIDE}`;
  return null;
}

/** Why a pixel rectangle does not fit a source of this (upright) size, or null. */
export function pixelCropOutside(c: PixelRect, source: { width: number; height: number }): string | null {
  return c.x + c.width > source.width || c.y + c.height > source.height
    ? `the rectangle ${c.x},${c.y} ${c.width}×${c.height} must lie inside the ${source.width}×${source.height} source`
    : null;
}

/** Why a trim threshold is refused, or null. */
export const trimProblem = (t: number): string | null => (Number.isInteger(t) && t >= 1 && t <= MAX_TRIM ? null : `must be an integer from 1 to ${MAX_TRIM}`);

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
    // AUTO keeps its own key: it is ATTENTION today, and may learn faces without reusing old derivatives.
    else if (ops.smartCrop !== undefined) out.smartCrop = ops.smartCrop;
    else if (ops.gravity !== undefined && ops.gravity !== 'CENTER') out.gravity = ops.gravity;
  }
  // q_auto replaces a number; with f_auto it may mean another quality per negotiated format.
  if (ops.autoQuality) out.autoQuality = true;
  else if (ops.quality !== undefined && ops.quality !== DEFAULT_QUALITY) out.quality = ops.quality;
  if (ops.blur !== undefined) out.blur = ops.blur;
  if (ops.sharpen !== undefined) out.sharpen = ops.sharpen;
  if (ops.upscale && (out.width !== undefined || out.height !== undefined)) out.upscale = true;
  // Pixels name the cut exactly; given both, they win (parsing and the inputs refuse both).
  if (ops.cropPixels) out.cropPixels = { ...ops.cropPixels };
  const crop = ops.cropPixels ? undefined : normalCrop(ops.crop);
  if (crop) out.crop = crop;
  if (ops.trim !== undefined) out.trim = ops.trim;
  if (ops.rotate !== undefined) out.rotate = ops.rotate;
  if (ops.flip !== undefined) out.flip = ops.flip;
  if (ops.background !== undefined) out.background = ops.background.toLowerCase();
  if (ops.grayscale) out.grayscale = true;
  if (ops.overlay) {
    const { offsetX, offsetY, ...o } = ops.overlay;
    out.overlay = { ...o, opacity: roundFp(o.opacity), scale: roundFp(o.scale) };
    if (offsetX) out.overlay.offsetX = offsetX;
    if (offsetY) out.overlay.offsetY = offsetY;
  }
  if (ops.frame !== undefined) out.frame = ops.frame;
  if (ops.autoFormat) out.autoFormat = true;
  return out;
}

export function encodeOps(ops: ImageOps): string {
  const n = normalizeOps(ops);
  const parts: string[] = [];
  if (n.width !== undefined) parts.push(`w_${n.width}`);
  if (n.height !== undefined) parts.push(`h_${n.height}`);
  if (n.resize !== undefined) parts.push(`r_${n.resize.toLowerCase()}`);
  if (n.smartCrop !== undefined) parts.push(`g_${n.smartCrop.toLowerCase()}`);
  else if (n.gravity !== undefined) parts.push(`g_${n.gravity.toLowerCase()}`);
  if (n.focalPoint !== undefined) parts.push(`fp_${n.focalPoint.x}_${n.focalPoint.y}`);
  if (n.autoQuality) parts.push('q_auto');
  else if (n.quality !== undefined) parts.push(`q_${n.quality}`);
  if (n.blur !== undefined) parts.push(`bl_${n.blur}`);
  if (n.sharpen !== undefined) parts.push(`sh_${n.sharpen}`);
  if (n.upscale) parts.push('up_1');
  if (n.crop !== undefined) parts.push(`c_${n.crop.x}_${n.crop.y}_${n.crop.width}_${n.crop.height}`);
  if (n.cropPixels !== undefined) parts.push(`cp_${n.cropPixels.x}_${n.cropPixels.y}_${n.cropPixels.width}_${n.cropPixels.height}`);
  if (n.trim !== undefined) parts.push(`t_${n.trim}`);
  if (n.rotate !== undefined) parts.push(`ro_${n.rotate}`);
  if (n.flip !== undefined) parts.push(`fl_${FLIP_KEYS[n.flip]}`);
  if (n.background !== undefined) parts.push(`bg_${n.background}`);
  if (n.grayscale) parts.push('gs_1');
  if (n.overlay) parts.push(`o_${GRAVITY_KEYS[n.overlay.gravity]}_${n.overlay.opacity}_${n.overlay.scale}_${n.overlay.assetId}.${n.overlay.versionId}`);
  if (n.overlay?.offsetX) parts.push(`ox_${n.overlay.offsetX}`);
  if (n.overlay?.offsetY) parts.push(`oy_${n.overlay.offsetY}`);
  if (n.frame !== undefined) parts.push(`fr_${n.frame}`);
  if (n.autoFormat) parts.push('f_auto');
  return parts.length === 0 ? NO_OPS : parts.join(',');
}

const ORDER = ['w', 'h', 'r', 'g', 'fp', 'q', 'bl', 'sh', 'up', 'c', 'cp', 't', 'ro', 'fl', 'bg', 'gs', 'o', 'ox', 'oy', 'fr', 'f'] as const;
type OpKey = (typeof ORDER)[number];

function parseIntIn(raw: string, key: string, min: number, max: number): number {
  if (!/^[1-9][0-9]{0,4}$/.test(raw)) throw badRequest(`Image operation "${key}": must be an integer between ${min} and ${max}.`);
  const n = Number(raw);
  if (n < min || n > max) throw badRequest(`Image operation "${key}": must be an integer between ${min} and ${max}.`);
  return n;
}

function parseFraction(raw: string, key = 'fp'): number {
  if (!/^(0(\.[0-9]{1,4})?|1(\.0{1,4})?)$/.test(raw)) throw badRequest(`Image operation "${key}": coordinates must be numbers from 0 to 1 with at most 4 decimals.`);
  return Number(raw);
}

/** `o_{gravity}_{opacity}_{scale}_{assetId}.{versionId}`: ids may hold `_`, hence last. */
function parseOverlay(value: string): ImageOverlay {
  const [g, opacity, scale, ...rest] = value.split('_');
  const [assetId, versionId, extra] = rest.join('_').split('.');
  const gravity = (Object.keys(GRAVITY_KEYS) as Gravity[]).find((k) => GRAVITY_KEYS[k] === g);
  if (!gravity || !assetId || !versionId || extra !== undefined || !OVERLAY_ID.test(assetId) || !OVERLAY_ID.test(versionId)) {
    throw badRequest('Image operation "o": expected o_<gravity: n, s, e, w, ne, nw, se, sw, c>_<opacity>_<scale>_<assetId>.<versionId>.');
  }
  const o = { assetId, versionId, gravity, opacity: parseFraction(opacity ?? '', 'o'), scale: parseFraction(scale ?? '', 'o') };
  const problem = overlayProblem(o);
  if (problem) throw badRequest(`Image operation "o": ${problem}.`);
  return o;
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
        if (SMART_CROP_KEYS.includes(value)) {
          ops.smartCrop = value.toUpperCase() as SmartCrop;
          break;
        }
        const g = value.toUpperCase() as Gravity;
        if (!GRAVITIES.includes(g) || value !== value.toLowerCase()) {
          throw badRequest(`Image operation "g": must be one of ${[...GRAVITIES.map((v) => v.toLowerCase()), ...SMART_CROP_KEYS].join(', ')}.`);
        }
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
        if (value === 'auto') ops.autoQuality = true;
        else ops.quality = parseIntIn(value, 'q', 1, 100);
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
      case 'c': {
        const v = value.split('_');
        if (v.length !== 4) throw badRequest('Image operation "c": expected c_<x>_<y>_<width>_<height>, fractions of the source.');
        const crop = { x: parseFraction(v[0], 'c'), y: parseFraction(v[1], 'c'), width: parseFraction(v[2], 'c'), height: parseFraction(v[3], 'c') };
        const problem = cropProblem(crop);
        if (problem) throw badRequest(`Image operation "c": ${problem}.`);
        ops.crop = crop;
        break;
      }
      case 'cp': {
        const v = value.split('_');
        if (v.length !== 4 || v.some((n) => !/^(0|[1-9][0-9]{0,4})$/.test(n))) throw badRequest('Image operation "cp": expected cp_<x>_<y>_<width>_<height>, whole pixels of the source.');
        if (ops.crop) throw badRequest('Image operation "cp": give the cut once, as c (fractions) or cp (pixels).');
        const rect = { x: Number(v[0]), y: Number(v[1]), width: Number(v[2]), height: Number(v[3]) };
        const problem = pixelCropProblem(rect);
        if (problem) throw badRequest(`Image operation "cp": ${problem}.`);
        ops.cropPixels = rect;
        break;
      }
      case 't':
        ops.trim = parseIntIn(value, 't', 1, MAX_TRIM);
        break;
      case 'ro':
        if (!ROTATIONS.map(String).includes(value)) throw badRequest('Image operation "ro": must be one of 90, 180, 270 (degrees clockwise).');
        ops.rotate = Number(value) as Rotation;
        break;
      case 'fl': {
        const flip = (Object.keys(FLIP_KEYS) as Flip[]).find((f) => FLIP_KEYS[f] === value);
        if (!flip) throw badRequest('Image operation "fl": must be one of h, v, hv.');
        ops.flip = flip;
        break;
      }
      case 'bg':
        if (!/^[0-9a-f]{6}$/.test(value)) throw badRequest('Image operation "bg": must be a colour as 6 lowercase hex digits (rrggbb).');
        ops.background = value;
        break;
      case 'gs':
        if (value !== '1') throw badRequest('Image operation "gs": the only value is gs_1.');
        ops.grayscale = true;
        break;
      case 'o':
        ops.overlay = parseOverlay(value);
        break;
      case 'ox':
      case 'oy':
        if (!ops.overlay) throw badRequest(`Image operation "${key}": moves an overlay; it needs o first.`);
        ops.overlay[key === 'ox' ? 'offsetX' : 'offsetY'] = parseIntIn(value, key, 1, MAX_OUTPUT_SIDE);
        break;
      case 'fr':
        if (!/^(0|[1-9][0-9]{0,2})$/.test(value)) throw badRequest(`Image operation "fr": must be a frame number from 0 to ${MAX_FRAME}.`);
        ops.frame = Number(value);
        break;
      case 'f':
        if (value !== 'auto') throw badRequest('Image operation "f": the only value is f_auto (a fixed format is the extension).');
        ops.autoFormat = true;
        break;
    }
  }
  return ops;
}
