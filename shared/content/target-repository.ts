import type { Queryable } from '../adapters/db/index.js';

/**
 * Existence lookups for the ids an entry points at, one query per kind for a whole batch.
 * Every lookup is scoped by org, so another organization's id is simply "not found".
 */
export async function findEntryModels(db: Queryable, orgId: string, ids: string[]): Promise<Map<string, string>> {
  if (ids.length === 0) return new Map();
  const { rows } = await db.query<{ id: string; model_alias: string }>(
    `SELECT id, model_alias FROM entries WHERE org_id = $1 AND in_preview AND status <> 'DELETED' AND id = ANY($2::text[])`,
    [orgId, ids],
  );
  return new Map(rows.map((r) => [r.id, r.model_alias]));
}

/** What media rules look at: an asset's type and, for images, its dimensions. */
export interface AssetShape {
  type: string;
  width: number | null;
  height: number | null;
}

/** Live assets by id → type and dimensions. */
export async function findAssetShapes(db: Queryable, orgId: string, ids: string[]): Promise<Map<string, AssetShape>> {
  if (ids.length === 0) return new Map();
  const { rows } = await db.query<{ id: string } & AssetShape>(
    'SELECT id, type, width, height FROM assets WHERE org_id = $1 AND deleted_at IS NULL AND id = ANY($2::text[])',
    [orgId, ids],
  );
  return new Map(rows.map((r) => [r.id, { type: r.type, width: r.width, height: r.height }]));
}

/** Live assets by id → asset type. */
export async function findAssetTypes(db: Queryable, orgId: string, ids: string[]): Promise<Map<string, string>> {
  if (ids.length === 0) return new Map();
  const { rows } = await db.query<{ id: string; type: string }>(
    'SELECT id, type FROM assets WHERE org_id = $1 AND deleted_at IS NULL AND id = ANY($2::text[])',
    [orgId, ids],
  );
  return new Map(rows.map((r) => [r.id, r.type]));
}

const TABLES = { sections: 'sections', authors: 'authors', labels: 'labels', sites: 'sites', lists: 'lists' } as const;

/**
 * The subset of `ids` that exist in one of the org's simple id tables. With `lock`, the rows
 * found stay locked (FOR KEY SHARE) until the transaction ends: a concurrent delete, which locks
 * the row before it checks that no entry uses it, waits for this write and then sees it.
 */
export async function findExistingIds(db: Queryable, orgId: string, table: keyof typeof TABLES, ids: string[], lock = false): Promise<Set<string>> {
  if (ids.length === 0) return new Set();
  const { rows } = await db.query<{ id: string }>(`SELECT id FROM ${TABLES[table]} WHERE org_id = $1 AND id = ANY($2::text[])${lock ? ' FOR KEY SHARE' : ''}`, [
    orgId,
    ids,
  ]);
  return new Set(rows.map((r) => r.id));
}
