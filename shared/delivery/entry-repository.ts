import type { Queryable } from '../adapters/db/index.js';
import { compileEntryQuery, keyColumns, keyNames, type EntryQuery } from './entry-query.js';
import { assembleFields, entryColumns, fieldTextsSql, shapeKey, type DeliveredEntryRow, type EntryShape } from './entry-row.js';
import { visibleSql, type DeliveryScope } from './filters/filter-env.js';
import { keysetSql, orderBySql, type OrderKey } from './order-sql.js';

/**
 * Statements over a query without a user filter are prepared (`prepare: true`): their text is
 * fixed per model, order and selection, and one generic plan (the order's index, or a sort)
 * serves every org, limit or parent id, so Postgres skips parsing and planning them at each
 * request. A filter's values can change the right plan (a substring search, a rare label), and
 * so can a deep offset (a sort may beat walking the index), where planning costs little next to
 * running: those statements are planned with their values.
 */
const PREPARED_OFFSET_MAX = 1000;
const preparable = (q: EntryQuery, offset = 0): { prepare: boolean } => ({
  prepare: (!q.where || Object.keys(q.where).length === 0) && !q.search && offset <= PREPARED_OFFSET_MAX,
});

/** A row plus its sort-key values (`_k0…`), from which continuation tokens are made. */
export type KeyedRow = DeliveredEntryRow & Record<`_k${number}` | `_t${number}`, unknown>;

export interface EntryPage {
  rows: KeyedRow[];
  /** Whether rows exist after this page. */
  hasMore: boolean;
  keyCount: number;
  /** The number of all matches, when the page's statement counted them (see `pageCountsMatches`). */
  total?: number;
  /** The targets of the rows' single references, when asked for (see `withReferenceTargets`). */
  refs?: DeliveredEntryRow[];
}

/**
 * Extends a statement yielding entry rows (entry columns, then `extra` columns) so that it also
 * yields the visible entries its rows' single-reference `fields` point at, flagged `_ref`, in
 * the same round trip. Own rows come first, in `orderBy` (over the extra columns) when given.
 * Both parts have the columns of `shape` (whole rows without one): it must serve both readers.
 */
function withReferenceTargets(
  sql: string,
  o: { org: string; scope: DeliveryScope; fields: readonly string[]; extra?: string[]; orderBy?: string; shape?: EntryShape | null },
): string {
  const extra = o.extra ?? [];
  return (
    `WITH p AS (${sql}) SELECT false AS _ref, p.* FROM p UNION ALL ` +
    `SELECT true AS _ref, ${entryColumns('r', o.shape ?? undefined)}${extra.map((c) => `, NULL AS ${c}`).join('')} FROM entries r ` +
    `WHERE r.org_id = ${o.org} AND ${visibleSql('r', o.scope)} AND r.id IN (${fieldTextsSql('p', o.shape, o.fields)})` +
    (o.orderBy ? ` ORDER BY _ref, ${o.orderBy}` : '')
  );
}

export const keyValues = (row: KeyedRow, count: number): unknown[] =>
  Array.from({ length: count }, (_, i) => (row[`_t${i}`] !== undefined ? row[`_t${i}`] : row[`_k${i}`]));

/** ORDER BY over the `_k…` key columns of a materialized row set. */
const orderByKeys = (keys: OrderKey[]) => keys.map((k, i) => `_k${i} ${k.dir} NULLS LAST`).join(', ');

/**
 * Whether the page's statement can also count all matches: a title search reads every match
 * before sorting them anyway (see below), so `count(*) OVER ()` costs next to nothing there and
 * saves a second search for `total`. Elsewhere the page walks an index and stops after one page.
 */
export const pageCountsMatches = (q: EntryQuery, after: unknown[] | null): boolean => !after && compileEntryQuery(q).textSearch;

/** One page of a collection: ONE statement (limit + 1 rows tell whether more exist). */
export async function findEntryPage(
  db: Queryable,
  q: EntryQuery,
  page: {
    offset: number;
    limit: number;
    after?: unknown[] | null;
    countMatches?: boolean;
    references?: readonly string[];
    /**
     * Only this part of the rows (see `entryShape`); with `references` the targets share the
     * statement's columns, so the shape must serve their readers too.
     */
    columns?: EntryShape | null;
    /**
     * Whether the rows carry their sort keys (`_k…`, `_t…`), from which a continuation token is
     * made. @default true. Without them a page of timestamps is formatted and parsed once per
     * row instead of three times.
     */
    keys?: boolean;
  },
): Promise<EntryPage> {
  const c = compileEntryQuery(q);
  const p = c.params;
  const conds = [c.where];
  if (page.after) conds.push(keysetSql(c.keys, page.after, (v) => p.add(v)));
  const references = page.references ?? [];
  const columns = page.columns ?? undefined;
  const from = `FROM entries e WHERE ${conds.join(' AND ')}`;
  const window = `LIMIT ${p.add(page.limit + 1)} OFFSET ${p.add(page.after ? 0 : page.offset)}`;
  // A substring search on the title is served by the trigram index; walking the order index
  // instead and filtering (the planner's usual pick for ORDER BY … LIMIT) reads most of the
  // org's rows when the matches are old. Materializing the matches first, then sorting, keeps
  // the cost proportional to the number of matches. Only the matches' sort keys are
  // materialized; the page's columns are read for its rows alone (building them for every match
  // made the search twice as dear in Postgres as the search itself).
  const counted = c.textSearch && !page.after && page.countMatches === true;
  // targets of references are ordered after the page's rows by the same keys
  const keys = page.keys !== false || references.length > 0;
  const extra = [...(keys ? keyNames(c.keys) : []), ...(counted ? ['_total'] : [])];
  let sql = c.textSearch
    ? `WITH m AS MATERIALIZED (SELECT e.row_id AS _row, ${keyColumns(c.keys)} ${from}), ` +
      `k AS (SELECT *${counted ? ', count(*) OVER ()::int AS _total' : ''} FROM m ORDER BY ${orderByKeys(c.keys)} ${window}) ` +
      `SELECT ${[entryColumns('e', columns), ...extra.map((x) => `k.${x}`)].join(', ')} FROM k JOIN entries e ON e.row_id = k._row ORDER BY ${orderByKeys(c.keys)}`
    : `SELECT ${[entryColumns('e', columns), ...(keys ? [keyColumns(c.keys)] : [])].join(', ')} ${from} ORDER BY ${orderBySql(c.keys)} ${window}`;
  if (references.length > 0) {
    sql = withReferenceTargets(sql, { org: c.env.org, scope: q.scope, fields: references, extra, orderBy: orderByKeys(c.keys), shape: columns });
  }
  const { rows } = await db.query<KeyedRow & { _total?: number; _ref?: boolean }>(sql, p.values, preparable(q, page.after ? 0 : page.offset));
  assembleFields(rows, columns);
  const own = references.length > 0 ? rows.filter((r) => !r._ref) : rows;
  const result: EntryPage = { rows: own.slice(0, page.limit), hasMore: own.length > page.limit, keyCount: keys ? c.keys.length : 0 };
  if (references.length > 0) result.refs = rows.filter((r) => r._ref);
  // an offset past the end returns no row to read the count from
  if (counted && own.length > 0) result.total = own[0]._total;
  return result;
}

export async function countEntries(db: Queryable, q: EntryQuery): Promise<number> {
  const c = compileEntryQuery(q);
  const { rows } = await db.query<{ n: number }>(`SELECT count(*)::int AS n FROM entries e WHERE ${c.where}`, c.params.values, preparable(q));
  return rows[0]?.n ?? 0;
}

// The by-id statements are fixed texts per scope and shape (prepared on Postgres): built once
// per shape, not per call. Shapes come from queries' selections: a bounded number is kept.
const byIdSql = (scope: DeliveryScope, shape: EntryShape | null) =>
  `SELECT ${entryColumns('e', shape ?? undefined)} FROM entries e WHERE e.org_id = $1 AND e.id = ANY($2::text[]) AND ${visibleSql('e', scope)}`;
const BY_ID_TEXTS_KEPT = 1000;
const byIdTexts = new Map<string, string>();
function byIdText(scope: DeliveryScope, shape: EntryShape | null, references: readonly string[]): string {
  const key = `${scope}|${references.join(',')}|${shapeKey(shape)}`;
  let sql = byIdTexts.get(key);
  if (sql === undefined) {
    sql = byIdSql(scope, shape);
    if (references.length > 0) sql = withReferenceTargets(sql, { org: '$1', scope, fields: references, shape });
    if (byIdTexts.size < BY_ID_TEXTS_KEPT) byIdTexts.set(key, sql);
  }
  return sql;
}

/**
 * Visible entries by id together with the visible entries their single-reference `fields` point
 * to, in ONE statement: an entry read that also selects its references costs one round trip
 * instead of two. `refs` holds the referenced rows (an id may be in both lists).
 */
export async function findEntriesWithReferences(
  db: Queryable,
  orgId: string,
  scope: DeliveryScope,
  ids: readonly string[],
  fields: readonly string[],
  shape: EntryShape | null = null,
): Promise<{ rows: DeliveredEntryRow[]; refs: DeliveredEntryRow[] }> {
  const { rows } = await db.query<DeliveredEntryRow & { _ref: boolean }>(byIdText(scope, shape, fields), [orgId, ids], { prepare: true });
  const out: { rows: DeliveredEntryRow[]; refs: DeliveredEntryRow[] } = { rows: [], refs: [] };
  for (const { _ref, ...row } of assembleFields(rows, shape)) (_ref ? out.refs : out.rows).push(row);
  return out;
}

/**
 * Visible entries by id (the DataLoader batch behind `entry(id)` and single references), whole
 * or narrowed to a shape (see `entryShape`).
 */
export async function findEntriesByIds(db: Queryable, orgId: string, scope: DeliveryScope, ids: readonly string[], shape: EntryShape | null = null): Promise<DeliveredEntryRow[]> {
  const { rows } = await db.query<DeliveredEntryRow>(byIdText(scope, shape, []), [orgId, ids], { prepare: true });
  return assembleFields(rows, shape);
}

/** Edge kinds that make an entry "reference" another (fields and rich content). */
export const REFERENCE_KINDS = ['reference', 'rich_entry'];

/**
 * Pages of entries pointing at each target (reverse relations, section references): one
 * statement for all targets, a LATERAL page per target. With `countMatches`, each page also
 * counts all of its target's matches (`EntryPage.total`, unless the page is past the end): when
 * `total` is asked for, every match is read for the count anyway, so counting them in the page's
 * own statement saves a second statement that reads them again. Their rows carry no sort keys:
 * relation pages give no continuation token.
 */
export async function findPagesByTarget(
  db: Queryable,
  q: EntryQuery,
  edge: { kinds: string[] },
  targetIds: readonly string[],
  page: { offset: number; limit: number; countMatches?: boolean; columns?: EntryShape | null },
): Promise<Map<string, EntryPage>> {
  const c = compileEntryQuery({ ...q, restrict: undefined });
  const p = c.params;
  const targets = p.add(targetIds);
  const kinds = p.add(edge.kinds);
  const sql =
    `SELECT t.pid AS _parent, x.* FROM unnest(${targets}::text[]) AS t(pid) CROSS JOIN LATERAL (` +
    `SELECT ${entryColumns('e', page.columns ?? undefined)}${page.countMatches ? ', count(*) OVER ()::int AS _total' : ''} FROM entries e WHERE ${c.where} ` +
    `AND e.row_id IN (SELECT g.row_id FROM entry_edges g WHERE g.org_id = ${c.env.org} AND g.kind = ANY(${kinds}::text[]) AND g.target_id = t.pid) ` +
    `ORDER BY ${orderBySql(c.keys)} LIMIT ${p.add(page.limit + 1)} OFFSET ${p.add(page.offset)}) AS x`;
  const { rows } = await db.query<KeyedRow & { _parent: string }>(sql, p.values, preparable(q, page.offset));
  return groupPages(assembleFields(rows, page.columns), targetIds, page.limit);
}

export async function countByTarget(db: Queryable, q: EntryQuery, edge: { kinds: string[] }, targetIds: readonly string[]): Promise<Map<string, number>> {
  const c = compileEntryQuery(q);
  const p = c.params;
  const targets = p.add(targetIds);
  const kinds = p.add(edge.kinds);
  const { rows } = await db.query<{ pid: string; n: number }>(
    `SELECT t.pid, (SELECT count(*)::int FROM entries e WHERE ${c.where} AND e.row_id IN ` +
      `(SELECT g.row_id FROM entry_edges g WHERE g.org_id = ${c.env.org} AND g.kind = ANY(${kinds}::text[]) AND g.target_id = t.pid)) AS n ` +
      `FROM unnest(${targets}::text[]) AS t(pid)`,
    p.values,
    preparable(q),
  );
  return new Map(rows.map((r) => [r.pid, r.n]));
}

/**
 * Pages of the entries each source row points at through one field (reference lists, rich
 * content), in the field's order: one statement for all sources.
 */
export async function findPagesBySource(
  db: Queryable,
  args: { orgId: string; scope: DeliveryScope; field: string; kind: string; allowedModels: string[] },
  sourceRowIds: readonly number[],
  page: { offset: number; limit: number; columns?: EntryShape | null },
): Promise<Map<number, EntryPage>> {
  const { rows } = await db.query<KeyedRow & { _parent: number; _rn: number }>(
    `SELECT * FROM (SELECT g.row_id AS _parent, row_number() OVER (PARTITION BY g.row_id ORDER BY g.position) AS _rn, ${entryColumns('e', page.columns ?? undefined)}
       FROM entry_edges g JOIN entries e ON e.org_id = g.org_id AND e.id = g.target_id AND ${visibleSql('e', args.scope)}
       WHERE g.org_id = $1 AND g.row_id = ANY($2::bigint[]) AND g.field = $3 AND g.kind = $4
         AND (cardinality($5::text[]) = 0 OR e.model_alias = ANY($5::text[]))) AS z
     WHERE _rn > $6 AND _rn <= $7 + 1 ORDER BY _parent, _rn`,
    [args.orgId, sourceRowIds, args.field, args.kind, args.allowedModels, page.offset, page.offset + page.limit],
    { prepare: page.offset <= PREPARED_OFFSET_MAX },
  );
  return groupPages(assembleFields(rows, page.columns), sourceRowIds, page.limit);
}

export async function countBySource(
  db: Queryable,
  args: { orgId: string; scope: DeliveryScope; field: string; kind: string; allowedModels: string[] },
  sourceRowIds: readonly number[],
): Promise<Map<number, number>> {
  const { rows } = await db.query<{ pid: number; n: number }>(
    `SELECT g.row_id AS pid, count(*)::int AS n FROM entry_edges g
       JOIN entries e ON e.org_id = g.org_id AND e.id = g.target_id AND ${visibleSql('e', args.scope)}
     WHERE g.org_id = $1 AND g.row_id = ANY($2::bigint[]) AND g.field = $3 AND g.kind = $4
       AND (cardinality($5::text[]) = 0 OR e.model_alias = ANY($5::text[]))
     GROUP BY g.row_id`,
    [args.orgId, sourceRowIds, args.field, args.kind, args.allowedModels],
    { prepare: true },
  );
  return new Map(rows.map((r) => [Number(r.pid), r.n]));
}

/** Rows of several pages (`_parent`, in page order) split per parent; these pages carry no token. */
function groupPages<K extends string | number>(
  rows: Array<KeyedRow & { _parent: K }>,
  parents: readonly K[],
  limit: number,
): Map<K, EntryPage> {
  const out = new Map<K, EntryPage>(parents.map((id) => [id, { rows: [], hasMore: false, keyCount: 0 }]));
  for (const r of rows as Array<KeyedRow & { _parent: K; _total?: number }>) {
    const key = (typeof parents[0] === 'number' ? Number(r._parent) : r._parent) as K;
    const pg = out.get(key);
    if (!pg) continue;
    if (pg.rows.length < limit) pg.rows.push(r);
    else pg.hasMore = true;
    if (r._total !== undefined) pg.total = r._total;
  }
  return out;
}
