import type { Queryable } from '../adapters/db/index.js';
import { newId } from '../ids.js';
import type { ComponentDefinition, FieldDefinition } from './model-types.js';

interface ComponentRow {
  id: string;
  alias: string;
  name: string;
  fields: FieldDefinition[];
  created_at: Date;
  updated_at: Date;
}

export interface StoredComponent extends ComponentDefinition {
  createdAt: Date;
  updatedAt: Date;
}

const toComponent = (r: ComponentRow): StoredComponent => ({
  id: r.id,
  alias: r.alias,
  name: r.name,
  fields: r.fields,
  createdAt: r.created_at,
  updatedAt: r.updated_at,
});

const COLUMNS = 'id, alias, name, fields, created_at, updated_at';

/** Every component of the org, ordered by alias. */
export async function listComponentRows(db: Queryable, orgId: string): Promise<StoredComponent[]> {
  const { rows } = await db.query<ComponentRow>(`SELECT ${COLUMNS} FROM components WHERE org_id = $1 ORDER BY alias`, [orgId]);
  return rows.map(toComponent);
}

export async function getComponentRow(db: Queryable, orgId: string, alias: string): Promise<StoredComponent | null> {
  const { rows } = await db.query<ComponentRow>(`SELECT ${COLUMNS} FROM components WHERE org_id = $1 AND alias = $2`, [orgId, alias]);
  return rows[0] ? toComponent(rows[0]) : null;
}

export async function upsertComponent(tx: Queryable, orgId: string, c: { alias: string; name: string; fields: FieldDefinition[] }): Promise<StoredComponent> {
  const { rows } = await tx.query<ComponentRow>(
    `INSERT INTO components (org_id, id, alias, name, fields) VALUES ($1, $2, $3, $4, $5::jsonb)
     ON CONFLICT (org_id, alias) DO UPDATE SET name = EXCLUDED.name, fields = EXCLUDED.fields, updated_at = now()
     RETURNING ${COLUMNS}`,
    [orgId, newId(), c.alias, c.name, JSON.stringify(c.fields)],
  );
  return toComponent(rows[0]);
}

export async function deleteComponentRow(tx: Queryable, orgId: string, alias: string): Promise<boolean> {
  const r = await tx.query('DELETE FROM components WHERE org_id = $1 AND alias = $2', [orgId, alias]);
  return r.rowCount > 0;
}

/** Whether any entry row (any status) of one of these models exists. */
export async function modelsHaveEntries(db: Queryable, orgId: string, aliases: string[]): Promise<boolean> {
  if (aliases.length === 0) return false;
  const { rows } = await db.query('SELECT 1 FROM entries WHERE org_id = $1 AND model_alias = ANY($2::text[]) LIMIT 1', [orgId, aliases]);
  return rows.length > 0;
}
