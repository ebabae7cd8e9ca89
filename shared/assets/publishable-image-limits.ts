import { forbidden } from '../errors/index.js';
import { outputSize } from './transform-plan.js';
import type { ImageOps } from './types.js';

// What an organization lets its publishable keys ask of images. A publishable key is public (it
// ships in pages), so without limits anyone can mint signed URLs of any size, format and quality;
// these bound the derivatives such URLs can name. Other tokens are not limited.

/** Sizes a publishable key's derivatives may have; members left out are not limited. */
export interface PublishableImageSizes {
  /** The widest output, pixels (after `dpr`, presets and the source's aspect ratio). */
  maxWidth?: number;
  /** The tallest output, pixels. */
  maxHeight?: number;
  /** The only widths a derivative's URL may name (`w_…`, after `dpr`); one without a width is refused. */
  widths?: number[];
}

export interface PublishableImageLimits {
  /** Null: any size. */
  sizes: PublishableImageSizes | null;
  /** Null: any preset, or none. A list: every derivative names one of these presets. */
  presets: string[] | null;
}

export const NO_IMAGE_LIMITS: PublishableImageLimits = { sizes: null, presets: null };

/** The transformation fields asked for (the GraphQL input), as far as the limits look at them. */
export interface AskedTransformation {
  preset?: string | null;
  width?: number | null;
  height?: number | null;
  dpr?: number | null;
  resize?: unknown;
  gravity?: unknown;
  quality?: number | null;
  blur?: number | null;
  sharpen?: number | null;
  upscale?: boolean | null;
}

/** Fields that change what a preset makes: refused on top of a listed preset. */
const SHAPING = ['resize', 'gravity', 'quality', 'blur', 'sharpen', 'upscale'] as const;
/** Fields that change a preset's size: allowed on top of it only within limited sizes. */
const SIZING = ['width', 'height', 'dpr'] as const;

const named = (list: readonly (string | number)[]) => (list.length === 0 ? 'none' : list.join(', '));
const asked = (t: AskedTransformation, keys: readonly (keyof AskedTransformation)[]) => keys.filter((k) => t[k] !== null && t[k] !== undefined && t[k] !== false);

function presetProblem(t: AskedTransformation, limits: PublishableImageLimits): string | null {
  const presets = limits.presets;
  if (!presets) return null;
  if (!t.preset) return `a derivative must name one of the presets ${named(presets)} ("publishableImagePresets")`;
  if (!presets.includes(t.preset)) return `the preset "${t.preset}" is not one of ${named(presets)} ("publishableImagePresets")`;
  const added = asked(t, limits.sizes ? SHAPING : [...SHAPING, ...SIZING]);
  if (added.length > 0) return `${added.join(', ')} cannot be added to a preset ("publishableImagePresets"${limits.sizes ? '' : '; sizes only when "publishableImageSizes" is set'})`;
  return null;
}

function sizeProblem(ops: ImageOps, source: { width: number | null; height: number | null }, sizes: PublishableImageSizes | null): string | null {
  if (!sizes) return null;
  const { maxWidth, maxHeight, widths } = sizes;
  if (widths) {
    if (ops.width === undefined) return `a derivative must name a width: one of ${named(widths)} ("publishableImageSizes.widths")`;
    if (!widths.includes(ops.width)) return `the width ${ops.width} is not one of ${named(widths)} ("publishableImageSizes.widths")`;
  }
  // the size served; when the source's is unknown, only what the URL names can be held to them
  const out: { width?: number; height?: number } = source.width && source.height ? outputSize(ops, { width: source.width, height: source.height }) : { width: ops.width, height: ops.height };
  for (const [side, max, word] of [
    ['width', maxWidth, 'wide'],
    ['height', maxHeight, 'high'],
  ] as const) {
    if (max === undefined) continue;
    const value = out[side];
    if (value === undefined) return `name a ${side}: the source's size is unknown ("publishableImageSizes")`;
    if (value > max) return `the output would be ${value} pixels ${word}, more than ${max} ("publishableImageSizes.max${side === 'width' ? 'Width' : 'Height'}")`;
  }
  return null;
}

/**
 * Refuses (403 `FORBIDDEN`) a derivative a publishable key may not ask for: `t` as asked, `ops`
 * as it would be signed. Called before any URL is signed.
 */
export function checkPublishableDerivative(
  t: AskedTransformation,
  ops: ImageOps,
  source: { width: number | null; height: number | null },
  limits: PublishableImageLimits,
): void {
  const problem = presetProblem(t, limits) ?? sizeProblem(ops, source, limits.sizes);
  if (problem) throw forbidden(`transformation: publishable keys of this organization may not ask for this image: ${problem}.`);
}
