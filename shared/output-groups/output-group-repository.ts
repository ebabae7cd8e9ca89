import type { Queryable } from '../adapters/db/index.js';
import { notFound } from '../errors/index.js';
import type { DrmSpec, OutputGroupRecord, OutputGroupSpec, OutputSpec } from './types.js';

/** The only module that runs SQL on `output_groups`; every statement is scoped by org and project. */

interface OutputGroupRow {
  id: number;
  project_id: string;
  name: string;
  custom_name: string;
  description: string;
  type: number;
  segment_control: number;
  segment_length: number;
  min_segment_length: number;
  categories: number[];
  has_drm: boolean;
  drm: DrmSpec | null;
  outputs: OutputSpec[];
  created_at: Date;
  updated_at: Date;
}

const COLUMNS = `id, project_id, name, custom_name, description, type, segment_control, segment_length,
  min_segment_length, categories, has_drm, drm, outputs, created_at, updated_at`;

const toRecord = (r: OutputGroupRow): OutputGroupRecord => ({
  id: r.id,
  projectId: r.project_id,
  name: r.name,
  customName: r.custom_name,
  description: r.description,
  type: r.type,
  segmentControl: r.segment_control,
  segmentLength: r.segment_length,
  minSegmentLength: r.min_segment_length,
  categories: r.categories,
  hasDRM: r.has_drm,
  drm: r.drm,
  outputs: r.outputs,
  createdAt: r.created_at,
  updatedAt: r.updated_at,
});

/** Parameters $4…$14 in column order. jsonb goes in as text: `pg` would turn a JS array into a Postgres array. */
const specParams = (s: OutputGroupSpec) => [
  s.name,
  s.customName,
  s.description,
  s.type,
  s.segmentControl,
  s.segmentLength,
  s.minSegmentLength,
  s.categories,
  s.hasDRM,
  s.drm === null ? null : JSON.stringify(s.drm),
  JSON.stringify(s.outputs),
];

export async function insertOutputGroup(
  db: Queryable,
  scope: { orgId: string; projectId: string },
  spec: OutputGroupSpec,
): Promise<OutputGroupRecord> {
  // The id is the project's next (see migration 0080): one statement, so a failed insert
  // rolls the counter back with it.
  const { rows } = await db.query<OutputGroupRow>(
    `WITH next AS (
       UPDATE projects SET last_output_group_id = last_output_group_id + 1
        WHERE org_id = $1 AND id = $2 RETURNING last_output_group_id AS id)
     INSERT INTO output_groups (org_id, project_id, id, name, custom_name, description, type, segment_control,
       segment_length, min_segment_length, categories, has_drm, drm, outputs)
     SELECT $1, $2, next.id, $3, $4, $5, $6, $7, $8, $9, $10::int[], $11, $12::text::jsonb, $13::text::jsonb FROM next
     RETURNING ${COLUMNS}`,
    [scope.orgId, scope.projectId, ...specParams(spec)],
  );
  if (rows.length === 0) throw notFound('Project');
  return toRecord(rows[0]);
}

/** Replaces every field of one group; `null` when it does not exist in this org and project. */
export async function replaceOutputGroup(
  db: Queryable,
  key: { orgId: string; projectId: string; id: number },
  spec: OutputGroupSpec,
): Promise<OutputGroupRecord | null> {
  const { rows } = await db.query<OutputGroupRow>(
    `UPDATE output_groups SET name = $4, custom_name = $5, description = $6, type = $7, segment_control = $8,
       segment_length = $9, min_segment_length = $10, categories = $11::int[], has_drm = $12,
       drm = $13::text::jsonb, outputs = $14::text::jsonb, updated_at = now()
     WHERE org_id = $1 AND project_id = $2 AND id = $3
     RETURNING ${COLUMNS}`,
    [key.orgId, key.projectId, key.id, ...specParams(spec)],
  );
  return rows[0] ? toRecord(rows[0]) : null;
}

export async function deleteOutputGroup(db: Queryable, key: { orgId: string; projectId: string; id: number }): Promise<boolean> {
  const { rowCount } = await db.query(
    'DELETE FROM output_groups WHERE org_id = $1 AND project_id = $2 AND id = $3',
    [key.orgId, key.projectId, key.id],
  );
  return rowCount > 0;
}

export async function findOutputGroup(
  db: Queryable,
  key: { orgId: string; projectId: string; id: number },
): Promise<OutputGroupRecord | null> {
  const { rows } = await db.query<OutputGroupRow>(
    `SELECT ${COLUMNS} FROM output_groups WHERE org_id = $1 AND project_id = $2 AND id = $3`,
    [key.orgId, key.projectId, key.id],
  );
  return rows[0] ? toRecord(rows[0]) : null;
}

export type OutputGroupSummary = Pick<OutputGroupRecord, 'id' | 'name' | 'customName' | 'type' | 'description'>;

/** One page of a project's groups in creation order, and the total across all pages. */
export async function listOutputGroups(
  db: Queryable,
  scope: { orgId: string; projectId: string },
  page: { offset: number; limit: number },
): Promise<{ items: OutputGroupSummary[]; total: number }> {
  const [items, total] = await Promise.all([
    db.query<Pick<OutputGroupRow, 'id' | 'name' | 'custom_name' | 'type' | 'description'>>(
      `SELECT id, name, custom_name, type, description FROM output_groups
       WHERE org_id = $1 AND project_id = $2 ORDER BY id LIMIT $3 OFFSET $4`,
      [scope.orgId, scope.projectId, page.limit, page.offset],
    ),
    db.query<{ n: number }>(
      'SELECT count(*)::int AS n FROM output_groups WHERE org_id = $1 AND project_id = $2',
      [scope.orgId, scope.projectId],
    ),
  ]);
  return {
    items: items.rows.map((r) => ({ id: r.id, name: r.name, customName: r.custom_name, type: r.type, description: r.description })),
    total: total.rows[0].n,
  };
}
