import type { Queryable } from '../adapters/db/index.js';
import { newId } from '../ids.js';
import type { ComponentDefinition, FieldDefinition, ModelDefinition } from './model-types.js';

interface ModelRow {
  id: string;
  alias: string;
  name: string;
  title_field: string | null;
  fields: FieldDefinition[];
  components: Record<string, ComponentDefinition> | null;
  preview_url: string | null;
  created_at: Date;
  updated_at: Date;
}

export interface StoredModel extends ModelDefinition {
  createdAt: Date;
  updatedAt: Date;
}

const toModel = (r: ModelRow): StoredModel => ({
  id: r.id,
  alias: r.alias,
  name: r.name,
  titleField: r.title_field,
  fields: r.fields,
  ...(r.components ? { components: r.components } : {}),
  previewUrl: r.preview_url,
  createdAt: r.created_at,
  updatedAt: r.updated_at,
});

/**
 * The org's components, read with a model only when it has a component field (jsonb containment:
 * one of its fields is `{"type": "component", …}`), so models without any pay nothing.
 */
const COMPONENTS = `CASE WHEN models.fields @> '[{"type": "component"}]' THEN (
    SELECT coalesce(jsonb_object_agg(c.alias, jsonb_build_object('id', c.id, 'alias', c.alias, 'name', c.name, 'fields', c.fields)), '{}'::jsonb)
    FROM components c WHERE c.org_id = models.org_id) END AS components`;

const COLUMNS = `id, alias, name, title_field, fields, ${COMPONENTS}, preview_url, created_at, updated_at`;

/** A stored model as its API answer shows it: without the components attached for reading. */
export function modelAnswer<T extends ModelDefinition>(model: T): Omit<T, 'components'> {
  const { components: _attached, ...answer } = model;
  return answer;
}

/** Every model of the org, ordered by alias (schema generation reads this). */
export async function listModels(db: Queryable, orgId: string): Promise<StoredModel[]> {
  const { rows } = await db.query<ModelRow>(`SELECT ${COLUMNS} FROM models WHERE org_id = $1 ORDER BY alias`, [orgId]);
  return rows.map(toModel);
}

/**
 * One model. `lock: 'share'` (entry writes) keeps the model from being replaced or deleted until
 * the transaction ends, so an entry is never written against a model that is going away;
 * `lock: 'update'` (model writes) waits for those entry writes to finish first.
 */
export async function getModel(db: Queryable, orgId: string, alias: string, options: { lock?: 'share' | 'update' } = {}): Promise<StoredModel | null> {
  const lock = options.lock === 'share' ? ' FOR SHARE' : options.lock === 'update' ? ' FOR UPDATE' : '';
  const { rows } = await db.query<ModelRow>(
    `SELECT ${COLUMNS} FROM models WHERE org_id = $1 AND alias = $2${lock}`,
    [orgId, alias],
  );
  return rows[0] ? toModel(rows[0]) : null;
}

export async function upsertModel(
  tx: Queryable,
  orgId: string,
  model: { alias: string; name: string; titleField: string | null; fields: FieldDefinition[]; previewUrl: string | null },
): Promise<StoredModel> {
  const { rows } = await tx.query<ModelRow>(
    `INSERT INTO models (org_id, id, alias, name, title_field, fields, preview_url) VALUES ($1, $2, $3, $4, $5, $6::jsonb, $7)
     ON CONFLICT (org_id, alias) DO UPDATE
       SET name = EXCLUDED.name, title_field = EXCLUDED.title_field, fields = EXCLUDED.fields, preview_url = EXCLUDED.preview_url, updated_at = now()
     RETURNING ${COLUMNS}`,
    [orgId, newId(), model.alias, model.name, model.titleField, JSON.stringify(model.fields), model.previewUrl],
  );
  return toModel(rows[0]);
}

export async function deleteModelRow(tx: Queryable, orgId: string, alias: string): Promise<boolean> {
  const r = await tx.query('DELETE FROM models WHERE org_id = $1 AND alias = $2', [orgId, alias]);
  return r.rowCount > 0;
}

/** Whether any entry row (any status, deleted ones included) still uses the model. */
export async function modelHasEntries(db: Queryable, orgId: string, alias: string): Promise<boolean> {
  const { rows } = await db.query('SELECT 1 FROM entries WHERE org_id = $1 AND model_alias = $2 LIMIT 1', [orgId, alias]);
  return rows.length > 0;
}
