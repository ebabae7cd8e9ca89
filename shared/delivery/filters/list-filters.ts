import { and, type SqlParams } from '../sql-params.js';
import { has } from './scalar-filters.js';

type Maybe<T> = T | null | undefined;

/** `CmsStringListFilter`, `CmsIntListFilter`, `CmsAuthorListFieldFilter`, … : all / some / none. */
export interface ListFilter<T> {
  all?: Maybe<T[]>;
  some?: Maybe<T[]>;
  none?: Maybe<T[]>;
}

export interface ListSource {
  /** A FROM item yielding one row per element with the column `v`. */
  elements: string;
  /** SQL true when element `v` matches one of the values of the array expression. */
  match: (v: string, values: string) => string;
  /** Postgres array type of the values, e.g. `text[]`. */
  arrayType: string;
}

/**
 * `some`: at least one element matches one of the values; `all`: every value is matched by some
 * element; `none`: no element matches any value. An empty or missing list matches `none` only.
 */
export function listFilterSql<T>(f: ListFilter<T>, source: ListSource, params: SqlParams, encode: (v: T) => unknown = (v) => v): string {
  const parts: string[] = [];
  const some = (values: string) => `EXISTS (SELECT 1 FROM ${source.elements} WHERE ${source.match('v', values)})`;
  if (has(f.some)) parts.push(some(`${params.add(f.some.map(encode))}::${source.arrayType}`));
  if (has(f.none)) parts.push(`NOT ${some(`${params.add(f.none.map(encode))}::${source.arrayType}`)}`);
  if (has(f.all)) {
    const p = `${params.add(f.all.map(encode))}::${source.arrayType}`;
    parts.push(`NOT EXISTS (SELECT 1 FROM unnest(${p}) AS w WHERE NOT ${some('ARRAY[w]')})`);
  }
  return and(parts);
}

/** Elements of a jsonb array expression as text (a missing field is an empty list). */
export const jsonTextElements = (arr: string) => `jsonb_array_elements_text(CASE WHEN jsonb_typeof(${arr}) = 'array' THEN ${arr} ELSE '[]'::jsonb END) AS v`;

/** Case-insensitive string elements (tags, texts). */
export const stringListSource = (arr: string): ListSource => ({
  elements: jsonTextElements(arr),
  match: (v, values) => `lower(${v}) IN (SELECT lower(x) FROM unnest(${values}) AS x)`,
  arrayType: 'text[]',
});

/** Exact string elements (ids of entries, assets, authors, sections). */
export const idListSource = (arr: string): ListSource => ({
  elements: jsonTextElements(arr),
  match: (v, values) => `${v} = ANY(${values})`,
  arrayType: 'text[]',
});

export const numberListSource = (arr: string): ListSource => ({
  elements: jsonTextElements(arr),
  match: (v, values) => `${v}::numeric = ANY(${values})`,
  arrayType: 'numeric[]',
});
