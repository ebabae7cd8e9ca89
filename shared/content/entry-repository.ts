import type { Queryable } from '../adapters/db/index.js';
import type { Edge } from './edges.js';
import type { EntrySort } from './entry-input.js';
import {
  ENTRY_COLUMNS,
  JSON_COLUMNS,
  entryReadColumns,
  exportReadColumns,
  fromDb,
  type EntryDbRow,
  type EntryRow,
  type ExportEntryRow,
  type NewEntryRow,
} from './entry-row.js';

const iso = (d: Date | null) => (d ? d.toISOString() : null);
const json = (v: unknown) => (v === undefined || v === null ? null : JSON.stringify(v));

/** A Postgres array literal (`{"a","b"}`): arrays of arrays cannot travel through `unnest`. */
const textArrayLiteral = (items: string[]) => `{${items.map((i) => `"${i.replace(/\\/g, '\\\\').replace(/"/g, '\\"')}"`).join(',')}}`;

/** The writable columns of many rows as one array each, in the order of `COLUMN_NAMES`. */
function rowArrays(rows: NewEntryRow[]): unknown[] {
  const col = <T>(f: (r: NewEntryRow) => T) => rows.map(f);
  return [
    col((r) => r.id),
    col((r) => r.inPreview),
    col((r) => r.inDelivery),
    col((r) => r.modelAlias),
    col((r) => r.modelId),
    col((r) => r.siteId),
    col((r) => r.status),
    col((r) => r.title),
    col((r) => r.slug),
    col((r) => r.externalId),
    col((r) => r.clonedFrom),
    col((r) => r.versionId),
    col((r) => textArrayLiteral(r.labels)),
    col((r) => json(r.attrs)),
    col((r) => JSON.stringify(r.fields)),
    col((r) => json(r.locales)),
    col((r) => r.localeTitles),
    col((r) => json(r.metrics)),
    col((r) => iso(r.publishedAt)),
    col((r) => iso(r.firstPublishedAt)),
    col((r) => iso(r.unpublishedAt)),
    col((r) => iso(r.scheduledAt)),
    col((r) => iso(r.unpublishAt)),
    col((r) => r.createdAt.toISOString()),
    col((r) => r.updatedAt.toISOString()),
    col((r) => (r.seq === undefined ? null : String(r.seq))),
  ];
}

const COLUMN_TYPES = ['text', 'bool', 'bool', ...Array<string>(23).fill('text')];
const COLUMN_NAMES = 'id, p, d, ma, mi, si, st, ti, sl, ex, cl, v, lb, at, fi, lo, lt, me, pa, fp, ua, sa, un, ca, ud, sq';

/** `rowArrays` as a relation `t`, its parameters numbered from `first`; `rowIds` adds `t.r` first. */
function rowRelation(first: number, rowIds = false): string {
  const types = rowIds ? ['bigint', ...COLUMN_TYPES] : COLUMN_TYPES;
  return `unnest(${types.map((t, i) => `$${first + i}::${t}[]`).join(', ')}) AS t(${rowIds ? 'r, ' : ''}${COLUMN_NAMES})`;
}

/**
 * Inserts entry rows with ONE statement whatever their number (arrays through `unnest`), so a
 * bulk import costs a few statements per thousand entries. Returns the row id and listing number of each entry id.
 */
export async function insertEntryRows(tx: Queryable, orgId: string, rows: NewEntryRow[]): Promise<Map<string, { rowId: number; seq: number }>> {
  if (rows.length === 0) return new Map();
  const { rows: out } = await tx.query<{ row_id: number; id: string; seq: string | number }>(
    `INSERT INTO entries (org_id, id, in_preview, in_delivery, model_alias, model_id, site_id, status, title, slug,
        external_id, cloned_from, version_id, labels, attrs, fields, locales, locale_titles, metrics, published_at, first_published_at,
        unpublished_at, scheduled_at, unpublish_at, created_at, updated_at, seq)
     SELECT $1, t.id, t.p, t.d, t.ma, t.mi, t.si, t.st, t.ti, t.sl, t.ex, t.cl, t.v,
        t.lb::text[], t.at::jsonb, t.fi::jsonb, t.lo::jsonb, t.lt, t.me::jsonb,
        t.pa::timestamptz, t.fp::timestamptz, t.ua::timestamptz, t.sa::timestamptz, t.un::timestamptz, t.ca::timestamptz, t.ud::timestamptz,
        COALESCE(t.sq::bigint, nextval('entries_seq'))
     FROM ${rowRelation(2)}
     RETURNING row_id, id, seq`,
    [orgId, ...rowArrays(rows)],
  );
  return new Map(out.map((r) => [r.id, { rowId: Number(r.row_id), seq: Number(r.seq) }]));
}

/** Rewrites every writable column of existing rows (by row id) with ONE statement. */
export async function updateEntryRows(tx: Queryable, rows: EntryRow[]): Promise<void> {
  if (rows.length === 0) return;
  await tx.query(
    `UPDATE entries e SET id = t.id, in_preview = t.p, in_delivery = t.d, model_alias = t.ma, model_id = t.mi,
        site_id = t.si, status = t.st, title = t.ti, slug = t.sl, external_id = t.ex, cloned_from = t.cl,
        version_id = t.v, labels = t.lb::text[], attrs = t.at::jsonb, fields = t.fi::jsonb, locales = t.lo::jsonb, locale_titles = t.lt, metrics = t.me::jsonb,
        published_at = t.pa::timestamptz, first_published_at = t.fp::timestamptz, unpublished_at = t.ua::timestamptz,
        scheduled_at = t.sa::timestamptz, unpublish_at = t.un::timestamptz, created_at = t.ca::timestamptz, updated_at = t.ud::timestamptz
     FROM ${rowRelation(1, true)}
     WHERE e.row_id = t.r`,
    [rows.map((r) => r.rowId), ...rowArrays(rows)],
  );
}

export interface EdgeRow extends Edge {
  rowId: number;
  sourceId: string;
}

/** Inserts the edges of many entry rows with one statement. */
export async function insertEdges(tx: Queryable, orgId: string, edges: EdgeRow[]): Promise<void> {
  if (edges.length === 0) return;
  await tx.query(
    `INSERT INTO entry_edges (row_id, org_id, source_id, field, kind, target_id, position)
     SELECT t.r, $1, t.s, t.f, t.k, t.t, t.p
     FROM unnest($2::bigint[], $3::text[], $4::text[], $5::text[], $6::text[], $7::int[]) AS t(r, s, f, k, t, p)`,
    [
      orgId,
      edges.map((e) => e.rowId),
      edges.map((e) => e.sourceId),
      edges.map((e) => e.field),
      edges.map((e) => e.kind),
      edges.map((e) => e.targetId),
      edges.map((e) => e.position),
    ],
  );
}

/** Drops the edges of the given rows (their content is about to be rewritten). */
export async function deleteEdgesOf(tx: Queryable, rowIds: number[]): Promise<void> {
  if (rowIds.length > 0) await tx.query('DELETE FROM entry_edges WHERE row_id = ANY($1::bigint[])', [rowIds]);
}

/** Updates the given columns of one row. */
export async function updateEntryRow(tx: Queryable, rowId: number, patch: Partial<NewEntryRow>): Promise<EntryRow> {
  const sets: string[] = [];
  const params: unknown[] = [rowId];
  for (const [key, value] of Object.entries(patch) as [keyof NewEntryRow, unknown][]) {
    const column = ENTRY_COLUMNS[key];
    params.push(JSON_COLUMNS.has(column) ? json(value) : value);
    sets.push(`${column} = $${params.length}${JSON_COLUMNS.has(column) ? '::jsonb' : ''}`);
  }
  const { rows } = await tx.query<EntryDbRow>(`UPDATE entries SET ${sets.join(', ')} WHERE row_id = $1 RETURNING *`, params);
  return fromDb(rows[0]);
}

/** Deletes rows (their edges go with them). */
export async function deleteEntryRows(tx: Queryable, rowIds: number[]): Promise<void> {
  if (rowIds.length > 0) await tx.query('DELETE FROM entries WHERE row_id = ANY($1::bigint[])', [rowIds]);
}

/**
 * Serializes writers of these entries for the rest of the transaction. Row locks alone are not
 * enough: a writer that waited on a row another writer split (EDITED) would not see the new
 * preview row in its statement's snapshot. Taken first, these locks let the next statement read
 * every committed row. Taken in one order (sorted ids), so two batches never wait on each other
 * in a circle.
 */
export async function lockEntryKeys(tx: Queryable, orgId: string, ids: string[]): Promise<void> {
  if (ids.length === 0) return;
  const keys = [...new Set(ids)].sort().map((id) => `entry:${orgId}:${id}`);
  await tx.query('SELECT pg_advisory_xact_lock(hashtextextended(k, 0)) FROM unnest($1::text[]) AS k', [keys]);
}

/** The rows of one entry: its preview row and, when live, its delivery row (possibly the same). */
export interface StoredEntryRows {
  preview: EntryRow | null;
  delivery: EntryRow | null;
}

export async function findEntryRows(db: Queryable, orgId: string, id: string, options: { forUpdate?: boolean } = {}): Promise<StoredEntryRows> {
  return (await findEntryRowsOf(db, orgId, [id], options)).get(id) ?? { preview: null, delivery: null };
}

/** `findEntryRows` for many entries with one statement; entries without rows are left out. */
export async function findEntryRowsOf(db: Queryable, orgId: string, ids: string[], options: { forUpdate?: boolean } = {}): Promise<Map<string, StoredEntryRows>> {
  const out = new Map<string, StoredEntryRows>();
  if (ids.length === 0) return out;
  const { rows } = await db.query<EntryDbRow>(
    `SELECT ${entryReadColumns()} FROM entries WHERE org_id = $1 AND id = ANY($2::text[]) AND (in_preview OR in_delivery)${options.forUpdate ? ' FOR UPDATE' : ''}`,
    [orgId, ids],
  );
  for (const row of rows.map(fromDb)) {
    const rows = out.get(row.id) ?? { preview: null, delivery: null };
    if (row.inPreview) rows.preview = row;
    if (row.inDelivery) rows.delivery = row;
    out.set(row.id, rows);
  }
  return out;
}

/** Ids (with their org) of published entries whose scheduled unpublish has come, oldest first. */
export async function findDueUnpublish(db: Queryable, now: Date, limit: number): Promise<{ orgId: string; id: string }[]> {
  const { rows } = await db.query<{ org_id: string; id: string }>(
    'SELECT org_id, id FROM entries WHERE in_preview AND unpublish_at <= $1 ORDER BY unpublish_at LIMIT $2',
    [now.toISOString(), limit],
  );
  return rows.map((r) => ({ orgId: r.org_id, id: r.id }));
}

/** Ids (with their org) of scheduled entries whose time has come, oldest first. */
export async function findDueScheduled(db: Queryable, now: Date, limit: number): Promise<{ orgId: string; id: string }[]> {
  const { rows } = await db.query<{ org_id: string; id: string }>(
    `SELECT org_id, id FROM entries WHERE status = 'SCHEDULED' AND in_preview AND scheduled_at <= $1
     ORDER BY scheduled_at LIMIT $2`,
    [now.toISOString(), limit],
  );
  return rows.map((r) => ({ orgId: r.org_id, id: r.id }));
}

/**
 * Has Postgres sample `entries` and `entry_edges` again, as its documentation advises after a bulk
 * load: until autovacuum gets to them (a minute or more), the planner still sees the tables as
 * they were before, and the next writes to the same entries — a re-run of the same file — are
 * planned for tables a fraction of their size. ANALYZE blocks no reads or writes.
 */
export async function refreshEntryStatistics(db: Queryable): Promise<void> {
  await db.query('ANALYZE entries, entry_edges');
}

/** The subset of `ids` that already exist as entries of the org (any status). */
export async function findExistingEntryIds(db: Queryable, orgId: string, ids: string[]): Promise<Set<string>> {
  if (ids.length === 0) return new Set();
  const { rows } = await db.query<{ id: string }>('SELECT id FROM entries WHERE org_id = $1 AND in_preview AND id = ANY($2::text[])', [orgId, ids]);
  return new Set(rows.map((r) => r.id));
}

export interface EntryListFilter {
  model?: string;
  status?: string;
  updatedSince?: Date;
  /** Full-text search: `locale` is the `entry_search` locale ('' the default's), `config` the code whose language stems the words. */
  search?: { text: string; locale: string; config: string | null };
  /** Entries with values in this non-default locale. */
  hasLocale?: string;
  label?: string;
  /** An author id named by an author field. */
  author?: string;
  /** An asset id used by a media field or a media block. */
  asset?: string;
  sort?: { by: EntrySort; descending: boolean };
}

/**
 * The columns of each order, the listing number last so pages never overlap: every one has an
 * index `(org_id, <column>, seq) WHERE in_preview` (0610), so a page reads its rows in order
 * instead of sorting the organization's entries. Creation order is the listing number itself.
 */
const SORT_COLUMNS: Record<EntrySort, string> = {
  updatedAt: 'e.updated_at',
  createdAt: '',
  title: 'lower(e.title)',
  status: 'e.status',
};

function orderOf(sort: { by: EntrySort; descending: boolean }): string {
  const dir = sort.descending ? 'DESC' : 'ASC';
  const column = SORT_COLUMNS[sort.by];
  // Postgres' own NULL placement (untitled entries last A–Z, first Z–A) is the one the index can read backwards
  return column ? `${column} ${dir}, e.seq ${dir}` : `e.seq ${dir}`;
}

/**
 * A page of the org's entries (their preview rows) in listing order — the number each entry took
 * at its creation — with the version delivery reads; and how many match.
 */
export async function listEntryRows(db: Queryable, orgId: string, filter: EntryListFilter, page: { offset: number; limit: number }) {
  const params: unknown[] = [orgId];
  const where = ['e.org_id = $1', 'e.in_preview'];
  if (filter.model !== undefined) where.push(`e.model_alias = $${params.push(filter.model)}`);
  if (filter.status !== undefined) where.push(`e.status = $${params.push(filter.status)}`);
  if (filter.updatedSince !== undefined) where.push(`e.updated_at >= $${params.push(filter.updatedSince.toISOString())}`);
  // both as their GIN indexes (0610) read them
  if (filter.hasLocale !== undefined) where.push(`folio_locale_codes(e.locales) @> ARRAY[$${params.push(filter.hasLocale)}::text]`);
  if (filter.label !== undefined) where.push(`e.labels @> ARRAY[$${params.push(filter.label)}::text]`);
  // the edges of the preview rows, found from the target (entry_edges_target): one entry per row
  if (filter.author !== undefined) {
    where.push(`e.row_id IN (SELECT g.row_id FROM entry_edges g WHERE g.org_id = $1 AND g.kind = 'author' AND g.target_id = $${params.push(filter.author)})`);
  }
  if (filter.asset !== undefined) {
    where.push(`e.row_id IN (SELECT g.row_id FROM entry_edges g WHERE g.org_id = $1 AND g.kind IN ('media', 'rich_media') AND g.target_id = $${params.push(filter.asset)})`);
  }
  let order = 'e.seq';
  if (filter.search) {
    // the same condition and rank as a GraphQL collection's search (see delivery/search-sql.ts)
    const query = `websearch_to_tsquery((SELECT folio_ts_config($${params.push(filter.search.config)}::text)), $${params.push(filter.search.text)}::text)`;
    const locale = `$${params.push(filter.search.locale)}`;
    where.push(`EXISTS (SELECT 1 FROM entry_search s WHERE s.row_id = e.row_id AND s.locale = ${locale} AND s.vector @@ ${query})`);
    order = `(SELECT ts_rank(s.vector, ${query}) FROM entry_search s WHERE s.row_id = e.row_id AND s.locale = ${locale}) DESC, e.seq`;
  }
  if (filter.sort) order = orderOf(filter.sort);
  const [items, total] = await Promise.all([
    db.query<EntryDbRow & { published_version_id: string | null }>(
      // The delivery row of an edited entry is read per listed row, after the LIMIT: as a LEFT
      // JOIN, the planner, expecting few such rows, scanned the whole table once for every page
      // (60 ms of a 60 ms first page on 100,000 entries, EXPLAIN in bench:studio's commit).
      `SELECT ${entryReadColumns('e')},
              CASE WHEN e.in_delivery THEN e.version_id
                   ELSE (SELECT d.version_id FROM entries d WHERE d.org_id = e.org_id AND d.id = e.id AND d.in_delivery AND NOT d.in_preview) END AS published_version_id
       FROM entries e
       WHERE ${where.join(' AND ')} ORDER BY ${order} LIMIT $${params.length + 1} OFFSET $${params.length + 2}`,
      [...params, page.limit, page.offset],
    ),
    db.query<{ n: number }>(`SELECT count(*)::int AS n FROM entries e WHERE ${where.join(' AND ')}`, params),
  ]);
  return { items: items.rows.map((r) => ({ row: fromDb(r), publishedVersionId: r.published_version_id })), total: total.rows[0].n };
}

/**
 * The org's live entries after listing number `afterSeq`, up to `limit` of them in listing order:
 * each with its preview row, the row delivery reads when that is another one, and the entries
 * either row references (reference fields and rich-content blocks). For reading everything a
 * page at a time (export), which passes the JSON values on as they are: they stay the text
 * Postgres sent (parsing and writing them again was a third of an export's time).
 */
export async function entriesAfter(
  db: Queryable,
  orgId: string,
  afterSeq: number,
  limit: number,
): Promise<{ seq: number; preview: ExportEntryRow; delivery: ExportEntryRow | null; references: string[] }[]> {
  const { rows } = await db.query<ExportEntryRow>(
    `WITH page AS (
       SELECT ${exportReadColumns('e')} FROM entries e WHERE e.org_id = $1 AND e.in_preview AND e.status <> 'DELETED' AND e.seq > $2 ORDER BY e.seq LIMIT $3)
     SELECT * FROM page UNION ALL
     SELECT ${exportReadColumns('d')} FROM entries d JOIN page p ON d.org_id = $1 AND d.id = p.id AND d.in_delivery AND NOT d.in_preview`,
    [orgId, afterSeq, limit],
  );
  const edges = await db.query<{ row_id: number; target_id: string }>(
    `SELECT row_id, target_id FROM entry_edges WHERE row_id = ANY($1::bigint[]) AND kind IN ('reference', 'rich_entry')`,
    [rows.map((r) => r.rowId)],
  );
  const targetsOf = new Map<number, string[]>();
  for (const g of edges.rows) targetsOf.set(g.row_id, [...(targetsOf.get(g.row_id) ?? []), g.target_id]);
  const out = new Map<string, { seq: number; preview: ExportEntryRow; delivery: ExportEntryRow | null; references: Set<string> }>();
  for (const row of rows.sort((a, b) => a.seq - b.seq)) {
    const entry = out.get(row.id) ?? { seq: row.seq, preview: row, delivery: null, references: new Set<string>() };
    if (row.inPreview) entry.preview = row;
    if (row.inDelivery) entry.delivery = row;
    for (const target of targetsOf.get(row.rowId) ?? []) entry.references.add(target);
    out.set(row.id, entry);
  }
  return [...out.values()].map((e) => ({ ...e, references: [...e.references] }));
}

/** Model alias and title of the org's entries among `ids` (their current version), for reports. */
export async function findEntryLabels(db: Queryable, orgId: string, ids: string[]): Promise<Map<string, { model: string; title: string | null }>> {
  if (ids.length === 0) return new Map();
  const { rows } = await db.query<{ id: string; model_alias: string; title: string | null }>(
    'SELECT id, model_alias, title FROM entries WHERE org_id = $1 AND in_preview AND id = ANY($2::text[])',
    [orgId, ids],
  );
  return new Map(rows.map((r) => [r.id, { model: r.model_alias, title: r.title }]));
}
