import type { FieldDefinition } from '../content/model-types.js';
import { lit } from './sql-params.js';

/** The non-default locales a query reads values in, in turn (`OrgLocales.chainOf`); empty or null: the default's. */
export type LocaleChain = readonly string[] | null | undefined;

/**
 * A field's value of the entry row `e` as jsonb (`json`) or text: its `fields` value, or for a
 * localized field read in a locale the first value along the chain, then the default's. Filters
 * and order both read it, so a query compares what it answers.
 */
export function fieldValueSql(e: string, f: FieldDefinition, locale: LocaleChain, as: 'json' | 'text'): string {
  const op = as === 'json' ? '->' : '->>';
  const own = `${e}.fields${op}${lit(f.alias)}`;
  if (!readsLocaleValues(f, locale)) return own;
  return `COALESCE(${locale.map((code) => `${e}.locales->${lit(code)}${op}${lit(f.alias)}`).join(', ')}, ${own})`;
}

/** Whether a read of `f` in `locale` looks beyond the default's value (`fields`). */
export const readsLocaleValues = (f: FieldDefinition, locale: LocaleChain): locale is readonly string[] => !!f.localized && !!locale?.length;
