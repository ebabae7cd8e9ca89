import type { Queryable } from '../adapters/db/index.js';
import { badRequest } from '../errors/index.js';
import { entryColumns, type DeliveredEntryRow } from './entry-row.js';
import { visibleSql, type DeliveryScope } from './filters/filter-env.js';
import { checkFilterLimits } from './filters/filter-limits.js';
import { dateTimeFilterSql, has, type DateTimeFilter } from './filters/scalar-filters.js';
import { and, or, SqlParams } from './sql-params.js';

type Maybe<T> = T | null | undefined;

/** `CmsListEntryFilter {startAt, endAt, displayedAt, and, or}`. */
export interface ListEntryFilter {
  startAt?: Maybe<DateTimeFilter>;
  endAt?: Maybe<DateTimeFilter>;
  displayedAt?: Maybe<Date>;
  and?: Maybe<Array<ListEntryFilter | null>>;
  or?: Maybe<Array<ListEntryFilter | null>>;
}

export type ListEntryOrder = { position?: Maybe<'ASC' | 'DESC'>; startAt?: Maybe<'ASC' | 'DESC'>; endAt?: Maybe<'ASC' | 'DESC'> };

export type ListEntryItem = DeliveredEntryRow & { _parent: string; _position: number; _start_at: Date | null; _end_at: Date | null };

const ORDER_COLUMNS = { position: 'le.position', startAt: 'le.start_at', endAt: 'le.end_at' } as const;

/** `displayedAt: T` keeps entries with startAt null or ≤ T and endAt null or > T. */
export function listEntryFilterSql(f: ListEntryFilter, params: SqlParams): string {
  const parts: string[] = [];
  if (has(f.startAt)) parts.push(dateTimeFilterSql('le.start_at', f.startAt, params, 'timestamptz'));
  if (has(f.endAt)) parts.push(dateTimeFilterSql('le.end_at', f.endAt, params, 'timestamptz'));
  if (has(f.displayedAt)) {
    const t = `${params.add(f.displayedAt.toISOString())}::timestamptz`;
    parts.push(`(le.start_at IS NULL OR le.start_at <= ${t}) AND (le.end_at IS NULL OR le.end_at > ${t})`);
  }
  if (has(f.and)) parts.push(and(f.and.filter(has).map((g) => listEntryFilterSql(g, params))));
  if (has(f.or)) parts.push(or(f.or.filter(has).map((g) => listEntryFilterSql(g, params))));
  return and(parts);
}

export function listEntryOrderSql(order: Maybe<ListEntryOrder>): string {
  const keys = Object.entries(order ?? {}).filter(([, v]) => has(v)) as Array<[keyof typeof ORDER_COLUMNS, 'ASC' | 'DESC']>;
  if (keys.length > 1) throw badRequest(`order: one key per order object (got ${keys.map(([k]) => k).join(', ')}).`);
  const [key, dir] = keys[0] ?? ['position', 'ASC'];
  return `${ORDER_COLUMNS[key]} ${dir} NULLS LAST, le.position`;
}

function compile(q: { orgId: string; scope: DeliveryScope; where?: Maybe<ListEntryFilter> }, listIds: readonly string[]) {
  checkFilterLimits(q.where);
  const params = new SqlParams();
  const conds = [
    `le.org_id = ${params.add(q.orgId)}`,
    `le.list_id = ANY(${params.add(listIds)}::text[])`,
    visibleSql('e', q.scope),
  ];
  if (q.where) conds.push(listEntryFilterSql(q.where, params));
  return { params, where: conds.join(' AND ') };
}

const FROM = 'list_entries le JOIN entries e ON e.org_id = le.org_id AND e.id = le.entry_id';

/** Entry pages of many lists in one statement (only entries the scope may see). */
export async function findListEntryPages(
  db: Queryable,
  q: { orgId: string; scope: DeliveryScope; where?: Maybe<ListEntryFilter>; order?: Maybe<ListEntryOrder> },
  listIds: readonly string[],
  page: { offset: number; limit: number },
): Promise<ListEntryItem[]> {
  const orderBy = listEntryOrderSql(q.order);
  const c = compile(q, listIds);
  const { rows } = await db.query<ListEntryItem & { _rn: number }>(
    `SELECT * FROM (SELECT le.list_id AS _parent, le.position AS _position, le.start_at AS _start_at, le.end_at AS _end_at,
        row_number() OVER (PARTITION BY le.list_id ORDER BY ${orderBy}) AS _rn, ${entryColumns('e')}
      FROM ${FROM} WHERE ${c.where}) z
     WHERE _rn > ${c.params.add(page.offset)} AND _rn <= ${c.params.add(page.offset + page.limit + 1)} ORDER BY _parent, _rn`,
    c.params.values,
  );
  return rows;
}

export async function countListEntries(
  db: Queryable,
  q: { orgId: string; scope: DeliveryScope; where?: Maybe<ListEntryFilter> },
  listIds: readonly string[],
): Promise<Map<string, number>> {
  const c = compile(q, listIds);
  const { rows } = await db.query<{ pid: string; n: number }>(
    `SELECT le.list_id AS pid, count(*)::int AS n FROM ${FROM} WHERE ${c.where} GROUP BY le.list_id`,
    c.params.values,
  );
  return new Map(rows.map((r) => [r.pid, r.n]));
}
