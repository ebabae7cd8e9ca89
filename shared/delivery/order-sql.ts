import type { ModelDefinition } from '../content/model-types.js';
import { badRequest } from '../errors/index.js';
import { fieldValueSql, readsLocaleValues, type LocaleChain } from './field-sql.js';

export type Direction = 'ASC' | 'DESC';
export type KeyCast = 'text' | 'numeric' | 'timestamptz' | 'boolean';

/** One ORDER BY key: expression, direction (nulls always last) and the type of its keyset value. */
export interface OrderKey {
  name: string;
  expr: string;
  dir: Direction;
  cast: KeyCast;
}

type OrderInput = Record<string, unknown>;

const SYSTEM_KEYS: Record<string, { column: string; cast: KeyCast }> = {
  title: { column: 'title', cast: 'text' },
  slug: { column: 'slug', cast: 'text' },
  createdAt: { column: 'created_at', cast: 'timestamptz' },
  updatedAt: { column: 'updated_at', cast: 'timestamptz' },
  publishedAt: { column: 'published_at', cast: 'timestamptz' },
  firstPublishedAt: { column: 'first_published_at', cast: 'timestamptz' },
  unpublishedAt: { column: 'unpublished_at', cast: 'timestamptz' },
};

/** Requests per entry id, for an order by `system.traffic` (entries absent count 0). */
export type TrafficRanking = ReadonlyMap<string, number>;

/** Entry ids are generated from letters, digits, "_" and "-": anything else is left out of the literal. */
const SAFE_ID = /^[A-Za-z0-9_-]{1,64}$/;

/**
 * The ranking as one jsonb literal looked up by id: read once per statement, and no parameter
 * slots (a ranking holds thousands of entries).
 */
function trafficSql(ranking: TrafficRanking, e: string): string {
  const pairs = [...ranking].filter(([id, n]) => SAFE_ID.test(id) && Number.isSafeInteger(n)).map(([id, n]) => `"${id}":${n}`);
  if (pairs.length === 0) return '0::bigint';
  return `COALESCE(('{${pairs.join(',')}}'::jsonb ->> ${e}.id)::bigint, 0)`;
}

/** The order (or one of its thenBy) names system.traffic. */
export function ordersByTraffic(order: OrderInput | null | undefined): boolean {
  if (!order) return false;
  const system = order.system as OrderInput | null | undefined;
  if (system && system.traffic !== null && system.traffic !== undefined) return true;
  return ((order.thenBy as Array<OrderInput | null> | null | undefined) ?? []).some((t) => ordersByTraffic(t));
}

/** Field types a `<Type>Order` offers: text, number, datetime, boolean, url, single tag. */
export function isOrderable(f: ModelDefinition['fields'][number]): boolean {
  if (f.valueType !== 'single') return false;
  return ['text', 'number', 'datetime', 'boolean', 'url', 'tag'].includes(f.type);
}

function fieldKey(model: ModelDefinition, alias: string, dir: Direction, e: string, locale: LocaleChain): OrderKey | null {
  const f = model.fields.find((x) => x.alias === alias && isOrderable(x));
  if (!f) return null;
  const text = fieldValueSql(e, f, locale, 'text');
  if (f.type === 'number') return { name: alias, expr: `(${text})::numeric`, dir, cast: 'numeric' };
  if (f.type === 'boolean') return { name: alias, expr: `(${text})::boolean`, dir, cast: 'boolean' };
  // `title` holds the default locale's title
  if (f.type === 'text' && model.titleField === f.alias && !readsLocaleValues(f, locale)) return { name: alias, expr: `${e}.title`, dir, cast: 'text' };
  // datetime values are fixed-width ISO strings: text order is time order.
  return { name: alias, expr: text, dir, cast: 'text' };
}

/** The single key set in one order object; two keys is an error. */
function onlyKey(o: OrderInput, where: string): [string, unknown] | null {
  const keys = Object.entries(o).filter(([k, v]) => k !== 'thenBy' && v !== null && v !== undefined);
  if (keys.length > 1) {
    throw badRequest(`${where}: one key per order object (got ${keys.map(([k]) => k).join(', ')}); use thenBy for tie-breakers.`);
  }
  return keys[0] ?? null;
}

/**
 * Compiles `<Type>Order` / `CmsEntryOrder` into keys: the given key, then each `thenBy` in turn,
 * then `id ASC` as the final tie-breaker. No key at all → `system.publishedAt DESC`, or with a
 * search `system.relevance DESC` (`relevance`: its SQL, see `searchSql`). An order by
 * `system.traffic` needs the ranking, read beforehand.
 */
export function compileOrder(
  model: ModelDefinition | null,
  order: OrderInput | null | undefined,
  e = 'e',
  locale: LocaleChain = null,
  traffic: TrafficRanking | null = null,
  relevance: string | null = null,
): OrderKey[] {
  const keys: OrderKey[] = [];
  const walk = (o: OrderInput, where: string) => {
    const key = onlyKey(o, where);
    if (key) {
      const [name, value] = key;
      if (name === 'system') {
        const sys = onlyKey(value as OrderInput, `${where}.system`);
        if (sys?.[0] === 'relevance') {
          if (!relevance) throw badRequest(`${where}.system.relevance: only a search (the search argument) has a relevance to order by.`);
          keys.push({ name: 'system.relevance', expr: relevance, dir: sys[1] as Direction, cast: 'numeric' });
        } else if (sys?.[0] === 'traffic') {
          if (!traffic) throw badRequest(`${where}.system.traffic: only a root collection can be ordered by traffic.`);
          keys.push({ name: 'system.traffic', expr: trafficSql(traffic, e), dir: sys[1] as Direction, cast: 'numeric' });
        } else if (sys) {
          const def = SYSTEM_KEYS[sys[0]];
          keys.push({ name: `system.${sys[0]}`, expr: `${e}.${def.column}`, dir: sys[1] as Direction, cast: def.cast });
        }
      } else if (name === 'id') {
        keys.push({ name: 'id', expr: `${e}.id`, dir: value as Direction, cast: 'text' });
      } else if (model) {
        const k = fieldKey(model, name, value as Direction, e, locale);
        if (k) keys.push(k);
      }
    }
    const thenBy = o.thenBy as Array<OrderInput | null> | null | undefined;
    thenBy?.forEach((t, i) => t && walk(t, `${where}.thenBy[${i}]`));
  };
  if (order) walk(order, 'order');
  if (keys.length === 0 && relevance) keys.push({ name: 'system.relevance', expr: relevance, dir: 'DESC', cast: 'numeric' });
  if (keys.length === 0) keys.push({ name: 'system.publishedAt', expr: `${e}.published_at`, dir: 'DESC', cast: 'timestamptz' });
  if (!keys.some((k) => k.name === 'id')) keys.push({ name: 'id', expr: `${e}.id`, dir: 'ASC', cast: 'text' });
  return keys;
}

export const orderBySql = (keys: OrderKey[]): string => keys.map((k) => `${k.expr} ${k.dir} NULLS LAST`).join(', ');

/**
 * Rows strictly after `values` in the order of `keys` (nulls last in both directions):
 * OR over i of (keys before i equal) AND (key i after).
 */
export function keysetSql(keys: OrderKey[], values: unknown[], add: (v: unknown) => string): string {
  const param = (i: number) => `${add(values[i])}::${keys[i].cast}`;
  const eq = (i: number) => (values[i] === null ? `${keys[i].expr} IS NULL` : `${keys[i].expr} = ${param(i)}`);
  const after = (i: number): string | null => {
    if (values[i] === null) return null; // nothing sorts after null (nulls last)
    const cmp = keys[i].dir === 'ASC' ? '>' : '<';
    return `(${keys[i].expr} ${cmp} ${param(i)} OR ${keys[i].expr} IS NULL)`;
  };
  const branches: string[] = [];
  for (let i = 0; i < keys.length; i++) {
    const a = after(i);
    if (a === null) continue;
    const prefix = Array.from({ length: i }, (_, j) => eq(j));
    branches.push(prefix.length ? `(${[...prefix, a].join(' AND ')})` : a);
  }
  return branches.length ? `(${branches.join(' OR ')})` : 'FALSE';
}
