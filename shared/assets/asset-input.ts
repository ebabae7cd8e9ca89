import { z } from 'zod';
import { cropProblem } from './image-ops.js';
import { MAX_FRAME, MAX_INPUT_SIDE } from './limits.js';
import { FLIPS, GRAVITIES, MAX_TRIM, OUTPUT_FORMATS, RESIZE_MODES, ROTATIONS, SMART_CROPS } from './types.js';

/** Input schemas of the management asset and preset routes (body and query); every error names its field. */

// eslint-disable-next-line no-control-regex
const noControl = (s: string) => !/[\u0000-\u001f\u007f]/.test(s);
const text = (max: number) => z.string().max(max, `at most ${max} characters`).refine(noControl, 'must not contain control characters');

const metadataFields = {
  fileName: text(255).min(1, 'must not be empty').optional(),
  title: text(500).optional(),
  alt: text(1000).optional(),
  caption: text(5000).optional(),
  author: text(500).optional(),
  source: text(1000).optional(),
  externalId: text(200).optional(),
  path: text(1000).optional(),
};

/** Query string of uploads: `tags` may repeat or be comma-separated. */
export const uploadQuerySchema = z
  .object({
    ...metadataFields,
    tags: z
      .union([z.string(), z.array(z.string())])
      .transform((v) => (Array.isArray(v) ? v : [v]).flatMap((t) => t.split(',')).map((t) => t.trim()).filter((t) => t !== ''))
      .pipe(z.array(text(100)).max(100, 'at most 100 tags'))
      .optional(),
  })
  .strict();

const fraction = z.number('must be a number').min(0, 'must be between 0 and 1').max(1, 'must be between 0 and 1');
export const focalPoint = z.object({ x: fraction, y: fraction }).strict();

export const assetPatchSchema = z
  .object({
    fileName: text(255).min(1, 'must not be empty').optional(),
    title: text(500).nullable().optional(),
    alt: text(1000).nullable().optional(),
    caption: text(5000).nullable().optional(),
    author: text(500).nullable().optional(),
    source: text(1000).nullable().optional(),
    externalId: text(200).nullable().optional(),
    path: text(1000).nullable().optional(),
    tags: z.array(text(100)).max(100, 'at most 100 tags').optional(),
    focalPoint: focalPoint.nullable().optional(),
    focalPoints: z
      .array(
        z
          .object({
            ratio: z.string().regex(/^[1-9][0-9]{0,3}:[1-9][0-9]{0,3}$/, 'must look like "16:9"'),
            focalPoint,
          })
          .strict(),
      )
      .max(20, 'at most 20 ratios')
      .refine((list) => new Set(list.map((f) => f.ratio)).size === list.length, 'each ratio may appear once')
      .optional(),
    posterAssetId: z.string().regex(/^[A-Za-z0-9_-]{1,64}$/, 'must be an asset id').nullable().optional(),
  })
  .strict();

export type AssetPatchBody = z.infer<typeof assetPatchSchema>;

const int = (min: number, max: number) => z.number('must be a number').int('must be an integer').min(min, `must be at least ${min}`).max(max, `must be at most ${max}`);

/** A name from a fixed list, accepted in any case (`fill`, `Fill`, `FILL`) and stored in the list's. */
const anyCase = <T extends z.ZodType>(schema: T, to: 'upper' | 'lower') =>
  z.preprocess((v) => (typeof v === 'string' ? (to === 'upper' ? v.toUpperCase() : v.toLowerCase()) : v), schema);

/** An overlay as a preset or the organization's watermark names it: an image asset of the organization and how it is drawn. */
export const overlaySchema = z
  .object({
    assetId: z.string().regex(/^[A-Za-z0-9_-]{1,64}$/, 'must be an asset id'),
    gravity: anyCase(z.enum(GRAVITIES, `must be one of ${GRAVITIES.join(', ')} (any case)`), 'upper').optional(),
    opacity: z.number('must be a number').gt(0, 'must be above 0').max(1, 'must be at most 1').optional(),
    scale: z.number('must be a number').gt(0, 'must be above 0').max(1, 'must be at most 1').optional(),
    offsetX: int(0, 8192).optional(),
    offsetY: int(0, 8192).optional(),
  })
  .strict();

export const presetInputSchema = z
  .object({
    width: int(1, 8192).optional(),
    height: int(1, 8192).optional(),
    resize: anyCase(z.enum(RESIZE_MODES, `must be one of ${RESIZE_MODES.join(', ')} (any case)`), 'upper').optional(),
    quality: int(1, 100).optional(),
    gravity: anyCase(z.enum(GRAVITIES, `must be one of ${GRAVITIES.join(', ')} (any case)`), 'upper').optional(),
    format: anyCase(z.enum(OUTPUT_FORMATS, `must be one of ${OUTPUT_FORMATS.join(', ')} (any case)`), 'lower').optional(),
    smartCrop: anyCase(z.enum(SMART_CROPS, `must be one of ${SMART_CROPS.join(', ')} (any case)`), 'upper').optional(),
    rotate: z.union(ROTATIONS.map((r) => z.literal(r)), 'must be 90, 180 or 270').optional(),
    flip: anyCase(z.enum(FLIPS, `must be one of ${FLIPS.join(', ')} (any case)`), 'upper').optional(),
    crop: z
      .object({ x: fraction, y: fraction, width: fraction, height: fraction })
      .strict()
      .superRefine((c, ctx) => {
        const problem = cropProblem(c);
        if (problem) ctx.addIssue({ code: 'custom', message: problem });
      })
      .optional(),
    cropPixels: z
      .object({ x: int(0, MAX_INPUT_SIDE - 1), y: int(0, MAX_INPUT_SIDE - 1), width: int(1, MAX_INPUT_SIDE), height: int(1, MAX_INPUT_SIDE) })
      .strict()
      .optional(),
    trim: int(1, MAX_TRIM).optional(),
    autoQuality: z.boolean('must be true or false').optional(),
    frame: int(0, MAX_FRAME).optional(),
    background: z.string().regex(/^#[0-9a-fA-F]{6}$/, 'must be a colour as #rrggbb').optional(),
    grayscale: z.boolean('must be true or false').optional(),
    overlay: overlaySchema.optional(),
  })
  .strict()
  .refine((p) => !(p.crop && p.cropPixels), { message: 'give the cut once, as crop (fractions) or cropPixels (pixels)', path: ['cropPixels'] });

export const presetNameSchema = z.string().regex(/^[a-z0-9][a-z0-9_-]{0,63}$/, 'must be 1–64 lowercase letters, digits, "_" or "-"');

export const assetListQuerySchema = z
  .object({
    pageIndex: z.string().optional(),
    pageSize: z.string().optional(),
    type: z.enum(['IMAGE', 'FILE', 'VIDEO', 'VIDEO_PLAYLIST', 'AUDIO', 'PODCAST'], 'must be an asset type').optional(),
    /** Words found in the title, file name or alt text (each word somewhere, any case). */
    search: text(200).trim().min(1, 'must not be empty').optional(),
    /** Assets carrying this tag (exactly, any case). */
    tag: text(100).trim().min(1, 'must not be empty').optional(),
  })
  .strict();
