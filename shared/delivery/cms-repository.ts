import type { Queryable } from '../adapters/db/index.js';
import type { AssetRow, AuthorRow, LabelRow, ListRow, SectionRow } from './cms-rows.js';
import { checkFilterLimits } from './filters/filter-limits.js';
import { tableFilterSql, type TableFilterSpec } from './filters/table-filter.js';
import { SqlParams } from './sql-params.js';

/**
 * Read side of the built-in resources: by-id batches (DataLoaders), filtered pages and counts
 * for the `cms…Collection` roots, and batched child collections (one statement per batch).
 */
export type CmsTable = 'sections' | 'authors' | 'labels' | 'lists';

export const CMS_COLUMNS: Record<CmsTable, string> = {
  sections: 'id, parent_id, title, slug, url, site_id, external_id, description',
  authors:
    'id, user_id, byline, external_id, first_name, last_name, url, image_id, biography, profession, email, website, facebook, instagram, twitter, linkedin, tiktok, telegram',
  labels: 'id, name, description, color, site_id, external_id',
  lists: 'id, name, description, site_id, external_id',
};

const ORDER: Record<CmsTable, string> = {
  sections: 'position NULLS LAST, title NULLS LAST, id',
  authors: 'byline NULLS LAST, id',
  labels: 'name, id',
  lists: 'name, id',
};

export const CMS_FILTERS: Record<CmsTable | 'assets', TableFilterSpec> = {
  sections: {
    id: { column: 'id', kind: 'id' },
    parentId: { column: 'parent_id', kind: 'id' },
    title: { column: 'title', kind: 'string' },
    slug: { column: 'slug', kind: 'string' },
    siteId: { column: 'site_id', kind: 'id' },
    externalId: { column: 'external_id', kind: 'string' },
  },
  authors: {
    id: { column: 'id', kind: 'id' },
    byline: { column: 'byline', kind: 'string' },
    firstName: { column: 'first_name', kind: 'string' },
    lastName: { column: 'last_name', kind: 'string' },
    email: { column: 'email', kind: 'string' },
    externalId: { column: 'external_id', kind: 'string' },
  },
  labels: {
    id: { column: 'id', kind: 'id' },
    name: { column: 'name', kind: 'string' },
    siteId: { column: 'site_id', kind: 'id' },
  },
  lists: {
    id: { column: 'id', kind: 'id' },
    name: { column: 'name', kind: 'string' },
    siteId: { column: 'site_id', kind: 'id' },
    externalId: { column: 'external_id', kind: 'string' },
  },
  assets: {
    id: { column: 'id', kind: 'id' },
    title: { column: 'title', kind: 'string' },
    fileName: { column: 'file_name', kind: 'string' },
    contentType: { column: 'content_type', kind: 'string' },
    type: { column: 'type', kind: 'id' },
    externalId: { column: 'external_id', kind: 'string' },
  },
};

type Where = Record<string, unknown> | null | undefined;

export async function findCmsByIds<T>(db: Queryable, table: CmsTable, orgId: string, ids: readonly string[]): Promise<T[]> {
  const { rows } = await db.query<T>(`SELECT ${CMS_COLUMNS[table]} FROM ${table} WHERE org_id = $1 AND id = ANY($2::text[])`, [orgId, ids]);
  return rows;
}

function whereOf(table: CmsTable | 'assets', orgId: string, where: Where, alias: string) {
  checkFilterLimits(where);
  const params = new SqlParams();
  const conds = [`${alias}.org_id = ${params.add(orgId)}`];
  if (table === 'assets') conds.push(`${alias}.deleted_at IS NULL`);
  if (where) conds.push(tableFilterSql(CMS_FILTERS[table], where, alias, params));
  return { params, sql: conds.join(' AND ') };
}

export async function findCmsPage<T>(
  db: Queryable,
  table: CmsTable,
  orgId: string,
  page: { offset: number; limit: number; where?: Where },
): Promise<{ rows: T[]; hasMore: boolean }> {
  const w = whereOf(table, orgId, page.where, 'c');
  const { rows } = await db.query<T>(
    `SELECT ${CMS_COLUMNS[table]} FROM ${table} c WHERE ${w.sql} ORDER BY ${ORDER[table]} LIMIT ${w.params.add(page.limit + 1)} OFFSET ${w.params.add(page.offset)}`,
    w.params.values,
  );
  return { rows: rows.slice(0, page.limit), hasMore: rows.length > page.limit };
}

export async function countCms(db: Queryable, table: CmsTable | 'assets', orgId: string, where: Where): Promise<number> {
  const w = whereOf(table, orgId, where, 'c');
  const { rows } = await db.query<{ n: number }>(`SELECT count(*)::int AS n FROM ${table} c WHERE ${w.sql}`, w.params.values);
  return rows[0]?.n ?? 0;
}

// --- assets -------------------------------------------------------------------------------

export async function findAssetsByIds(db: Queryable, orgId: string, ids: readonly string[]): Promise<AssetRow[]> {
  const { rows } = await db.query<{ j: AssetRow }>(
    `SELECT to_jsonb(a) AS j FROM assets a WHERE a.org_id = $1 AND a.id = ANY($2::text[]) AND a.deleted_at IS NULL`,
    [orgId, ids],
  );
  return rows.map((r) => r.j);
}

export async function findAssetPage(
  db: Queryable,
  orgId: string,
  page: { offset: number; limit: number; where?: Where },
): Promise<{ rows: AssetRow[]; hasMore: boolean }> {
  const w = whereOf('assets', orgId, page.where, 'c');
  const { rows } = await db.query<{ j: AssetRow }>(
    `SELECT to_jsonb(c) AS j FROM assets c WHERE ${w.sql} ORDER BY c.created_at DESC, c.id LIMIT ${w.params.add(page.limit + 1)} OFFSET ${w.params.add(page.offset)}`,
    w.params.values,
  );
  return { rows: rows.slice(0, page.limit).map((r) => r.j), hasMore: rows.length > page.limit };
}

// --- sections -----------------------------------------------------------------------------

/** Children pages of many sections in one statement. */
export async function findChildSections(
  db: Queryable,
  orgId: string,
  parentIds: readonly string[],
  page: { offset: number; limit: number },
): Promise<Array<SectionRow & { _parent: string }>> {
  const { rows } = await db.query<SectionRow & { _parent: string; _rn: number }>(
    `SELECT * FROM (SELECT parent_id AS _parent, row_number() OVER (PARTITION BY parent_id ORDER BY ${ORDER.sections}) AS _rn, ${CMS_COLUMNS.sections}
       FROM sections WHERE org_id = $1 AND parent_id = ANY($2::text[])) z
     WHERE _rn > $3 AND _rn <= $4 + 1 ORDER BY _parent, _rn`,
    [orgId, parentIds, page.offset, page.offset + page.limit],
  );
  return rows;
}

export async function countChildSections(db: Queryable, orgId: string, parentIds: readonly string[]): Promise<Map<string, number>> {
  const { rows } = await db.query<{ pid: string; n: number }>(
    `SELECT parent_id AS pid, count(*)::int AS n FROM sections WHERE org_id = $1 AND parent_id = ANY($2::text[]) GROUP BY parent_id`,
    [orgId, parentIds],
  );
  return new Map(rows.map((r) => [r.pid, r.n]));
}

/** Ancestors of each section, root first, the section itself last (cycles stop at depth 64). */
export async function findSectionPaths(db: Queryable, orgId: string, ids: readonly string[]): Promise<Map<string, SectionRow[]>> {
  const { rows } = await db.query<SectionRow & { _start: string; _depth: number }>(
    `WITH RECURSIVE up AS (
       SELECT s.id AS _start, 0 AS _depth, s.* FROM sections s WHERE s.org_id = $1 AND s.id = ANY($2::text[])
       UNION ALL
       SELECT up._start, up._depth + 1, p.* FROM up JOIN sections p ON p.org_id = $1 AND p.id = up.parent_id WHERE up._depth < 64)
     SELECT _start, _depth, ${CMS_COLUMNS.sections} FROM up ORDER BY _start, _depth DESC`,
    [orgId, ids],
  );
  const out = new Map<string, SectionRow[]>();
  for (const r of rows) {
    const list = out.get(r._start) ?? [];
    list.push(r);
    out.set(r._start, list);
  }
  return out;
}

/** Media pages of many sections in one statement, in position order. */
export async function findSectionMedia(
  db: Queryable,
  orgId: string,
  sectionIds: readonly string[],
  page: { offset: number; limit: number },
): Promise<Array<{ _parent: string; j: AssetRow }>> {
  const { rows } = await db.query<{ _parent: string; j: AssetRow }>(
    `SELECT _parent, j FROM (SELECT m.section_id AS _parent, row_number() OVER (PARTITION BY m.section_id ORDER BY m.position) AS _rn, to_jsonb(a) AS j
       FROM section_media m JOIN assets a ON a.org_id = m.org_id AND a.id = m.asset_id AND a.deleted_at IS NULL
       WHERE m.org_id = $1 AND m.section_id = ANY($2::text[])) z
     WHERE _rn > $3 AND _rn <= $4 + 1 ORDER BY _parent, _rn`,
    [orgId, sectionIds, page.offset, page.offset + page.limit],
  );
  return rows;
}

export async function countSectionMedia(db: Queryable, orgId: string, sectionIds: readonly string[]): Promise<Map<string, number>> {
  const { rows } = await db.query<{ pid: string; n: number }>(
    `SELECT m.section_id AS pid, count(*)::int AS n FROM section_media m JOIN assets a ON a.org_id = m.org_id AND a.id = m.asset_id AND a.deleted_at IS NULL
     WHERE m.org_id = $1 AND m.section_id = ANY($2::text[]) GROUP BY m.section_id`,
    [orgId, sectionIds],
  );
  return new Map(rows.map((r) => [r.pid, r.n]));
}

// --- rich media / media lists ---------------------------------------------------------------

/** Assets each source row points at through one field and edge kind, in field order. */
export async function findEdgeAssets(
  db: Queryable,
  args: { orgId: string; field: string; kind: string },
  rowIds: readonly number[],
  page: { offset: number; limit: number },
): Promise<Array<{ _parent: number; j: AssetRow }>> {
  const { rows } = await db.query<{ _parent: number; j: AssetRow }>(
    `SELECT _parent, j FROM (SELECT g.row_id AS _parent, row_number() OVER (PARTITION BY g.row_id ORDER BY g.position) AS _rn, to_jsonb(a) AS j
       FROM entry_edges g JOIN assets a ON a.org_id = g.org_id AND a.id = g.target_id AND a.deleted_at IS NULL
       WHERE g.org_id = $1 AND g.row_id = ANY($2::bigint[]) AND g.field = $3 AND g.kind = $4) z
     WHERE _rn > $5 AND _rn <= $6 + 1 ORDER BY _parent, _rn`,
    [args.orgId, rowIds, args.field, args.kind, page.offset, page.offset + page.limit],
  );
  return rows.map((r) => ({ _parent: Number(r._parent), j: r.j }));
}

export async function countEdgeAssets(db: Queryable, args: { orgId: string; field: string; kind: string }, rowIds: readonly number[]): Promise<Map<number, number>> {
  const { rows } = await db.query<{ pid: number; n: number }>(
    `SELECT g.row_id AS pid, count(*)::int AS n FROM entry_edges g JOIN assets a ON a.org_id = g.org_id AND a.id = g.target_id AND a.deleted_at IS NULL
     WHERE g.org_id = $1 AND g.row_id = ANY($2::bigint[]) AND g.field = $3 AND g.kind = $4 GROUP BY g.row_id`,
    [args.orgId, rowIds, args.field, args.kind],
  );
  return new Map(rows.map((r) => [Number(r.pid), r.n]));
}

export async function findImagePresets(db: Queryable, orgId: string): Promise<Array<{ name: string; options: Record<string, unknown> }>> {
  const { rows } = await db.query<{ name: string; options: Record<string, unknown> }>(
    'SELECT name, options FROM image_presets WHERE org_id = $1',
    [orgId],
  );
  return rows;
}

export type { AssetRow, AuthorRow, LabelRow, ListRow, SectionRow };
