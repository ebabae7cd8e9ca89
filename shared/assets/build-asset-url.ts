import { badRequest } from '../errors/index.js';
import { outputSize, pixelBudgetProblem } from './transform-plan.js';
import { encodeOps, NO_OPS } from './image-ops.js';
import { defaultOutputFormat, isTransformable } from './source-format.js';
import type { Asset, FocalPoint, Gravity, ImageOps, ImagePresetOptions, Orientation, ResizeMode, VideoFormat } from './types.js';
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
}

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
}

export interface BuildAssetUrlContext {
  /** Public base URL without a trailing slash, e.g. `https://cdn.example.com`. */
  baseUrl: string;
  /** `services.secrets.signing`. */
  secret: Buffer;
  /** The org's image presets by name (`listPresets`). */
  presets: ReadonlyMap<string, ImagePresetOptions>;
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

/** Explicit transformation fields override the named preset's. */
function imageOpsFor(input: BuildAssetUrlInput, presets: BuildAssetUrlContext['presets']): ImageOps {
  const t = input.transformation ?? {};
  let preset: ImagePresetOptions = {};
  if (t.preset) {
    const found = presets.get(t.preset);
    if (!found) throw badRequest(`transformation.preset: unknown image preset "${t.preset}".`);
    preset = found;
  }
  return {
    width: t.width ?? preset.width,
    height: t.height ?? preset.height,
    resize: t.resize ?? preset.resize,
    gravity: t.gravity ?? preset.gravity,
    quality: t.quality ?? preset.quality,
    format: preset.format,
    upscale: t.upscale === true || undefined,
    focalPoint: focalPointFor(input),
  };
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
}

/** An image URL that could never be served is refused where it is asked for (400). */
function checkPixelBudget(ops: ImageOps, source: Pick<UrlAsset, 'width' | 'height'>): void {
  if (!source.width || !source.height) return;
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
    const ops = imageOpsFor(input, ctx.presets);
    return ctx.baseUrl + imagePath(ctx.secret, { orgId, assetId: asset.id, versionId: asset.versionId, ops: { ...ops, format: ops.format ?? 'jpeg' } });
  }

  if (!isTransformable(asset.contentType)) return original;
  const ops = imageOpsFor(input, ctx.presets);
  checkPixelBudget(ops, asset);
  const format = ops.format ?? defaultOutputFormat(asset.contentType);
  // Nothing to change: the original is the answer (by default the URL is the original image's).
  if (encodeOps(ops) === NO_OPS && format === defaultOutputFormat(asset.contentType) && asset.contentType !== 'image/tiff') return original;
  return ctx.baseUrl + imagePath(ctx.secret, { orgId, assetId: asset.id, versionId: asset.versionId, ops: { ...ops, format } });
}
