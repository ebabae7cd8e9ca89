import type { ModelDefinition } from '../content/model-types.js';
import { entryFilterSql, modelFilterSql } from './filters/entry-filter.js';
import { checkFilterLimits } from './filters/filter-limits.js';
import { visibleSql, type DeliveryScope, type FilterEnv } from './filters/filter-env.js';
import type { LocaleChain } from './field-sql.js';
import { compileOrder, type TrafficRanking, type OrderKey } from './order-sql.js';
import { searchSql, type EntrySearch } from './search-sql.js';
import { and, SqlParams } from './sql-params.js';

export type Input = Record<string, unknown>;

/** A set of entries to page through: one model or all, a filter, an order, an optional scope. */
export interface EntryQuery {
  orgId: string;
  scope: DeliveryScope;
  models: ReadonlyMap<string, ModelDefinition>;
  /** null: every model, filtered by a `CmsEntryFilter`. */
  model: ModelDefinition | null;
  where?: Input | null;
  order?: Input | null;
  /** The locale whose values localized fields are filtered and ordered by (its chain; see `fieldValueSql`). */
  locale?: LocaleChain;
  /** Restricts the set further (relations): SQL over the entry alias `e`, may use the env params. */
  restrict?: (env: FilterEnv) => string;
  /** Requests per entry, when the order names system.traffic (read before the query). */
  traffic?: TrafficRanking | null;
  /** Full-text search: only entries whose words match, ordered by relevance unless `order` says otherwise. */
  search?: EntrySearch | null;
}

export interface CompiledQuery {
  params: SqlParams;
  env: FilterEnv;
  /** WHERE condition over alias `e` (org, visibility, model, filter, restriction). */
  where: string;
  keys: OrderKey[];
  /** The filter searches substrings of the title (trigram-indexed), or the query searches words (see `searchSql`). */
  textSearch: boolean;
}

/** Compiles filter and order first (order errors surface before any SQL runs). */
export function compileEntryQuery(q: EntryQuery, params = new SqlParams()): CompiledQuery {
  checkFilterLimits(q.where);
  const search = q.search ? searchSql(q.search, 'e', params) : null;
  const keys = compileOrder(q.model, q.order, 'e', q.locale, q.traffic, search?.rank ?? null);
  const env: FilterEnv = { params, org: params.add(q.orgId), scope: q.scope, models: q.models, locale: q.locale, flags: { wantsDeleted: false } };
  const parts = [`e.org_id = ${env.org}`];
  if (q.model) parts.push(`e.model_alias = ${params.add(q.model.alias)}`);
  if (q.where) parts.push(q.model ? modelFilterSql(q.model, q.where, 'e', env) : entryFilterSql(q.where, 'e', env));
  if (q.restrict) parts.push(q.restrict(env));
  if (search) parts.push(search.where);
  // Visibility last: it depends on whether a status filter asked for DELETED.
  parts.splice(1, 0, visibleSql('e', q.scope, env.flags.wantsDeleted));
  const where = and(parts);
  // a title search: the default title, or a localized one through the index of every locale's titles
  // a word search reads the matches through the index of the vectors, as a title search does
  return { params, env, where, keys, textSearch: search !== null || /\be\.(title ILIKE|search_titles LIKE) /.test(where) };
}

/**
 * Sort-key columns `_k0…` of each row; timestamps also as text (`_t…`), since a JS Date keeps
 * only milliseconds and a token must carry Postgres' microseconds to resume exactly.
 */
const keyOutputs = (keys: OrderKey[]): Array<[expr: string, name: string]> =>
  keys.flatMap((k, i): Array<[string, string]> => (k.cast === 'timestamptz' ? [[k.expr, `_k${i}`], [`(${k.expr})::text`, `_t${i}`]] : [[k.expr, `_k${i}`]]));

export const keyColumns = (keys: OrderKey[]): string => keyOutputs(keys).map(([expr, name]) => `${expr} AS ${name}`).join(', ');

/** The names of `keyColumns`, in their order. */
export const keyNames = (keys: OrderKey[]): string[] => keyOutputs(keys).map(([, name]) => name);
