import { and, escapeLike, or, type SqlParams } from '../sql-params.js';

/**
 * SQL for the API's scalar filter inputs over one SQL expression. Several operators in one
 * object are AND; `and`/`or` nest. String operators are case-insensitive (`lower()` / ILIKE,
 * which handle Unicode in both Postgres and PGlite). Negative operators (`ne`, `notIn`,
 * `notContains`) also match a missing value: "not equal to x" holds for an entry without one.
 */
type Maybe<T> = T | null | undefined;

export interface StringFilter {
  eq?: Maybe<string>;
  ne?: Maybe<string>;
  contains?: Maybe<string>;
  notContains?: Maybe<string>;
  startsWith?: Maybe<string>;
  endsWith?: Maybe<string>;
  in?: Maybe<string[]>;
  notIn?: Maybe<string[]>;
  startsWithAny?: Maybe<string[]>;
  endsWithAny?: Maybe<string[]>;
  exists?: Maybe<boolean>;
  and?: Maybe<StringFilter[]>;
  or?: Maybe<StringFilter[]>;
}

export interface IdFilter {
  eq?: Maybe<string>;
  ne?: Maybe<string>;
  in?: Maybe<string[]>;
  notIn?: Maybe<string[]>;
  exists?: Maybe<boolean>;
  and?: Maybe<IdFilter[]>;
  or?: Maybe<IdFilter[]>;
}

export interface NumberFilter {
  eq?: Maybe<number | string>;
  ne?: Maybe<number | string>;
  lt?: Maybe<number | string>;
  lte?: Maybe<number | string>;
  gt?: Maybe<number | string>;
  gte?: Maybe<number | string>;
  in?: Maybe<Array<number | string>>;
  notIn?: Maybe<Array<number | string>>;
  exists?: Maybe<boolean>;
  and?: Maybe<NumberFilter[]>;
  or?: Maybe<NumberFilter[]>;
}

export interface DateTimeFilter {
  eq?: Maybe<Date>;
  ne?: Maybe<Date>;
  lt?: Maybe<Date>;
  lte?: Maybe<Date>;
  gt?: Maybe<Date>;
  gte?: Maybe<Date>;
  exists?: Maybe<boolean>;
  and?: Maybe<DateTimeFilter[]>;
  or?: Maybe<DateTimeFilter[]>;
}

export interface BooleanFilter {
  eq?: Maybe<boolean>;
  ne?: Maybe<boolean>;
}

const has = <T>(v: Maybe<T>): v is T => v !== null && v !== undefined;

function existsSql(x: string, exists: Maybe<boolean>): string[] {
  return has(exists) ? [exists ? `${x} IS NOT NULL` : `${x} IS NULL`] : [];
}

function nested<F>(f: { and?: Maybe<F[]>; or?: Maybe<F[]> }, one: (g: F) => string): string[] {
  const out: string[] = [];
  if (has(f.and)) out.push(and(f.and.map(one)));
  if (has(f.or)) out.push(or(f.or.map(one)));
  return out;
}

/** Lower-cased set of values, compared with `lower(x)` (Postgres' own case folding on both sides). */
const lowerSet = (p: string) => `(SELECT lower(v) FROM unnest(${p}::text[]) AS v)`;

export function stringFilterSql(x: string, f: StringFilter, params: SqlParams): string {
  const parts: string[] = [];
  const like = (pattern: string) => `${x} ILIKE ${params.add(pattern)}`;
  if (has(f.eq)) parts.push(`lower(${x}) = lower(${params.add(f.eq)}::text)`);
  if (has(f.ne)) parts.push(`(${x} IS NULL OR lower(${x}) <> lower(${params.add(f.ne)}::text))`);
  if (has(f.contains)) parts.push(like(`%${escapeLike(f.contains)}%`));
  if (has(f.notContains)) parts.push(`(${x} IS NULL OR NOT ${like(`%${escapeLike(f.notContains)}%`)})`);
  if (has(f.startsWith)) parts.push(like(`${escapeLike(f.startsWith)}%`));
  if (has(f.endsWith)) parts.push(like(`%${escapeLike(f.endsWith)}`));
  if (has(f.in)) parts.push(`lower(${x}) IN ${lowerSet(params.add(f.in))}`);
  if (has(f.notIn)) parts.push(`(${x} IS NULL OR lower(${x}) NOT IN ${lowerSet(params.add(f.notIn))})`);
  if (has(f.startsWithAny)) parts.push(`${x} ILIKE ANY(${params.add(f.startsWithAny.map((s) => `${escapeLike(s)}%`))}::text[])`);
  if (has(f.endsWithAny)) parts.push(`${x} ILIKE ANY(${params.add(f.endsWithAny.map((s) => `%${escapeLike(s)}`))}::text[])`);
  parts.push(...existsSql(x, f.exists));
  parts.push(...nested(f, (g) => stringFilterSql(x, g, params)));
  return and(parts);
}

/** Ids are compared exactly: they are case-sensitive base62. */
export function idFilterSql(x: string, f: IdFilter, params: SqlParams): string {
  const parts: string[] = [];
  if (has(f.eq)) parts.push(`${x} = ${params.add(f.eq)}::text`);
  if (has(f.ne)) parts.push(`${x} IS DISTINCT FROM ${params.add(f.ne)}::text`);
  if (has(f.in)) parts.push(`${x} = ANY(${params.add(f.in)}::text[])`);
  if (has(f.notIn)) parts.push(`(${x} IS NULL OR NOT (${x} = ANY(${params.add(f.notIn)}::text[])))`);
  parts.push(...existsSql(x, f.exists));
  parts.push(...nested(f, (g) => idFilterSql(x, g, params)));
  return and(parts);
}

const COMPARE = { lt: '<', lte: '<=', gt: '>', gte: '>=' } as const;

/** `x` is a numeric expression; values travel as text so decimals stay exact. */
export function numberFilterSql(x: string, f: NumberFilter, params: SqlParams): string {
  const parts: string[] = [];
  const num = (v: number | string) => `${params.add(String(v))}::numeric`;
  if (has(f.eq)) parts.push(`${x} = ${num(f.eq)}`);
  if (has(f.ne)) parts.push(`${x} IS DISTINCT FROM ${num(f.ne)}`);
  for (const [op, sym] of Object.entries(COMPARE) as Array<[keyof typeof COMPARE, string]>) {
    const v = f[op];
    if (has(v)) parts.push(`${x} ${sym} ${num(v)}`);
  }
  if (has(f.in)) parts.push(`${x} = ANY(${params.add(f.in.map(String))}::numeric[])`);
  if (has(f.notIn)) parts.push(`(${x} IS NULL OR NOT (${x} = ANY(${params.add(f.notIn.map(String))}::numeric[])))`);
  parts.push(...existsSql(x, f.exists));
  parts.push(...nested(f, (g) => numberFilterSql(x, g, params)));
  return and(parts);
}

/**
 * `kind: 'timestamptz'` for system columns; `'iso-text'` for datetime fields, stored as
 * fixed-width ISO-8601 UTC strings that compare correctly as text.
 */
export function dateTimeFilterSql(x: string, f: DateTimeFilter, params: SqlParams, kind: 'timestamptz' | 'iso-text'): string {
  const parts: string[] = [];
  const val = (d: Date) => (kind === 'timestamptz' ? `${params.add(d.toISOString())}::timestamptz` : `${params.add(d.toISOString())}::text`);
  if (has(f.eq)) parts.push(`${x} = ${val(f.eq)}`);
  if (has(f.ne)) parts.push(`${x} IS DISTINCT FROM ${val(f.ne)}`);
  for (const [op, sym] of Object.entries(COMPARE) as Array<[keyof typeof COMPARE, string]>) {
    const v = f[op];
    if (has(v)) parts.push(`${x} ${sym} ${val(v)}`);
  }
  parts.push(...existsSql(x, f.exists));
  parts.push(...nested(f, (g) => dateTimeFilterSql(x, g, params, kind)));
  return and(parts);
}

/** `x` is a jsonb expression holding a JSON boolean. */
export function booleanFilterSql(x: string, f: BooleanFilter, params: SqlParams): string {
  const parts: string[] = [];
  if (has(f.eq)) parts.push(`${x} = ${params.add(JSON.stringify(f.eq))}::jsonb`);
  if (has(f.ne)) parts.push(`${x} IS DISTINCT FROM ${params.add(JSON.stringify(f.ne))}::jsonb`);
  return and(parts);
}

export { has };
