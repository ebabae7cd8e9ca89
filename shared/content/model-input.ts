import { z } from 'zod';

/**
 * Body of `PUT /management/v1/models/:alias`. Only the shape is checked here; the meaning of
 * each field definition (known type, list form, allowed models, names) is checked by
 * `model-rules.ts`, which names the offending field in every message.
 */
export const fieldInputSchema = z.strictObject({
  alias: z.string().min(1).max(64),
  type: z.string().min(1).max(32),
  valueType: z.string().optional(),
  numberFormat: z.string().optional(),
  allowedModels: z.array(z.string().max(64)).max(100).optional(),
  required: z.boolean().optional(),
  localized: z.boolean().optional(),
  /** Rules every value must keep, each `{<rule>: …}`; checked by `validations/check-validations.ts`. */
  validations: z.array(z.unknown()).max(20).optional(),
  /** Component fields: the aliases of the components a value may be. */
  components: z.array(z.string().max(64)).max(50).optional(),
});

export const modelInputSchema = z.strictObject({
  name: z.string().trim().min(1).max(200).optional(),
  titleField: z.string().max(64).nullable().optional(),
  fields: z.array(fieldInputSchema).max(200),
  /** The URL a preview link opens, with `{token}` and the entry's values; checked by `preview-url.ts`. */
  previewUrl: z.string().max(2000).nullable().optional(),
});

export type FieldInput = z.infer<typeof fieldInputSchema>;
export type ModelInput = z.infer<typeof modelInputSchema>;
