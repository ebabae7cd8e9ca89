import type { ModelDefinition } from '../../content/model-types.js';
import { and, or } from '../sql-params.js';
import { fieldFilterSql } from './field-filters.js';
import type { FilterEnv } from './filter-env.js';
import { listFilterSql, type ListFilter } from './list-filters.js';
import { dateTimeFilterSql, has, idFilterSql, stringFilterSql, type DateTimeFilter, type IdFilter, type StringFilter } from './scalar-filters.js';

type Maybe<T> = T | null | undefined;
type Input = Record<string, unknown>;

export interface StatusFilter {
  in?: Maybe<string[]>;
  notIn?: Maybe<string[]>;
  exists?: Maybe<boolean>;
}

const SYSTEM_DATES: Record<string, string> = {
  createdAt: 'created_at',
  updatedAt: 'updated_at',
  publishedAt: 'published_at',
  firstPublishedAt: 'first_published_at',
  unpublishedAt: 'unpublished_at',
};

function statusSql(e: string, f: StatusFilter, env: FilterEnv): string {
  const parts: string[] = [];
  if (has(f.in)) {
    if (f.in.includes('DELETED')) env.flags.wantsDeleted = true;
    parts.push(`${e}.status = ANY(${env.params.add(f.in)}::text[])`);
  }
  if (has(f.notIn)) parts.push(`NOT (${e}.status = ANY(${env.params.add(f.notIn)}::text[]))`);
  // Every entry has a status.
  if (has(f.exists)) parts.push(f.exists ? 'TRUE' : 'FALSE');
  return and(parts);
}

/** `labels` matches label ids or (case-insensitive) label names. */
function labelsSql(e: string, f: ListFilter<string>, env: FilterEnv): string {
  return listFilterSql(
    f,
    {
      elements: `unnest(${e}.labels) AS v`,
      match: (v, values) =>
        `(${v} = ANY(${values}) OR EXISTS (SELECT 1 FROM labels lb WHERE lb.org_id = ${e}.org_id AND lb.id = ${v} AND lower(lb.name) IN (SELECT lower(x) FROM unnest(${values}) AS x)))`,
      arrayType: 'text[]',
    },
    env.params,
  );
}

export function systemFilterSql(e: string, f: Input, env: FilterEnv): string {
  const parts: string[] = [];
  const p = env.params;
  for (const [key, value] of Object.entries(f)) {
    if (!has(value)) continue;
    if (key === 'title' || key === 'slug') parts.push(stringFilterSql(`${e}.${key}`, value as StringFilter, p));
    else if (key === 'externalId') parts.push(stringFilterSql(`${e}.external_id`, value as StringFilter, p));
    else if (key === 'siteId') parts.push(idFilterSql(`${e}.site_id`, value as IdFilter, p));
    else if (key in SYSTEM_DATES) parts.push(dateTimeFilterSql(`${e}.${SYSTEM_DATES[key]}`, value as DateTimeFilter, p, 'timestamptz'));
    else if (key === 'status') parts.push(statusSql(e, value as StatusFilter, env));
    else if (key === 'labels') parts.push(labelsSql(e, value as ListFilter<string>, env));
    else if (key === 'and') parts.push(and((value as Input[]).filter(has).map((g) => systemFilterSql(e, g, env))));
    else if (key === 'or') parts.push(or((value as Input[]).filter(has).map((g) => systemFilterSql(e, g, env))));
  }
  return and(parts);
}

/** `<Type>Filter`: model fields, `id`, `system`, `and`, `or`. */
export function modelFilterSql(model: ModelDefinition, f: Input, e: string, env: FilterEnv): string {
  const parts: string[] = [];
  for (const [key, value] of Object.entries(f)) {
    if (!has(value)) continue;
    if (key === 'id') parts.push(idFilterSql(`${e}.id`, value as IdFilter, env.params));
    else if (key === 'system') parts.push(systemFilterSql(e, value as Input, env));
    else if (key === 'and') parts.push(and((value as Input[]).filter(has).map((g) => modelFilterSql(model, g, e, env))));
    else if (key === 'or') parts.push(or((value as Input[]).filter(has).map((g) => modelFilterSql(model, g, e, env))));
    else {
      const field = model.fields.find((x) => x.alias === key);
      if (field) parts.push(fieldFilterSql(model, field, value, e, env));
    }
  }
  return and(parts);
}

/**
 * `CmsEntryFilter`: a model sub-filter first requires membership of that model,
 * so two different models under `and` match nothing and `or` combines them.
 */
export function entryFilterSql(f: Input, e: string, env: FilterEnv): string {
  const parts: string[] = [];
  for (const [key, value] of Object.entries(f)) {
    if (!has(value)) continue;
    if (key === 'id') parts.push(idFilterSql(`${e}.id`, value as IdFilter, env.params));
    else if (key === 'system') parts.push(systemFilterSql(e, value as Input, env));
    else if (key === 'and') parts.push(and((value as Input[]).filter(has).map((g) => entryFilterSql(g, e, env))));
    else if (key === 'or') parts.push(or((value as Input[]).filter(has).map((g) => entryFilterSql(g, e, env))));
    else {
      const model = env.models.get(key);
      if (model) parts.push(and([`${e}.model_alias = ${env.params.add(model.alias)}`, modelFilterSql(model, value as Input, e, env)]));
    }
  }
  return and(parts);
}
