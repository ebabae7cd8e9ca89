import { z } from 'zod';

/** Every number the API exposes is int32. */
const int32 = z.number().int().min(-2147483648).max(2147483647);
const text = (max: number) => z.string().max(max);

/**
 * The write body of `POST` and `PUT .../outputgroups`. This checks shape only (types, lengths,
 * unknown keys → 400); `checkOutputGroup` then checks it against the catalog (→ 422).
 */
export const drmInputSchema = z.strictObject({
  providers: z.array(int32).max(16),
  widevineAlgorithm: int32.optional(),
  rawKeyLabels: z.array(text(32)).max(16).optional(),
  shakaPackagerKeyProviderType: int32,
  protectionSchemaType: int32,
  encryptionAlgorithmType: int32,
  label: text(200).optional(),
  clearLead: int32.optional(),
});

export const outputInputSchema = z.strictObject({
  name: text(200),
  nameModifier: text(200),
  presetId: int32,
});

export const outputGroupInputSchema = z.strictObject({
  name: text(200).optional(),
  customName: text(200).optional(),
  description: text(2000).optional(),
  type: int32,
  segmentControl: int32,
  segmentLength: int32,
  minSegmentLength: int32.optional(),
  categories: z.array(int32).max(64).optional(),
  /** Omitted: DRM is on exactly when `drm` is given. */
  hasDRM: z.boolean().optional(),
  drm: drmInputSchema.optional(),
  /** Omitted: none yet. */
  outputs: z.array(outputInputSchema).max(256).default([]),
});

export type OutputGroupInput = z.infer<typeof outputGroupInputSchema>;
export type DrmInput = z.infer<typeof drmInputSchema>;
