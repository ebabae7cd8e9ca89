import { z } from 'zod';
import { LOCALE_CODE } from './locale-types.js';

const code = z.string().regex(LOCALE_CODE, 'must be a BCP 47 language tag such as "en", "en-US" or "zh-Hant-TW"');

/** `POST /locales`. The organization's first locale is its default whatever `default` says. */
export const localeInputSchema = z.strictObject({
  code,
  name: z.string().trim().min(1).max(200).optional(),
  default: z.boolean().optional(),
  fallback: code.nullable().optional(),
});
export type LocaleInput = z.infer<typeof localeInputSchema>;

/** `PATCH /locales/:code`: `default: true` makes it the default (false is refused: name another instead). */
export const localePatchSchema = z.strictObject({
  name: z.string().trim().min(1).max(200).optional(),
  default: z.literal(true, { message: 'only true: make another locale the default to change it' }).optional(),
  fallback: code.nullable().optional(),
});
export type LocalePatch = z.infer<typeof localePatchSchema>;

/** The import's `locale` line: a locale as `POST /locales` takes it. */
export const localeLineSchema = localeInputSchema;
