import type { Queryable } from '../adapters/db/index.js';

/** Serializes tree changes of one org, so two concurrent moves cannot together close a cycle. */
export async function lockSectionTree(tx: Queryable, orgId: string): Promise<void> {
  await tx.query('SELECT pg_advisory_xact_lock(hashtextextended($1, 0))', [`sections:${orgId}`]);
}

/** Ids of `sectionId` and all its ancestors (bounded, so a corrupt loop cannot spin forever). */
export async function ancestorIds(db: Queryable, orgId: string, sectionId: string): Promise<string[]> {
  const { rows } = await db.query<{ id: string }>(
    `WITH RECURSIVE up(id, parent_id, depth) AS (
       SELECT id, parent_id, 0 FROM sections WHERE org_id = $1 AND id = $2
       UNION ALL
       SELECT s.id, s.parent_id, up.depth + 1 FROM sections s JOIN up ON s.org_id = $1 AND s.id = up.parent_id
       WHERE up.depth < 1000)
     SELECT id FROM up`,
    [orgId, sectionId],
  );
  return rows.map((r) => r.id);
}

export async function hasChildSections(db: Queryable, orgId: string, sectionId: string): Promise<boolean> {
  const { rows } = await db.query('SELECT 1 FROM sections WHERE org_id = $1 AND parent_id = $2 LIMIT 1', [orgId, sectionId]);
  return rows.length > 0;
}

export async function sectionMediaIds(db: Queryable, orgId: string, sectionId: string): Promise<string[]> {
  const { rows } = await db.query<{ asset_id: string }>(
    'SELECT asset_id FROM section_media WHERE org_id = $1 AND section_id = $2 ORDER BY position',
    [orgId, sectionId],
  );
  return rows.map((r) => r.asset_id);
}

export async function replaceSectionMedia(tx: Queryable, orgId: string, sectionId: string, assetIds: string[]): Promise<void> {
  await tx.query('DELETE FROM section_media WHERE org_id = $1 AND section_id = $2', [orgId, sectionId]);
  if (assetIds.length === 0) return;
  await tx.query(
    `INSERT INTO section_media (org_id, section_id, position, asset_id)
     SELECT $1, $2, t.ord - 1, t.id FROM unnest($3::text[]) WITH ORDINALITY AS t(id, ord)`,
    [orgId, sectionId, assetIds],
  );
}
