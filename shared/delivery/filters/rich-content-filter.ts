import { and, lit, or, type SqlParams } from '../sql-params.js';
import { has, numberFilterSql, stringFilterSql, type NumberFilter, type StringFilter } from './scalar-filters.js';

type Maybe<T> = T | null | undefined;

export interface RichContentBlockFilter {
  type?: Maybe<StringFilter>;
  value?: Maybe<StringFilter>;
  attrs?: Maybe<{ properties?: Maybe<Array<{ key: string; value?: Maybe<StringFilter> } | null>> }>;
  and?: Maybe<RichContentBlockFilter[]>;
  or?: Maybe<RichContentBlockFilter[]>;
}

export interface RichContentFieldFilter {
  exists?: Maybe<boolean>;
  blocks?: Maybe<RichContentBlockFilter>;
  charCount?: Maybe<NumberFilter>;
  and?: Maybe<RichContentFieldFilter[]>;
  or?: Maybe<RichContentFieldFilter[]>;
}

/** Every `text` string under a node, in document order (silent: odd shapes yield nothing). */
const textsOf = (node: string) => `jsonb_path_query(${node}, 'strict $.**.text', '{}', true)`;

/** Plain text of a block; blocks without text (cms_reference, cms_media) are valued by `attrs.id`. */
const blockValue = (b: string) =>
  `COALESCE(NULLIF((SELECT string_agg(t #>> '{}', '') FROM ${textsOf(b)} AS t), ''), ${b}->'attrs'->>'id')`;

function blockSql(b: string, f: RichContentBlockFilter, params: SqlParams): string {
  const parts: string[] = [];
  if (has(f.type)) parts.push(stringFilterSql(`${b}->>'type'`, f.type, params));
  if (has(f.value)) parts.push(stringFilterSql(blockValue(b), f.value, params));
  for (const prop of f.attrs?.properties ?? []) {
    if (!prop) continue;
    const x = `${b}->'attrs'->>${lit(prop.key)}`;
    parts.push(has(prop.value) ? stringFilterSql(x, prop.value, params) : `${x} IS NOT NULL`);
  }
  if (has(f.and)) parts.push(and(f.and.map((g) => blockSql(b, g, params))));
  if (has(f.or)) parts.push(or(f.or.map((g) => blockSql(b, g, params))));
  return and(parts);
}

/**
 * `blocks` matches when a single top-level block satisfies all its conditions;
 * `charCount` counts the characters of every text node of the document.
 */
export function richContentFilterSql(doc: string, f: RichContentFieldFilter, params: SqlParams): string {
  const parts: string[] = [];
  if (has(f.exists)) parts.push(f.exists ? `${doc} IS NOT NULL` : `${doc} IS NULL`);
  if (has(f.blocks)) {
    const content = `${doc}->'content'`;
    parts.push(
      `EXISTS (SELECT 1 FROM jsonb_array_elements(CASE WHEN jsonb_typeof(${content}) = 'array' THEN ${content} ELSE '[]'::jsonb END) AS b(node) WHERE ${blockSql('b.node', f.blocks, params)})`,
    );
  }
  if (has(f.charCount)) {
    // A missing document has no character count (it matches only `exists: false`).
    const count = `(CASE WHEN ${doc} IS NULL THEN NULL ELSE (SELECT COALESCE(sum(char_length(t #>> '{}')), 0) FROM ${textsOf(doc)} AS t) END)`;
    parts.push(numberFilterSql(count, f.charCount, params));
  }
  if (has(f.and)) parts.push(and(f.and.map((g) => richContentFilterSql(doc, g, params))));
  if (has(f.or)) parts.push(or(f.or.map((g) => richContentFilterSql(doc, g, params))));
  return and(parts);
}
