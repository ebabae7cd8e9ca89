/**
 * The calls of the Studio's entries list that `bench:studio` measures (its first page, paging,
 * each filter and each sort), and each one's limit: the same page written by hand in SQL.
 */

export const STUDIO_LIST_CASES: { name: string; query: string }[] = [
  { name: 'first page', query: 'pageIndex=1&pageSize=20' },
  { name: 'page 2', query: 'pageIndex=2&pageSize=20' },
  { name: 'page 100', query: 'pageIndex=100&pageSize=20' },
  { name: 'model', query: 'pageIndex=1&pageSize=20&model=page' },
  { name: 'status', query: 'pageIndex=1&pageSize=20&status=DRAFT' },
  { name: 'label (4 %)', query: 'pageIndex=1&pageSize=20&label=l1' },
  { name: 'author (1 %)', query: 'pageIndex=1&pageSize=20&author=au7' },
  { name: 'locale fr (33 %)', query: 'pageIndex=1&pageSize=20&hasLocale=fr&locale=fr' },
  { name: 'sort updated, newest first', query: 'pageIndex=1&pageSize=20&sort=updatedAt' },
  { name: 'sort created, oldest first', query: 'pageIndex=1&pageSize=20&sort=createdAt&order=asc' },
  { name: 'sort title A–Z', query: 'pageIndex=1&pageSize=20&sort=title' },
  { name: 'sort title Z–A, page 2', query: 'pageIndex=2&pageSize=20&sort=title&order=desc' },
  { name: 'sort status', query: 'pageIndex=1&pageSize=20&sort=status' },
  { name: 'model + label, sort title', query: 'pageIndex=1&pageSize=20&model=article&label=l0&sort=title' },
];

const ORDER: Record<string, string> = { updatedAt: 'e.updated_at', title: 'lower(e.title)', status: 'e.status', createdAt: '' };

/** The page and its count as plain SQL: the rows the API reads, with the version delivery reads. */
export function rawListSql(orgId: string, query: string): { page: string; count: string; params: unknown[] } {
  const q = new URLSearchParams(query);
  const params: unknown[] = [orgId];
  const where = ['e.org_id = $1', 'e.in_preview'];
  if (q.get('model')) where.push(`e.model_alias = $${params.push(q.get('model'))}`);
  if (q.get('status')) where.push(`e.status = $${params.push(q.get('status'))}`);
  if (q.get('label')) where.push(`e.labels @> ARRAY[$${params.push(q.get('label'))}::text]`);
  if (q.get('author')) where.push(`e.row_id IN (SELECT row_id FROM entry_edges WHERE org_id = $1 AND kind = 'author' AND target_id = $${params.push(q.get('author'))})`);
  if (q.get('hasLocale')) where.push(`folio_locale_codes(e.locales) @> ARRAY[$${params.push(q.get('hasLocale'))}::text]`);
  const sort = q.get('sort');
  const dir = (q.get('order') ?? (sort === 'updatedAt' || sort === 'createdAt' ? 'desc' : 'asc')) === 'desc' ? 'DESC' : 'ASC';
  const order = sort ? `${ORDER[sort] ? `${ORDER[sort]} ${dir}, ` : ''}e.seq ${dir}` : 'e.seq';
  const size = Number(q.get('pageSize') ?? 20);
  const offset = (Number(q.get('pageIndex') ?? 1) - 1) * size;
  return {
    page:
      `SELECT e.row_id, e.id, e.model_alias, e.site_id, e.status, e.title, e.slug, e.version_id, e.labels, e.fields, e.locales,
              e.created_at, e.updated_at, e.published_at, e.scheduled_at,
              CASE WHEN e.in_delivery THEN e.version_id
                   ELSE (SELECT d.version_id FROM entries d WHERE d.org_id = e.org_id AND d.id = e.id AND d.in_delivery AND NOT d.in_preview) END AS published_version_id
       FROM entries e
       WHERE ${where.join(' AND ')} ORDER BY ${order} LIMIT $${params.length + 1} OFFSET $${params.length + 2}`,
    count: `SELECT count(*)::int AS n FROM entries e WHERE ${where.join(' AND ')}`,
    params: [...params, size, offset],
  };
}
