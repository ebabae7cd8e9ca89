import type { Queryable } from '../adapters/db/index.js';
import { decodeVariant, encodeVariant, type EdgeVariant } from './edge-variant.js';

// All SQL on `edge_urls`: the publicly cacheable URLs served, by surrogate key, per org.

/** Variants kept per URL, the most recently served first (pages of many origins share a URL). */
export const VARIANTS_PER_URL = 16;

/** A URL as served, with the variants of it a cache may hold. */
export interface ServedUrl {
  url: string;
  variants: EdgeVariant[];
}

/** Rows must name each (org, url) once; a URL's variants are added to those it has. */
export async function upsertEdgeUrls(db: Queryable, rows: { orgId: string; url: string; keys: readonly string[]; variants: readonly EdgeVariant[] }[]): Promise<void> {
  if (rows.length === 0) return;
  await db.query(
    `INSERT INTO edge_urls (org_id, url, keys, variants)
     SELECT r.org_id, r.url, ARRAY(SELECT jsonb_array_elements_text(r.keys)), ARRAY(SELECT jsonb_array_elements_text(r.variants))
     FROM jsonb_to_recordset($1::jsonb) AS r(org_id text, url text, keys jsonb, variants jsonb)
     ON CONFLICT (org_id, url) DO UPDATE SET keys = EXCLUDED.keys, recorded_at = now(),
       variants = ARRAY(SELECT v FROM unnest(EXCLUDED.variants || edge_urls.variants) WITH ORDINALITY AS u(v, n)
                        GROUP BY v ORDER BY min(n) LIMIT ${VARIANTS_PER_URL})`,
    [JSON.stringify(rows.map((r) => ({ org_id: r.orgId, url: r.url, keys: r.keys, variants: r.variants.map(encodeVariant) })))],
    // written by the recorder's timer, not by the request that served the URL
    { background: true },
  );
}

/** The URLs served with any of `keys`, at most `limit`, most recent first. */
export async function findEdgeUrls(db: Queryable, orgId: string, keys: readonly string[], limit: number): Promise<ServedUrl[]> {
  const { rows } = await db.query<{ url: string; variants: string[] }>(
    'SELECT url, variants FROM edge_urls WHERE org_id = $1 AND keys && $2::text[] ORDER BY recorded_at DESC LIMIT $3',
    [orgId, keys, limit],
  );
  return rows.map((r) => ({ url: r.url, variants: r.variants.map(decodeVariant).filter((v) => v !== null) }));
}

/** Forgets URLs not served for `olderThanMs`: no cache holds them any more. */
export async function deleteStaleEdgeUrls(db: Queryable, olderThanMs: number): Promise<number> {
  const r = await db.query('DELETE FROM edge_urls WHERE recorded_at < now() - make_interval(secs => $1::double precision / 1000)', [olderThanMs]);
  return r.rowCount ?? 0;
}
