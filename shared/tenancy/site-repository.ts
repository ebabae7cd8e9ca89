import type { Queryable } from '../adapters/db/index.js';
import { conflict } from '../errors/index.js';
import { newId } from '../ids.js';

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
