import type { Queryable } from '../adapters/db/index.js';

/** All SQL on `edge_urls`: the publicly cacheable URLs served, by surrogate key, per org. */

export async function upsertEdgeUrls(db: Queryable, rows: { orgId: string; url: string; keys: readonly string[] }[]): Promise<void> {
  if (rows.length === 0) return;
  await db.query(
    `INSERT INTO edge_urls (org_id, url, keys)
     SELECT r.org_id, r.url, ARRAY(SELECT jsonb_array_elements_text(r.keys))
     FROM jsonb_to_recordset($1::jsonb) AS r(org_id text, url text, keys jsonb)
     ON CONFLICT (org_id, url) DO UPDATE SET keys = EXCLUDED.keys, recorded_at = now()`,
    [JSON.stringify(rows.map((r) => ({ org_id: r.orgId, url: r.url, keys: r.keys })))],
  );
}

/** The URLs served with any of `keys`, at most `limit`, most recent first. */
export async function findEdgeUrls(db: Queryable, orgId: string, keys: readonly string[], limit: number): Promise<string[]> {
  const { rows } = await db.query<{ url: string }>(
    'SELECT url FROM edge_urls WHERE org_id = $1 AND keys && $2::text[] ORDER BY recorded_at DESC LIMIT $3',
    [orgId, keys, limit],
  );
  return rows.map((r) => r.url);
}

/** Forgets URLs not served for `olderThanMs`: no cache holds them any more. */
export async function deleteStaleEdgeUrls(db: Queryable, olderThanMs: number): Promise<number> {
  const r = await db.query('DELETE FROM edge_urls WHERE recorded_at < now() - make_interval(secs => $1::double precision / 1000)', [olderThanMs]);
  return r.rowCount ?? 0;
}
