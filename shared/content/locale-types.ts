import type { ModelDefinition } from './model-types.js';

/**
 * Locales of an organization. The default locale's values are an entry's `fields`; the values of
 * localized fields in every other locale are the entry's `locales` ({code: {alias: value}}). A
 * value missing in the asked locale is looked up along its fallback chain, then in the default.
 */
export interface Locale {
  code: string;
  name: string;
  default: boolean;
  /** The locale asked next when this one has no value (never the default's: it is always last). */
  fallback: string | null;
  createdAt: string;
  updatedAt: string;
}

/** Values of localized fields in the non-default locales, by locale code then field alias. */
export type LocaleValues = Record<string, Record<string, unknown>>;

/** BCP 47 shaped: a language and up to three subtags (`en`, `en-US`, `zh-Hant-TW`). */
export const LOCALE_CODE = /^[a-z]{2,3}(-[A-Za-z0-9]{1,8}){0,3}$/;

/** An organization's locales as readers need them. */
export interface OrgLocales {
  defaultCode: string;
  /** Every code, the default first. */
  codes: string[];
  /**
   * The non-default codes to look in, in turn, for a value asked in `code` (empty for the
   * default: its values are `fields`); null for an unknown code.
   */
  chainOf(code: string): string[] | null;
}

/** The readers' view of a list of locales; null when there are none. */
export function orgLocales(list: readonly Locale[]): OrgLocales | null {
  const def = list.find((l) => l.default);
  if (!def) return null;
  const byCode = new Map(list.map((l) => [l.code, l]));
  const chains = new Map<string, string[]>();
  for (const l of list) {
    const chain: string[] = [];
    // a chain cannot loop (writes refuse it); the bound only guards against a hand-edited table
    for (let at: Locale | undefined = l; at && !at.default && chain.length < list.length && !chain.includes(at.code); at = at.fallback ? byCode.get(at.fallback) : undefined) {
      chain.push(at.code);
    }
    chains.set(l.code, chain);
  }
  return {
    defaultCode: def.code,
    codes: [def.code, ...list.filter((l) => !l.default).map((l) => l.code)],
    chainOf: (code) => chains.get(code) ?? null,
  };
}

/** The message for a locale an organization does not have, naming the ones it has. */
export function unknownLocaleMessage(code: string, locales: OrgLocales | null): string {
  return locales
    ? `Unknown locale "${code}"; this organization's locales are ${locales.codes.join(', ')} (default ${locales.defaultCode}).`
    : `Unknown locale "${code}"; this organization declares no locales (POST /management/v1/locales adds them).`;
}

/**
 * Field values as seen in a locale: the entry's own `fields` with each localized field's value
 * taken from the first locale of `chain` that has one (see `OrgLocales.chainOf`).
 */
export function localizedFields(
  fields: Record<string, unknown>,
  values: LocaleValues | null | undefined,
  localized: readonly string[],
  chain: readonly string[],
): Record<string, unknown> {
  if (!values || chain.length === 0 || localized.length === 0) return fields;
  let out: Record<string, unknown> | null = null;
  for (const alias of localized) {
    for (const code of chain) {
      const v = values[code]?.[alias];
      if (v !== undefined && v !== null) {
        out ??= { ...fields };
        out[alias] = v;
        break;
      }
    }
  }
  return out ?? fields;
}

/**
 * An entry's fields and title as read in a locale: `localizedFields` over the model's localized
 * fields, and the title from them when the title field is localized (`title` holds the default's).
 */
export function readInLocale(
  model: ModelDefinition | undefined,
  entry: { fields: Record<string, unknown>; title: string | null; locales: LocaleValues | null | undefined },
  chain: readonly string[],
): { fields: Record<string, unknown>; title: string | null } {
  const localized = model ? model.fields.filter((f) => f.localized).map((f) => f.alias) : [];
  const fields = localizedFields(entry.fields, entry.locales, localized, chain);
  const title = model?.titleField && localized.includes(model.titleField) ? ((fields[model.titleField] as string | undefined) ?? null) : entry.title;
  return { fields, title };
}
