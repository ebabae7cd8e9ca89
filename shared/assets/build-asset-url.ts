import { badRequest } from '../errors/index.js';
import { MAX_FRAME, MAX_OUTPUT_SIDE } from './limits.js';
import { checkPublishableDerivative, type PublishableImageLimits } from './publishable-image-limits.js';
import { outputSize, pixelBudgetProblem } from './transform-plan.js';
import { cropProblem, encodeOps, NO_OPS, overlayProblem, pixelCropOutside, pixelCropProblem, trimProblem } from './image-ops.js';
import { defaultOutputFormat, isTransformable } from './source-format.js';
import {
  ROTATIONS,
  type Asset,
  type CropRect,
  type Flip,
  type FocalPoint,
  type Gravity,
  type ImageOps,
  type ImagePresetOptions,
  type ImageWatermark,
  type Orientation,
  type OutputFormat,
  type PixelRect,
  type ResizeMode,
  type Rotation,
  type SmartCrop,
  type VideoFormat,
} from './types.js';
import { embedPath, filePath, imagePath } from './url-grammar.js';

/** The API's `CmsAssetTransformation` input (GraphQL enums as their names; nulls allowed). */
export interface AssetTransformationInput {
  width?: number | null;
  height?: number | null;
  resize?: ResizeMode | null;
  quality?: number | null;
  gravity?: Gravity | null;
  /** Video formats only; image output formats come from presets. */
  format?: VideoFormat | null;
  preset?: string | null;
  orientation?: Orientation | null;
  /** Allow an image larger than its source (never enlarged otherwise). */
  upscale?: boolean | null;
  /** The image's output format, over the preset's and the source's (`CmsImageFormat`); AUTO negotiates it. */
  imageFormat?: ImageFormatInput | null;
  /** Device pixel ratio, 1–4: multiplies width and height (within the source and 8,192 pixels). */
  dpr?: number | null;
  /** Gaussian blur, 1–100 (`bl_N`). */
  blur?: number | null;
  /** Sharpening, 1–10 (`sh_N`). */
  sharpen?: number | null;
  /** A fill keeps the salient part (`g_attention`, `g_entropy`); the asset's focal point wins. */
  smartCrop?: SmartCrop | null;
  /** 90, 180 or 270 degrees clockwise (`ro_N`). */
  rotate?: number | null;
  flip?: Flip | null;
  /** Fractions of the upright source (`c_x_y_w_h`). */
  crop?: CropRect | null;
  /** The same cut in pixels of the upright source (`cp_x_y_w_h`); not with `crop`. */
  cropPixels?: PixelRect | null;
  /** Trim a uniform border, threshold 1–100 (`t_N`). */
  trim?: number | null;
  /** The quality chosen for the output format (`q_auto`), over `quality`. */
  autoQuality?: boolean | null;
  /** This frame (from 0) of an animated source as a still (`fr_N`). */
  frame?: number | null;
  /** `#rrggbb` (`bg_rrggbb`). */
  background?: string | null;
  grayscale?: boolean | null;
  /** Another image asset of the organization over the result (`o_…`). */
  overlay?: OverlayInput | null;
}

/**
 * The overlay a transformation gets: its own, else its preset's, else the organization's
 * watermark (the caller looks that asset up).
 */
export function overlayAssetIdOf(
  t: AssetTransformationInput | null | undefined,
  presets: ReadonlyMap<string, ImagePresetOptions>,
  watermark: ImageWatermark | null | undefined = null,
): string | undefined {
  return t?.overlay?.assetId ?? (t?.preset ? presets.get(t.preset)?.overlay?.assetId : undefined) ?? watermark?.assetId;
}

/** `CmsImageOverlay`: gravity SOUTH_EAST, opacity 1 and scale 0.25 of the base's width by default. */
export interface OverlayInput {
  assetId: string;
  gravity?: Gravity | null;
  opacity?: number | null;
  scale?: number | null;
  /** Pixels of the result away from the edges the gravity names (`ox_N`, `oy_N`). */
  offsetX?: number | null;
  offsetY?: number | null;
}

/** The overlay's asset as the caller found it in the organization (null: not there). */
export type OverlayAsset = Pick<Asset, 'id' | 'versionId' | 'type' | 'contentType'>;

/**
 * `CmsImageFormat`: AUTO (each request's `Accept` picks AVIF, WebP or the source's format: the
 * `f_auto` operation) or a fixed output format.
 */
export const IMAGE_FORMAT_INPUTS = ['AUTO', 'AVIF', 'WEBP', 'JPEG', 'PNG'] as const;
export type ImageFormatInput = (typeof IMAGE_FORMAT_INPUTS)[number];
const FORMAT_OF_INPUT: Record<Exclude<ImageFormatInput, 'AUTO'>, OutputFormat> = { AVIF: 'avif', WEBP: 'webp', JPEG: 'jpeg', PNG: 'png' };

/** The largest `dpr`. */
export const MAX_DPR = 4;

export type UrlAsset = Pick<
  Asset,
  'id' | 'versionId' | 'type' | 'contentType' | 'fileName' | 'focalPoint' | 'focalPoints' | 'posterAssetId' | 'posterKey' | 'width' | 'height'
>;

export interface BuildAssetUrlInput {
  asset: UrlAsset;
  orgId: string;
  transformation?: AssetTransformationInput | null;
  /** `CmsAsset.url(useFocalPoint: true)`: crop around the asset's focal point. */
  useFocalPoint?: boolean | null;
  /** `CmsMedia.url(focalPointRatio)`: crop around the focal point stored for this ratio. */
  focalPointRatio?: string | null;
  /** The asset `transformation.overlay.assetId` names, looked up in the organization. */
  overlayAsset?: OverlayAsset | null;
}

export interface BuildAssetUrlContext {
  /** Public base URL without a trailing slash, e.g. `https://cdn.example.com`. */
  baseUrl: string;
  /** `services.secrets.signing`. */
  secret: Buffer;
  /** The org's image presets by name (`listPresets`). */
  presets: ReadonlyMap<string, ImagePresetOptions>;
  /** A publishable key's limits (the org's delivery settings); absent for other tokens. */
  limits?: PublishableImageLimits;
  /** The organization's watermark: the overlay of derivatives whose transformation and preset name none. */
  watermark?: ImageWatermark | null;
}

const isVideo = (a: UrlAsset) => a.type === 'VIDEO' || a.type === 'VIDEO_PLAYLIST';

function focalPointFor(input: BuildAssetUrlInput): FocalPoint | undefined {
  const { asset } = input;
  if (input.focalPointRatio) {
    const match = asset.focalPoints.find((f) => f.ratio === input.focalPointRatio);
    return match?.focalPoint ?? asset.focalPoint ?? undefined;
  }
  return input.useFocalPoint ? (asset.focalPoint ?? undefined) : undefined;
}

const BACKGROUND = /^#[0-9a-fA-F]{6}$/;
/** `#RRggbb` → `rrggbb`, the URL's form. */
const backgroundKey = (b: string | null | undefined) => (b ? b.slice(1).toLowerCase() : undefined);

function overlayOf(o: OverlayInput, asset: OverlayAsset | null | undefined): ImageOps['overlay'] {
  if (!asset || asset.id !== o.assetId || asset.type !== 'IMAGE' || !isTransformable(asset.contentType)) {
    throw badRequest(`transformation.overlay.assetId: no image asset "${o.assetId}" in this organization.`);
  }
  return {
    assetId: asset.id,
    versionId: asset.versionId,
    gravity: o.gravity ?? 'SOUTH_EAST',
    opacity: o.opacity ?? 1,
    scale: o.scale ?? 0.25,
    ...(o.offsetX ? { offsetX: o.offsetX } : {}),
    ...(o.offsetY ? { offsetY: o.offsetY } : {}),
  };
}

const overlayFor = (o: OverlayInput | null | undefined, asset: OverlayAsset | null | undefined) => (o ? overlayOf(o, asset) : undefined);

/** Explicit transformation fields override the named preset's. */
function imageOpsFor(input: BuildAssetUrlInput, presets: BuildAssetUrlContext['presets'], watermark: ImageWatermark | null = null): ImageOps {
  const t = input.transformation ?? {};
  let preset: ImagePresetOptions = {};
  if (t.preset) {
    const found = presets.get(t.preset);
    if (!found) throw badRequest(`transformation.preset: unknown image preset "${t.preset}".`);
    preset = found;
  }
  const upscale = t.upscale === true || undefined;
  const smartCrop = t.smartCrop ?? preset.smartCrop;
  // A focal point set by hand on the asset beats the smart crop's guess.
  const focalPoint = focalPointFor(input) ?? (smartCrop ? (input.asset.focalPoint ?? undefined) : undefined);
  const size = scaledByDpr(t.width ?? preset.width, t.height ?? preset.height, t.dpr ?? 1, upscale ? undefined : input.asset);
  return {
    ...size,
    resize: t.resize ?? preset.resize,
    gravity: t.gravity ?? preset.gravity,
    quality: t.quality ?? preset.quality,
    blur: t.blur ?? undefined,
    sharpen: t.sharpen ?? undefined,
    format: t.imageFormat && t.imageFormat !== 'AUTO' ? FORMAT_OF_INPUT[t.imageFormat] : preset.format,
    upscale,
    autoFormat: t.imageFormat === 'AUTO' || undefined,
    focalPoint,
    smartCrop,
    rotate: ((t.rotate ?? undefined) as Rotation | undefined) ?? preset.rotate,
    flip: t.flip ?? preset.flip,
    // An explicit cut of either kind replaces the preset's.
    crop: t.cropPixels ? undefined : (t.crop ?? preset.crop),
    cropPixels: t.crop ? undefined : (t.cropPixels ?? preset.cropPixels),
    trim: t.trim ?? preset.trim,
    frame: t.frame ?? preset.frame,
    // A quality given with the transformation beats the preset's q_auto, as its fields do.
    autoQuality: (t.autoQuality ?? (typeof t.quality === 'number' ? false : preset.autoQuality)) || undefined,
    background: backgroundKey(t.background ?? preset.background),
    grayscale: (t.grayscale ?? preset.grayscale) || undefined,
    overlay: overlayFor(t.overlay ?? preset.overlay ?? watermark, input.overlayAsset),
  };
}

/**
 * Width and height times `dpr`, both by one factor (the shape is kept), no larger than the
 * source's sides (unless upscaling: `source` undefined) or 8,192 pixels — never below the size
 * asked for at 1×. A `srcset` entry at 2× of a small source is thus the source's own size.
 */
function scaledByDpr(width: number | undefined, height: number | undefined, dpr: number, source?: Pick<UrlAsset, 'width' | 'height'>) {
  if (dpr === 1 || (width === undefined && height === undefined)) return { width, height };
  let factor = dpr;
  for (const [asked, limitSide] of [
    [width, source?.width],
    [height, source?.height],
  ] as const) {
    if (asked === undefined) continue;
    factor = Math.min(factor, MAX_OUTPUT_SIDE / asked);
    if (limitSide) factor = Math.min(factor, limitSide / asked);
  }
  factor = Math.max(1, factor);
  return { width: width === undefined ? undefined : Math.round(width * factor), height: height === undefined ? undefined : Math.round(height * factor) };
}

function checkRanges(t: AssetTransformationInput): void {
  for (const side of ['width', 'height'] as const) {
    const v = t[side];
    if (v !== null && v !== undefined && (!Number.isInteger(v) || v < 1 || v > 8192)) {
      throw badRequest(`transformation.${side}: must be an integer from 1 to 8192.`);
    }
  }
  if (t.quality !== null && t.quality !== undefined && (!Number.isInteger(t.quality) || t.quality < 1 || t.quality > 100)) {
    throw badRequest('transformation.quality: must be an integer from 1 to 100.');
  }
  if (t.blur !== null && t.blur !== undefined && (!Number.isInteger(t.blur) || t.blur < 1 || t.blur > 100)) {
    throw badRequest('transformation.blur: must be an integer from 1 to 100.');
  }
  if (t.sharpen !== null && t.sharpen !== undefined && (!Number.isInteger(t.sharpen) || t.sharpen < 1 || t.sharpen > 10)) {
    throw badRequest('transformation.sharpen: must be an integer from 1 to 10.');
  }
  if (t.rotate !== null && t.rotate !== undefined && !(ROTATIONS as readonly number[]).includes(t.rotate)) {
    throw badRequest('transformation.rotate: must be 90, 180 or 270 (degrees clockwise).');
  }
  const cropIssue = t.crop ? cropProblem(t.crop) : null;
  if (cropIssue) throw badRequest(`transformation.crop: ${cropIssue}.`);
  if (t.crop && t.cropPixels) throw badRequest('transformation.cropPixels: give the cut once, as crop (fractions) or cropPixels (pixels).');
  const pixelIssue = t.cropPixels ? pixelCropProblem(t.cropPixels) : null;
  if (pixelIssue) throw badRequest(`transformation.cropPixels: ${pixelIssue}.`);
  if (t.frame !== null && t.frame !== undefined && (!Number.isInteger(t.frame) || t.frame < 0 || t.frame > MAX_FRAME)) {
    throw badRequest(`transformation.frame: must be an integer from 0 to ${MAX_FRAME}.`);
  }
  const trimIssue = t.trim !== null && t.trim !== undefined ? trimProblem(t.trim) : null;
  if (trimIssue) throw badRequest(`transformation.trim: ${trimIssue}.`);
  if (t.background !== null && t.background !== undefined && !BACKGROUND.test(t.background)) {
    throw badRequest('transformation.background: must be a colour as #rrggbb.');
  }
  const o = t.overlay;
  const overlayIssue = o ? overlayProblem({ opacity: o.opacity ?? 1, scale: o.scale ?? 0.25, offsetX: o.offsetX ?? undefined, offsetY: o.offsetY ?? undefined }) : null;
  if (overlayIssue) throw badRequest(`transformation.overlay: ${overlayIssue}.`);
  if (t.dpr !== null && t.dpr !== undefined && (!Number.isFinite(t.dpr) || t.dpr < 1 || t.dpr > MAX_DPR)) {
    throw badRequest(`transformation.dpr: must be a number from 1 to ${MAX_DPR}.`);
  }
}

/** An image URL that could never be served is refused where it is asked for (400). */
function checkPixelBudget(ops: ImageOps, source: Pick<UrlAsset, 'width' | 'height'>): void {
  if (!source.width || !source.height) return;
  const outside = ops.cropPixels ? pixelCropOutside(ops.cropPixels, { width: source.width, height: source.height }) : null;
  if (outside) throw badRequest(`transformation.cropPixels: ${outside}.`);
  const problem = pixelBudgetProblem(outputSize(ops, { width: source.width, height: source.height }));
  if (problem) throw badRequest(`transformation: ${problem}.`);
}

/**
 * The public URL of an asset for the GraphQL `url` fields. Pure: no I/O. Returns null when the
 * requested form does not exist (a video embed of an image, a thumbnail of a video without poster).
 */
export function buildAssetUrl(input: BuildAssetUrlInput, ctx: BuildAssetUrlContext): string | null {
  const { asset, orgId } = input;
  const t = input.transformation ?? {};
  checkRanges(t);
  const original = ctx.baseUrl + filePath(ctx.secret, { orgId, assetId: asset.id, versionId: asset.versionId, fileName: asset.fileName ?? 'file' });

  if (t.format && t.format !== 'THUMBNAIL') {
    if (!isVideo(asset)) return null;
    const kind = t.format === 'HTML' ? 'html' : t.format === 'JS' ? 'js' : 'json';
    return ctx.baseUrl + embedPath({ orgId, assetId: asset.id, kind, vertical: t.orientation === 'VERTICAL' });
  }

  if (isVideo(asset)) {
    // Only the poster of a video is an image; /img resolves it from the video asset.
    if (t.format !== 'THUMBNAIL') return original;
    if (!asset.posterAssetId && !asset.posterKey) return null;
    const ops = imageOpsFor(input, ctx.presets, ctx.watermark ?? null);
    if (ctx.limits) checkPublishableDerivative(t, ops, asset, ctx.limits);
    return ctx.baseUrl + imagePath(ctx.secret, { orgId, assetId: asset.id, versionId: asset.versionId, ops: { ...ops, format: ops.format ?? 'jpeg' } });
  }

  if (!isTransformable(asset.contentType)) return original;
  const ops = imageOpsFor(input, ctx.presets, ctx.watermark ?? null);
  checkPixelBudget(ops, asset);
  const format = ops.format ?? defaultOutputFormat(asset.contentType);
  // Nothing to change: the original is the answer (by default the URL is the original image's).
  if (encodeOps(ops) === NO_OPS && format === defaultOutputFormat(asset.contentType) && asset.contentType !== 'image/tiff') return original;
  if (ctx.limits) checkPublishableDerivative(t, ops, asset, ctx.limits);
  return ctx.baseUrl + imagePath(ctx.secret, { orgId, assetId: asset.id, versionId: asset.versionId, ops: { ...ops, format } });
}

/** Widths a `srcSet` may list. */
export const MAX_SRCSET_WIDTHS = 20;

/**
 * The transformation of one `srcSet` width: that width, and a height that keeps the asked shape
 * when both sides were given (a height alone does not apply: `w` descriptors name widths).
 */
export function srcSetTransformation(t: AssetTransformationInput, width: number): AssetTransformationInput {
  const height = t.width && t.height ? Math.max(1, Math.round((t.height * width) / t.width)) : undefined;
  return { ...t, width, height };
}

/**
 * `CmsAsset.srcSet`: a ready `srcset` value, one signed derivative URL per width with its `w`
 * descriptor, widths ascending. Widths beyond the source's own width are left out (a derivative
 * is never enlarged without upscale; the source's width stands in when none is left). Null where
 * `url` would not give a derivative (files, videos, SVG).
 */
export function buildSrcSet(input: BuildAssetUrlInput, widths: readonly number[], ctx: BuildAssetUrlContext): string | null {
  const t = input.transformation ?? {};
  if (widths.length === 0 || widths.length > MAX_SRCSET_WIDTHS) throw badRequest(`srcSet: list 1 to ${MAX_SRCSET_WIDTHS} widths.`);
  if (widths.some((w) => !Number.isInteger(w) || w < 1 || w > MAX_OUTPUT_SIDE)) throw badRequest(`srcSet: each width must be an integer from 1 to ${MAX_OUTPUT_SIDE}.`);
  if (t.dpr !== null && t.dpr !== undefined) throw badRequest('srcSet: dpr does not apply (the w descriptors let the browser pick for its screen).');
  if (isVideo(input.asset) || !isTransformable(input.asset.contentType)) return null;
  const sourceWidth = t.upscale ? null : input.asset.width;
  const asked = [...new Set(widths)].sort((a, b) => a - b);
  let chosen = asked.map((w) => ({ url: w, descriptor: w }));
  if (sourceWidth) {
    const fitting = chosen.filter((c) => c.url <= sourceWidth);
    // None fits: the source's own size stands in, asked for by its width — or by the smallest
    // width asked where a publishable key may name listed widths only (never enlarged: the same image).
    chosen = fitting.length > 0 ? fitting : [{ url: ctx.limits?.sizes?.widths ? asked[0] : sourceWidth, descriptor: sourceWidth }];
  }
  return chosen.map((c) => `${buildAssetUrl({ ...input, transformation: srcSetTransformation(t, c.url) }, ctx)} ${c.descriptor}w`).join(', ');
}
