import type { Queryable } from '../adapters/db/index.js';
import { ASSET_COLUMNS, toAsset, type AssetRow } from './asset-row.js';
import type { Asset, AssetType, FocalPoint, RatioFocalPoint } from './types.js';

/** All SQL on `assets`. Every statement is scoped by org; deleted assets are invisible. */

export interface AssetMetadata {
  title?: string | null;
  fileName?: string | null;
  path?: string | null;
  caption?: string | null;
  alt?: string | null;
  author?: string | null;
  source?: string | null;
  tags?: string[];
  externalId?: string | null;
}

/** What an upload learned about the bytes. */
export interface AssetContent {
  versionId: string;
  type: AssetType;
  contentType: string;
  size: number;
  width: number | null;
  height: number | null;
  duration: number | null;
  posterKey: string | null;
  placeholder: string | null;
  /** Absent: none (content not analysed, such as rows written by tests and benchmarks). */
  suggestedFocalPoint?: FocalPoint | null;
}

export async function insertAsset(db: Queryable, orgId: string, id: string, content: AssetContent, meta: AssetMetadata): Promise<Asset> {
  const { rows } = await db.query<AssetRow>(
    `INSERT INTO assets (org_id, id, version_id, type, content_type, size, width, height, duration, poster_key,
                         title, file_name, path, caption, alt, author, source, tags, external_id, placeholder, suggested_focal_point)
     VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9, $10, $11, $12, $13, $14, $15, $16, $17, $18, $19, $20, $21::jsonb)
     RETURNING ${ASSET_COLUMNS}`,
    [
      orgId, id, content.versionId, content.type, content.contentType, content.size, content.width, content.height,
      content.duration, content.posterKey, meta.title ?? null, meta.fileName ?? null, meta.path ?? null, meta.caption ?? null,
      meta.alt ?? null, meta.author ?? null, meta.source ?? null, meta.tags ?? [], meta.externalId ?? null, content.placeholder,
      jsonOrNull(content.suggestedFocalPoint),
    ],
  );
  return toAsset(rows[0]);
}

export async function findAsset(db: Queryable, orgId: string, id: string, options: { forUpdate?: boolean } = {}): Promise<Asset | null> {
  const { rows } = await db.query<AssetRow>(
    `SELECT ${ASSET_COLUMNS} FROM assets WHERE org_id = $1 AND id = $2 AND deleted_at IS NULL${options.forUpdate ? ' FOR UPDATE' : ''}`,
    [orgId, id],
  );
  return rows[0] ? toAsset(rows[0]) : null;
}

/** Live assets by id, for batched loading (DataLoader); missing or deleted ids are absent. */
export async function findAssetsByIds(db: Queryable, orgId: string, ids: readonly string[]): Promise<Map<string, Asset>> {
  if (ids.length === 0) return new Map();
  const { rows } = await db.query<AssetRow>(
    `SELECT ${ASSET_COLUMNS} FROM assets WHERE org_id = $1 AND id = ANY($2::text[]) AND deleted_at IS NULL`,
    [orgId, [...ids]],
  );
  return new Map(rows.map((r) => [r.id, toAsset(r)]));
}

/**
 * A page of live assets, newest first; `oldestFirst` in exactly the reverse order (an export
 * writes them so, so that a copy made by an import lists them as the original does).
 */
export async function listAssets(
  db: Queryable,
  orgId: string,
  page: { offset: number; limit: number },
  filter: { type?: AssetType; oldestFirst?: boolean; search?: string; tag?: string } = {},
) {
  const params: unknown[] = [orgId];
  let where = 'org_id = $1 AND deleted_at IS NULL';
  if (filter.type) {
    params.push(filter.type);
    where += ` AND type = $${params.length}`;
  }
  // every word somewhere in the names people give an asset; LIKE's own wildcards are matched literally
  for (const word of (filter.search ?? '').split(/\s+/).filter(Boolean).slice(0, 10)) {
    params.push(`%${word.replace(/[\\%_]/g, (c) => `\\${c}`)}%`);
    where += ` AND concat_ws(' ', title, file_name, alt) ILIKE $${params.length}`;
  }
  if (filter.tag) {
    params.push(filter.tag.toLowerCase());
    where += ` AND EXISTS (SELECT 1 FROM unnest(tags) t WHERE lower(t) = $${params.length})`;
  }
  const order = filter.oldestFirst ? 'created_at, id DESC' : 'created_at DESC, id';
  const [items, total] = await Promise.all([
    db.query<AssetRow>(`SELECT ${ASSET_COLUMNS} FROM assets WHERE ${where} ORDER BY ${order} LIMIT ${page.limit} OFFSET ${page.offset}`, params),
    db.query<{ n: number }>(`SELECT count(*)::int AS n FROM assets WHERE ${where}`, params),
  ]);
  return { items: items.rows.map(toAsset), total: total.rows[0].n };
}

/** A new version of the bytes; metadata given with it replaces the old values. */
export async function replaceAssetContent(db: Queryable, orgId: string, id: string, content: AssetContent, meta: AssetMetadata): Promise<Asset | null> {
  const sets = [
    'version_id = $3', 'type = $4', 'content_type = $5', 'size = $6', 'width = $7', 'height = $8', 'duration = $9', 'poster_key = $10', 'placeholder = $11',
    'suggested_focal_point = $12::jsonb',     'updated_at = now()',
  ];
  const params: unknown[] = [orgId, id, content.versionId, content.type, content.contentType, content.size, content.width, content.height, content.duration, content.posterKey, content.placeholder, jsonOrNull(content.suggestedFocalPoint)];
  appendMetadata(sets, params, meta);
  const { rows } = await db.query<AssetRow>(
    `UPDATE assets SET ${sets.join(', ')} WHERE org_id = $1 AND id = $2 AND deleted_at IS NULL RETURNING ${ASSET_COLUMNS}`,
    params,
  );
  return rows[0] ? toAsset(rows[0]) : null;
}

export interface AssetPatch extends AssetMetadata {
  focalPoint?: FocalPoint | null;
  focalPoints?: RatioFocalPoint[];
  posterAssetId?: string | null;
}

export async function patchAsset(db: Queryable, orgId: string, id: string, patch: AssetPatch): Promise<Asset | null> {
  const sets = ['updated_at = now()'];
  const params: unknown[] = [orgId, id];
  appendMetadata(sets, params, patch);
  if (patch.focalPoint !== undefined) {
    params.push(patch.focalPoint === null ? null : JSON.stringify(patch.focalPoint));
    sets.push(`focal_point = $${params.length}::jsonb`);
  }
  if (patch.focalPoints !== undefined) {
    params.push(JSON.stringify(patch.focalPoints));
    sets.push(`focal_points = $${params.length}::jsonb`);
  }
  if (patch.posterAssetId !== undefined) {
    params.push(patch.posterAssetId);
    sets.push(`poster_asset_id = $${params.length}`);
  }
  const { rows } = await db.query<AssetRow>(
    `UPDATE assets SET ${sets.join(', ')} WHERE org_id = $1 AND id = $2 AND deleted_at IS NULL RETURNING ${ASSET_COLUMNS}`,
    params,
  );
  return rows[0] ? toAsset(rows[0]) : null;
}

/** Soft delete: entries keep their ids; every reader filters `deleted_at IS NULL`. */
export async function deleteAsset(db: Queryable, orgId: string, id: string): Promise<Asset | null> {
  const { rows } = await db.query<AssetRow>(
    `UPDATE assets SET deleted_at = now(), updated_at = now() WHERE org_id = $1 AND id = $2 AND deleted_at IS NULL RETURNING ${ASSET_COLUMNS}`,
    [orgId, id],
  );
  return rows[0] ? toAsset(rows[0]) : null;
}

const METADATA_COLUMNS: Record<keyof AssetMetadata, string> = {
  title: 'title',
  fileName: 'file_name',
  path: 'path',
  caption: 'caption',
  alt: 'alt',
  author: 'author',
  source: 'source',
  tags: 'tags',
  externalId: 'external_id',
};

function appendMetadata(sets: string[], params: unknown[], meta: AssetMetadata): void {
  for (const [field, column] of Object.entries(METADATA_COLUMNS) as [keyof AssetMetadata, string][]) {
    if (meta[field] === undefined) continue;
    params.push(meta[field]);
    sets.push(`${column} = $${params.length}`);
  }
}

/** The title and original size of each of `ids` that exists (deleted ones included: their traffic stays). */
export async function findAssetSizes(db: Queryable, orgId: string, ids: string[]): Promise<Map<string, { title: string | null; size: number }>> {
  if (ids.length === 0) return new Map();
  const { rows } = await db.query<{ id: string; title: string | null; file_name: string | null; size: string | number }>(
    'SELECT id, title, file_name, size FROM assets WHERE org_id = $1 AND id = ANY($2::text[])',
    [orgId, ids],
  );
  return new Map(rows.map((r) => [r.id, { title: r.title ?? r.file_name, size: Number(r.size) }]));
}

const jsonOrNull = (v: FocalPoint | null | undefined) => (v ? JSON.stringify(v) : null);
