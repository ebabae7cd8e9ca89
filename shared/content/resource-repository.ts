import type { Queryable } from '../adapters/db/index.js';

/**
 * Generic SQL for the org-scoped "simple" resources (sections, authors, labels, lists): one row
 * per id, a fixed set of columns. Table and column names come only from the specs below, never
 * from input.
 */
export interface ResourceSpec {
  table: 'sections' | 'authors' | 'labels' | 'lists';
  /** API member → column, for every writable column (the id excluded). */
  columns: Record<string, string>;
  hasUpdatedAt: boolean;
  /** Default list order. */
  orderBy: string;
}

export type ResourceRecord = Record<string, unknown> & { id: string };

function toRecord(spec: ResourceSpec, row: Record<string, unknown>): ResourceRecord {
  const out: ResourceRecord = { id: row.id as string };
  for (const [key, column] of Object.entries(spec.columns)) out[key] = row[column] ?? null;
  out.createdAt = row.created_at;
  if (spec.hasUpdatedAt) out.updatedAt = row.updated_at;
  return out;
}

/** Inserts; returns null when the id is taken. */
export async function insertResource(tx: Queryable, spec: ResourceSpec, orgId: string, id: string, values: Record<string, unknown>): Promise<ResourceRecord | null> {
  const keys = Object.keys(values).filter((k) => k in spec.columns);
  const columns = keys.map((k) => spec.columns[k]);
  const params = [orgId, id, ...keys.map((k) => values[k])];
  const { rows } = await tx.query<Record<string, unknown>>(
    `INSERT INTO ${spec.table} (org_id, id${columns.map((c) => `, ${c}`).join('')})
     VALUES ($1, $2${keys.map((_, i) => `, $${i + 3}`).join('')})
     ON CONFLICT (org_id, id) DO NOTHING RETURNING *`,
    params,
  );
  return rows[0] ? toRecord(spec, rows[0]) : null;
}

/** Updates the given members; returns null when the row does not exist in the org. */
export async function updateResource(tx: Queryable, spec: ResourceSpec, orgId: string, id: string, values: Record<string, unknown>): Promise<ResourceRecord | null> {
  const keys = Object.keys(values).filter((k) => k in spec.columns);
  const sets = keys.map((k, i) => `${spec.columns[k]} = $${i + 3}`);
  if (spec.hasUpdatedAt) sets.push('updated_at = now()');
  if (sets.length === 0) return getResource(tx, spec, orgId, id);
  const { rows } = await tx.query<Record<string, unknown>>(
    `UPDATE ${spec.table} SET ${sets.join(', ')} WHERE org_id = $1 AND id = $2 RETURNING *`,
    [orgId, id, ...keys.map((k) => values[k])],
  );
  return rows[0] ? toRecord(spec, rows[0]) : null;
}

export async function getResource(db: Queryable, spec: ResourceSpec, orgId: string, id: string, forUpdate = false): Promise<ResourceRecord | null> {
  const { rows } = await db.query<Record<string, unknown>>(
    `SELECT * FROM ${spec.table} WHERE org_id = $1 AND id = $2${forUpdate ? ' FOR UPDATE' : ''}`,
    [orgId, id],
  );
  return rows[0] ? toRecord(spec, rows[0]) : null;
}

export async function listResources(
  db: Queryable,
  spec: ResourceSpec,
  orgId: string,
  page: { offset: number; limit: number },
): Promise<{ items: ResourceRecord[]; total: number }> {
  const [items, total] = await Promise.all([
    db.query<Record<string, unknown>>(`SELECT * FROM ${spec.table} WHERE org_id = $1 ORDER BY ${spec.orderBy} LIMIT $2 OFFSET $3`, [orgId, page.limit, page.offset]),
    db.query<{ n: number }>(`SELECT count(*)::int AS n FROM ${spec.table} WHERE org_id = $1`, [orgId]),
  ]);
  return { items: items.rows.map((r) => toRecord(spec, r)), total: total.rows[0].n };
}

export async function deleteResource(tx: Queryable, spec: ResourceSpec, orgId: string, id: string): Promise<boolean> {
  return (await tx.query(`DELETE FROM ${spec.table} WHERE org_id = $1 AND id = $2`, [orgId, id])).rowCount > 0;
}

/** Whether a live entry version points at the target through an edge of one of `kinds`. */
export async function hasEdgesTo(db: Queryable, orgId: string, kinds: string[], targetId: string): Promise<boolean> {
  const { rows } = await db.query(
    `SELECT 1 FROM entry_edges g JOIN entries e ON e.row_id = g.row_id
     WHERE g.org_id = $1 AND g.kind = ANY($2::text[]) AND g.target_id = $3 AND e.status <> 'DELETED' LIMIT 1`,
    [orgId, kinds, targetId],
  );
  return rows.length > 0;
}
