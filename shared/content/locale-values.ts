import { normalizeFields } from './field-values.js';
import { unknownLocaleMessage, type LocaleValues, type OrgLocales } from './locale-types.js';
import type { ModelDefinition } from './model-types.js';
import type { PendingPattern } from './validations/value-rules.js';

const isObject = (v: unknown): v is Record<string, unknown> => typeof v === 'object' && v !== null && !Array.isArray(v);

/**
 * Validates an entry's `locales` member ({code: {alias: value}}: the values of its localized
 * fields in the non-default locales) and returns them in their stored shapes; null when none is
 * left. A locale may be partial (nothing is required in it); null clears a value or a locale.
 */
export function normalizeLocaleValues(
  model: ModelDefinition,
  locales: OrgLocales | null,
  input: unknown,
): { values: LocaleValues | null; problems: string[]; patterns: PendingPattern[] } {
  const patterns: PendingPattern[] = [];
  if (input === undefined || input === null) return { values: null, problems: [], patterns };
  if (!isObject(input)) return { values: null, problems: ['locales: must be an object keyed by locale code, e.g. {"de-DE": {"title": "…"}}'], patterns };
  const problems: string[] = [];
  const values: LocaleValues = {};
  for (const [code, given] of Object.entries(input)) {
    if (locales && code === locales.defaultCode) {
      problems.push(`locales.${code}: "${code}" is the default locale; its values go in fields`);
      continue;
    }
    if (!locales?.chainOf(code)) {
      problems.push(`locales.${code}: ${unknownLocaleMessage(code, locales)}`);
      continue;
    }
    if (given === null) continue;
    const n = normalizeFields(model, given, { path: `locales.${code}`, locale: true });
    problems.push(...n.problems);
    patterns.push(...n.patterns);
    if (Object.keys(n.fields).length > 0) values[code] = n.fields;
  }
  return { values: Object.keys(values).length > 0 ? values : null, problems, patterns };
}

/** `PATCH` of `locales`: merged per locale and alias (null clears a value; a locale given as null goes). */
export function mergeLocaleValues(current: LocaleValues | null, patch: Record<string, Record<string, unknown> | null>): Record<string, unknown> {
  const out: Record<string, unknown> = { ...(current ?? {}) };
  for (const [code, values] of Object.entries(patch)) out[code] = values === null ? null : { ...(current?.[code] ?? {}), ...values };
  return out;
}
