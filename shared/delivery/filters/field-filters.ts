import type { FieldDefinition, ModelDefinition } from '../../content/model-types.js';
import { fieldValueSql, readsLocaleValues, type LocaleChain } from '../field-sql.js';
import { and, escapeLike, type SqlParams } from '../sql-params.js';
import { visibleSql, type FilterEnv } from './filter-env.js';
import { idListSource, listFilterSql, numberListSource, stringListSource, type ListFilter } from './list-filters.js';
import { richContentFilterSql, type RichContentFieldFilter } from './rich-content-filter.js';
import {
  booleanFilterSql,
  dateTimeFilterSql,
  has,
  idFilterSql,
  numberFilterSql,
  type IdFilter,
  stringFilterSql,
  type BooleanFilter,
  type DateTimeFilter,
  type NumberFilter,
  type StringFilter,
} from './scalar-filters.js';

type Maybe<T> = T | null | undefined;

interface ReferenceFieldFilter {
  exists?: Maybe<boolean>;
  entryId?: Maybe<StringFilter>;
  model?: Maybe<StringFilter>;
}
interface ReferenceListFieldFilter {
  entryId?: Maybe<ListFilter<string>>;
  model?: Maybe<ListFilter<string>>;
}
interface MediaFieldFilter {
  exists?: Maybe<boolean>;
  id?: Maybe<StringFilter>;
  type?: Maybe<{ in?: Maybe<string[]>; notIn?: Maybe<string[]>; exists?: Maybe<boolean> }>;
}
interface MediaListFieldFilter {
  id?: Maybe<ListFilter<string>>;
  type?: Maybe<ListFilter<string>>;
}
interface IdSetFilter {
  eq?: Maybe<string>;
  ne?: Maybe<string>;
  in?: Maybe<string[]>;
  notIn?: Maybe<string[]>;
  includeChildren?: Maybe<boolean>;
}
type SectionListFilter = ListFilter<string> & { includeChildren?: Maybe<boolean> };
interface ComponentFieldFilter {
  exists?: Maybe<boolean>;
  component?: Maybe<IdFilter>;
}
interface ComponentListFieldFilter {
  component?: Maybe<ListFilter<string>>;
}

/** A component field by the component its value is (`value ->> 'component'`). */
function componentSql(value: string, f: ComponentFieldFilter, p: SqlParams): string {
  const parts: string[] = [];
  if (has(f.exists)) parts.push(f.exists ? `${value} IS NOT NULL` : `${value} IS NULL`);
  if (has(f.component)) parts.push(idFilterSql(`(${value} ->> 'component')`, f.component, p));
  return and(parts);
}

/** A list of components by the components it holds: their aliases as a list of strings. */
function componentListSql(list: string, f: ComponentListFieldFilter, p: SqlParams): string {
  return has(f.component) ? listFilterSql(f.component, idListSource(`jsonb_path_query_array(${list}, '$[*].component')`), p) : 'TRUE';
}

/** The jsonb value of a field (in the query's locale, see `fieldValueSql`), and its text form. */
export const jsonOf = (e: string, f: FieldDefinition, locale: LocaleChain) => fieldValueSql(e, f, locale, 'json');
export const textOf = (e: string, f: FieldDefinition, locale: LocaleChain) => fieldValueSql(e, f, locale, 'text');

/**
 * The title field is mirrored in `entries.title`, which carries the trigram index: filters and
 * orders on it use the column so `contains` and `total` stay cheap. The column holds the default
 * locale's title, so a localized title read in another locale is read from the values.
 */
export function stringExprOf(model: ModelDefinition, e: string, f: FieldDefinition, locale: LocaleChain): string {
  return isTitleField(model, f) && !readsLocaleValues(f, locale) ? `${e}.title` : textOf(e, f, locale);
}

const isTitleField = (model: ModelDefinition, f: FieldDefinition) => model.titleField === f.alias && f.type === 'text' && f.valueType === 'single';

/**
 * A filter on the title as read in another locale: the rows whose title in some locale could
 * match (`search_titles`, every title lower-cased, trigram-indexed; LIKE on lower-cased text is
 * what ILIKE does in a UTF-8 database) AND the title of the asked locale matching. Without the
 * first part a substring search would read every row of the model.
 */
function localizedTitleSql(model: ModelDefinition, e: string, field: FieldDefinition, f: StringFilter, env: FilterEnv): string {
  const exact = stringFilterSql(stringExprOf(model, e, field, env.locale), f, env.params);
  // one substring of the wanted title, which any title that matches holds (`locale_titles` holds several, one per line)
  const term = [f.contains, f.startsWith, f.endsWith, f.eq].find((v) => has(v));
  if (!has(term)) return exact;
  const p = env.params.add(`%${escapeLike(term)}%`);
  return and([`${e}.search_titles LIKE lower(${p})`, exact]);
}

/** Section ids of `ids` and all their descendants. */
export const subtreeSql = (env: FilterEnv, ids: string) =>
  `(WITH RECURSIVE st(id) AS (SELECT s.id FROM sections s WHERE s.org_id = ${env.org} AND s.id = ANY(${ids}) ` +
  `UNION SELECT c.id FROM sections c JOIN st ON c.parent_id = st.id WHERE c.org_id = ${env.org}) SELECT id FROM st)`;

/** eq/ne/in/notIn over an id expression; with `subtree` each given id stands for its subtree. */
function idSetSql(x: string, f: IdSetFilter, params: SqlParams, subtree?: (ids: string) => string): string {
  const member = (ids: string[]) => {
    const p = `${params.add(ids)}::text[]`;
    return subtree ? `${x} IN ${subtree(p)}` : `${x} = ANY(${p})`;
  };
  const parts: string[] = [];
  if (has(f.eq)) parts.push(member([f.eq]));
  if (has(f.ne)) parts.push(`(${x} IS NULL OR NOT ${member([f.ne])})`);
  if (has(f.in)) parts.push(member(f.in));
  if (has(f.notIn)) parts.push(`(${x} IS NULL OR NOT ${member(f.notIn)})`);
  return and(parts);
}

function referenceSql(e: string, field: FieldDefinition, f: ReferenceFieldFilter, env: FilterEnv): string {
  const x = textOf(e, field, env.locale);
  const parts: string[] = [];
  if (has(f.exists)) parts.push(f.exists ? `${x} IS NOT NULL` : `${x} IS NULL`);
  if (has(f.entryId)) parts.push(stringFilterSql(x, f.entryId, env.params));
  if (has(f.model)) {
    parts.push(
      `EXISTS (SELECT 1 FROM entries t WHERE t.org_id = ${e}.org_id AND t.id = ${x} AND ${visibleSql('t', env.scope)} AND ${stringFilterSql('t.model_alias', f.model, env.params)})`,
    );
  }
  return and(parts);
}

function referenceListSql(e: string, field: FieldDefinition, f: ReferenceListFieldFilter, env: FilterEnv): string {
  const arr = jsonOf(e, field, env.locale);
  const parts: string[] = [];
  if (has(f.entryId)) parts.push(listFilterSql(f.entryId, idListSource(arr), env.params));
  if (has(f.model)) {
    parts.push(
      listFilterSql(
        f.model,
        {
          elements: `(SELECT t.model_alias AS v FROM jsonb_array_elements_text(CASE WHEN jsonb_typeof(${arr}) = 'array' THEN ${arr} ELSE '[]'::jsonb END) AS r(id)
            JOIN entries t ON t.org_id = ${e}.org_id AND t.id = r.id AND ${visibleSql('t', env.scope)}) AS m`,
          match: (v, values) => `lower(${v}) IN (SELECT lower(x) FROM unnest(${values}) AS x)`,
          arrayType: 'text[]',
        },
        env.params,
      ),
    );
  }
  return and(parts);
}

function mediaSql(e: string, field: FieldDefinition, f: MediaFieldFilter, env: FilterEnv): string {
  const x = textOf(e, field, env.locale);
  const parts: string[] = [];
  if (has(f.exists)) parts.push(f.exists ? `${x} IS NOT NULL` : `${x} IS NULL`);
  if (has(f.id)) parts.push(stringFilterSql(x, f.id, env.params));
  if (has(f.type)) {
    const asset = (cond: string) => `EXISTS (SELECT 1 FROM assets a WHERE a.org_id = ${e}.org_id AND a.id = ${x} AND a.deleted_at IS NULL AND ${cond})`;
    const t = f.type;
    if (has(t.in)) parts.push(asset(`a.type = ANY(${env.params.add(t.in)}::text[])`));
    if (has(t.notIn)) parts.push(`NOT ${asset(`a.type = ANY(${env.params.add(t.notIn)}::text[])`)}`);
    if (has(t.exists)) parts.push(t.exists ? asset('TRUE') : `NOT ${asset('TRUE')}`);
  }
  return and(parts);
}

function mediaListSql(e: string, field: FieldDefinition, f: MediaListFieldFilter, env: FilterEnv): string {
  const arr = jsonOf(e, field, env.locale);
  const parts: string[] = [];
  if (has(f.id)) parts.push(listFilterSql(f.id, idListSource(arr), env.params));
  if (has(f.type)) {
    parts.push(
      listFilterSql(
        f.type,
        {
          elements: `(SELECT a.type AS v FROM jsonb_array_elements_text(CASE WHEN jsonb_typeof(${arr}) = 'array' THEN ${arr} ELSE '[]'::jsonb END) AS r(id)
            JOIN assets a ON a.org_id = ${e}.org_id AND a.id = r.id AND a.deleted_at IS NULL) AS m`,
          match: (v, values) => `${v} = ANY(${values})`,
          arrayType: 'text[]',
        },
        env.params,
      ),
    );
  }
  return and(parts);
}

function sectionListSql(e: string, field: FieldDefinition, f: SectionListFilter, env: FilterEnv): string {
  const arr = jsonOf(e, field, env.locale);
  if (!f.includeChildren) return listFilterSql(f, idListSource(arr), env.params);
  return listFilterSql(
    f,
    { ...idListSource(arr), match: (v, values) => `${v} IN ${subtreeSql(env, values)}` },
    env.params,
  );
}

/** SQL for one model field's filter input (type chosen by the field's definition). */
export function fieldFilterSql(model: ModelDefinition, field: FieldDefinition, input: unknown, e: string, env: FilterEnv): string {
  const p = env.params;
  const list = field.valueType === 'list';
  switch (field.type) {
    case 'text':
    case 'tag':
      if (list) return listFilterSql(input as ListFilter<string>, stringListSource(jsonOf(e, field, env.locale)), p);
      return isTitleField(model, field) && readsLocaleValues(field, env.locale)
        ? localizedTitleSql(model, e, field, input as StringFilter, env)
        : stringFilterSql(stringExprOf(model, e, field, env.locale), input as StringFilter, p);
    case 'richtext':
    case 'url':
      return stringFilterSql(textOf(e, field, env.locale), input as StringFilter, p);
    case 'number':
      return list
        ? listFilterSql(input as ListFilter<number | string>, numberListSource(jsonOf(e, field, env.locale)), p, String)
        : numberFilterSql(`(${textOf(e, field, env.locale)})::numeric`, input as NumberFilter, p);
    case 'datetime':
      return dateTimeFilterSql(textOf(e, field, env.locale), input as DateTimeFilter, p, 'iso-text');
    case 'boolean':
      return booleanFilterSql(jsonOf(e, field, env.locale), input as BooleanFilter, p);
    case 'reference':
      return list
        ? referenceListSql(e, field, input as ReferenceListFieldFilter, env)
        : referenceSql(e, field, input as ReferenceFieldFilter, env);
    case 'media':
      return list ? mediaListSql(e, field, input as MediaListFieldFilter, env) : mediaSql(e, field, input as MediaFieldFilter, env);
    case 'section':
      return list
        ? sectionListSql(e, field, input as SectionListFilter, env)
        : idSetSql(textOf(e, field, env.locale), input as IdSetFilter, p, (input as IdSetFilter).includeChildren ? (ids) => subtreeSql(env, ids) : undefined);
    case 'author':
      return list
        ? listFilterSql(input as ListFilter<string>, idListSource(jsonOf(e, field, env.locale)), p)
        : idSetSql(textOf(e, field, env.locale), input as IdSetFilter, p);
    case 'richcontent':
      return richContentFilterSql(jsonOf(e, field, env.locale), input as RichContentFieldFilter, p);
    case 'component':
      return list ? componentListSql(jsonOf(e, field, env.locale), input as ComponentListFieldFilter, p) : componentSql(jsonOf(e, field, env.locale), input as ComponentFieldFilter, p);
    default:
      // json and location have no filter input in the schema.
      return 'TRUE';
  }
}

export { idFilterSql };
