import type { AssetType } from '../content/model-types.js';

/** Shared vocabulary of the asset side: stored assets, focal points, image operations. */

export { ASSET_TYPES, type AssetType } from '../content/model-types.js';

/** Fractions of the image from its top-left corner; the centre is (0.5, 0.5). */
export interface FocalPoint {
  x: number;
  y: number;
}

export interface RatioFocalPoint {
  /** A ratio name such as "1:1" or "16:9". */
  ratio: string;
  focalPoint: FocalPoint;
}

/** PAD: the whole image centred in the box, the rest filled with the background (letterbox). */
export const RESIZE_MODES = ['FIT', 'FILL', 'AUTO', 'PAD'] as const;
export type ResizeMode = (typeof RESIZE_MODES)[number];

export const GRAVITIES = [
  'NORTH',
  'SOUTH',
  'EAST',
  'WEST',
  'NORTH_EAST',
  'NORTH_WEST',
  'SOUTH_EAST',
  'SOUTH_WEST',
  'CENTER',
] as const;
export type Gravity = (typeof GRAVITIES)[number];

/** Saliency crops of libvips for a fill: AUTO is ATTENTION (skin tones, saturation, edges). */
export const SMART_CROPS = ['AUTO', 'ATTENTION', 'ENTROPY'] as const;
export type SmartCrop = (typeof SMART_CROPS)[number];

/** HORIZONTAL mirrors left to right (sharp's flop), VERTICAL top to bottom (flip). */
export const FLIPS = ['HORIZONTAL', 'VERTICAL', 'BOTH'] as const;
export type Flip = (typeof FLIPS)[number];

export const ROTATIONS = [90, 180, 270] as const;
export type Rotation = (typeof ROTATIONS)[number];

/** A rectangle as fractions (0–1) of the upright source, from its top-left corner. */
export interface CropRect {
  x: number;
  y: number;
  width: number;
  height: number;
}

/** A rectangle in pixels of the upright source, from its top-left corner. */
export interface PixelRect {
  x: number;
  y: number;
  width: number;
  height: number;
}

/** Trim thresholds (`t_N`): how far a pixel may differ from the top-left one and still be border. */
export const MAX_TRIM = 100;

/** Output formats a preset may choose; otherwise the source format is kept. */
export const OUTPUT_FORMATS = ['jpeg', 'png', 'webp', 'avif', 'gif'] as const;
export type OutputFormat = (typeof OUTPUT_FORMATS)[number];

export const VIDEO_FORMATS = ['THUMBNAIL', 'HTML', 'JS', 'JSON'] as const;
export type VideoFormat = (typeof VIDEO_FORMATS)[number];

export const ORIENTATIONS = ['HORIZONTAL', 'VERTICAL'] as const;
export type Orientation = (typeof ORIENTATIONS)[number];

/**
 * Another image asset of the same organization drawn over the result, touching the edges its
 * gravity names, `scale` × the result's width wide (its shape kept), at `opacity`.
 */
export interface ImageOverlay {
  assetId: string;
  /** The overlay's version: a replaced overlay gives new URLs, as a replaced asset does. */
  versionId: string;
  gravity: Gravity;
  opacity: number;
  scale: number;
  /**
   * Pixels of the result the overlay moves away from the edge its gravity names on that axis
   * (right or down where it names none), kept inside the result.
   */
  offsetX?: number;
  offsetY?: number;
}

/** Edits a URL, a preset and GraphQL's transformation carry alike. */
export interface ImageEdits {
  /** A fill without focal point keeps the most salient part the strategy finds. */
  smartCrop?: SmartCrop;
  /** Clockwise, after the EXIF orientation and the crop, before resizing. */
  rotate?: Rotation;
  flip?: Flip;
  /** Cut out of the upright source before anything else. */
  crop?: CropRect;
  /** The same cut in pixels of the upright source (excludes `crop`); it must lie inside the source. */
  cropPixels?: PixelRect;
  /** Trim a uniform border (after the cut, before the rotation): the threshold, 1–100. */
  trim?: number;
  /** `q_auto`: the quality is chosen for the output format (`AUTO_QUALITY`), over `quality`. */
  autoQuality?: boolean;
  /** `fr_N`: this frame (from 0) of an animated source, as a still; without it WebP and GIF keep the animation. */
  frame?: number;
  grayscale?: boolean;
}

/**
 * Normalized image operations: what a derivative URL carries and what the derivative key hashes.
 * Absent fields mean "keep": no resize, source format, default quality.
 */
export interface ImageOps extends ImageEdits {
  width?: number;
  height?: number;
  resize?: ResizeMode;
  gravity?: Gravity;
  focalPoint?: FocalPoint;
  quality?: number;
  /** Gaussian blur, 1–100 (sigma = blur / 2 output pixels): placeholders, backgrounds. */
  blur?: number;
  /** Sharpening, 1–10 (sigma = sharpen / 2): crisper downscaled photos. */
  sharpen?: number;
  format?: OutputFormat;
  /** Allow an output larger than the source; without it a derivative never enlarges. */
  upscale?: boolean;
  /**
   * `f_auto`: the format is chosen per request from its `Accept` (AVIF, then WebP), `format`
   * being the fallback. Never part of a derivative's key: a negotiated request names the
   * derivative of the format it got.
   */
  autoFormat?: boolean;
  /** `rrggbb`, lowercase: PAD's fill and what transparency is flattened on for JPEG (white otherwise). */
  background?: string;
  overlay?: ImageOverlay;
}

/** Options stored for an org's named image preset. */
export interface ImagePresetOptions extends ImageEdits {
  width?: number;
  height?: number;
  resize?: ResizeMode;
  quality?: number;
  gravity?: Gravity;
  format?: OutputFormat;
  /** `#rrggbb`. */
  background?: string;
  /** A watermark every derivative of the preset carries (unless the transformation names its own). */
  overlay?: ImageWatermark;
}

/** An overlay as a preset or the organization's delivery settings name it (defaults filled in when a URL is built). */
export interface ImageWatermark {
  assetId: string;
  gravity?: Gravity;
  opacity?: number;
  scale?: number;
  offsetX?: number;
  offsetY?: number;
}

export interface ImagePreset {
  name: string;
  options: ImagePresetOptions;
  updatedAt: Date;
}

/** One asset as the repository returns it (current version). */
export interface Asset {
  id: string;
  orgId: string;
  versionId: string;
  type: AssetType;
  title: string | null;
  contentType: string;
  fileName: string | null;
  path: string | null;
  caption: string | null;
  alt: string | null;
  author: string | null;
  source: string | null;
  size: number;
  tags: string[];
  externalId: string | null;
  width: number | null;
  height: number | null;
  duration: number | null;
  focalPoint: FocalPoint | null;
  focalPoints: RatioFocalPoint[];
  posterAssetId: string | null;
  /** Blob key of a poster frame extracted from a video at upload, when one was. */
  posterKey: string | null;
  /** A tiny blurred data: URI of an image, made at upload (null for other assets). */
  placeholder: string | null;
  /** Where the attention strategy found the subject, at upload: shown as a suggestion, never used for a crop (null when not computed). */
  suggestedFocalPoint: FocalPoint | null;
  createdAt: Date;
  updatedAt: Date;
}
