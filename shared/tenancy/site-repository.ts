import type { Queryable } from '../adapters/db/index.js';
import { conflict } from '../errors/index.js';
import { newId } from '../ids.js';
import { compilePattern, type CompiledPattern, type UrlPattern } from '../analytics/url-patterns.js';

export interface Site {
  id: string;
  name: string;
  externalId: string | null;
  createdAt: Date;
}

interface SiteRow {
  id: string;
  name: string;
  external_id: string | null;
  created_at: Date;
}
const toSite = (r: SiteRow): Site => ({ id: r.id, name: r.name, externalId: r.external_id, createdAt: r.created_at });

export async function insertSite(db: Queryable, orgId: string, input: { id?: string; name: string; externalId?: string }): Promise<Site> {
  const { rows } = await db.query<SiteRow>(
    `INSERT INTO sites (org_id, id, name, external_id) VALUES ($1, $2, $3, $4)
     ON CONFLICT (org_id, id) DO NOTHING RETURNING id, name, external_id, created_at`,
    [orgId, input.id ?? newId(), input.name, input.externalId ?? null],
  );
  if (rows.length === 0) throw conflict(`A site with id "${input.id}" already exists.`);
  return toSite(rows[0]);
}

export async function listSites(db: Queryable, orgId: string, page: { offset: number; limit: number }) {
  const [items, total] = await Promise.all([
    db.query<SiteRow>(
      'SELECT id, name, external_id, created_at FROM sites WHERE org_id = $1 ORDER BY created_at, id LIMIT $2 OFFSET $3',
      [orgId, page.limit, page.offset],
    ),
    db.query<{ n: number }>('SELECT count(*)::int AS n FROM sites WHERE org_id = $1', [orgId]),
  ]);
  return { items: items.rows.map(toSite), total: total.rows[0].n };
}

export async function findSite(db: Queryable, orgId: string, siteId: string): Promise<Site | null> {
  const { rows } = await db.query<SiteRow>(
    'SELECT id, name, external_id, created_at FROM sites WHERE org_id = $1 AND id = $2',
    [orgId, siteId],
  );
  return rows[0] ? toSite(rows[0]) : null;
}

/** A site's URL patterns and the distributions serving it (empty: every one of the organization). */
export interface SiteUrlPatterns {
  patterns: UrlPattern[];
  distributionIds: string[];
}

export async function findSiteUrlPatterns(db: Queryable, orgId: string, siteId: string): Promise<SiteUrlPatterns | null> {
  const { rows } = await db.query<{ url_patterns: UrlPattern[]; distribution_ids: string[] }>(
    'SELECT url_patterns, distribution_ids FROM sites WHERE org_id = $1 AND id = $2',
    [orgId, siteId],
  );
  return rows[0] ? { patterns: rows[0].url_patterns, distributionIds: rows[0].distribution_ids } : null;
}

/** Replaces a site's URL patterns; false when the site does not exist. */
export async function updateSiteUrlPatterns(db: Queryable, orgId: string, siteId: string, value: SiteUrlPatterns): Promise<boolean> {
  const { rowCount } = await db.query('UPDATE sites SET url_patterns = $3, distribution_ids = $4 WHERE org_id = $1 AND id = $2', [
    orgId,
    siteId,
    JSON.stringify(value.patterns),
    value.distributionIds,
  ]);
  return rowCount > 0;
}

/** The patterns of every site serving the distribution, oldest site first, each site's in its order. */
export async function findDistributionUrlPatterns(db: Queryable, orgId: string, distributionId: string): Promise<CompiledPattern[]> {
  const { rows } = await db.query<{ id: string; url_patterns: UrlPattern[] }>(
    `SELECT id, url_patterns FROM sites
     WHERE org_id = $1 AND url_patterns <> '[]'::jsonb AND (distribution_ids = '{}' OR $2 = ANY (distribution_ids))
     ORDER BY created_at, id`,
    [orgId, distributionId],
  );
  return rows.flatMap((r) => r.url_patterns.map((p) => compilePattern(r.id, p)));
}
