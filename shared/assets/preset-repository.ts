import type { Queryable } from '../adapters/db/index.js';
import type { ImagePreset, ImagePresetOptions } from './types.js';

/** All SQL on `image_presets`. */
interface PresetRow {
  name: string;
  options: ImagePresetOptions;
  updated_at: Date;
}
const toPreset = (r: PresetRow): ImagePreset => ({ name: r.name, options: r.options, updatedAt: r.updated_at });

export async function upsertPreset(db: Queryable, orgId: string, name: string, options: ImagePresetOptions): Promise<{ preset: ImagePreset; created: boolean }> {
  const { rows } = await db.query<PresetRow & { created: boolean }>(
    `INSERT INTO image_presets (org_id, name, options) VALUES ($1, $2, $3::jsonb)
     ON CONFLICT (org_id, name) DO UPDATE SET options = EXCLUDED.options, updated_at = now()
     RETURNING name, options, updated_at, (xmax = 0) AS created`,
    [orgId, name, JSON.stringify(options)],
  );
  return { preset: toPreset(rows[0]), created: rows[0].created };
}

export async function listPresets(db: Queryable, orgId: string): Promise<ImagePreset[]> {
  const { rows } = await db.query<PresetRow>('SELECT name, options, updated_at FROM image_presets WHERE org_id = $1 ORDER BY name', [orgId]);
  return rows.map(toPreset);
}

/** The org's presets by name, as `buildAssetUrl` takes them. */
export async function presetMap(db: Queryable, orgId: string): Promise<Map<string, ImagePresetOptions>> {
  return new Map((await listPresets(db, orgId)).map((p) => [p.name, p.options]));
}

export async function findPreset(db: Queryable, orgId: string, name: string): Promise<ImagePreset | null> {
  const { rows } = await db.query<PresetRow>('SELECT name, options, updated_at FROM image_presets WHERE org_id = $1 AND name = $2', [orgId, name]);
  return rows[0] ? toPreset(rows[0]) : null;
}

export async function deletePreset(db: Queryable, orgId: string, name: string): Promise<boolean> {
  const { rowCount } = await db.query('DELETE FROM image_presets WHERE org_id = $1 AND name = $2', [orgId, name]);
  return rowCount > 0;
}
