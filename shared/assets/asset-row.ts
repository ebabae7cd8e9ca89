import type { Asset, AssetType, FocalPoint, RatioFocalPoint } from './types.js';

/** Row shape of `assets` and its mapping to the domain type. */
export interface AssetRow {
  org_id: string;
  id: string;
  version_id: string;
  type: string;
  title: string | null;
  content_type: string;
  file_name: string | null;
  path: string | null;
  caption: string | null;
  alt: string | null;
  author: string | null;
  source: string | null;
  size: number;
  tags: string[];
  external_id: string | null;
  width: number | null;
  height: number | null;
  duration: number | null;
  focal_point: FocalPoint | null;
  focal_points: RatioFocalPoint[] | null;
  poster_asset_id: string | null;
  poster_key: string | null;
  placeholder: string | null;
  suggested_focal_point: FocalPoint | null;
  created_at: Date;
  updated_at: Date;
}

export const ASSET_COLUMNS =
  'org_id, id, version_id, type, title, content_type, file_name, path, caption, alt, author, source, size, tags, external_id, ' +
  'width, height, duration, focal_point, focal_points, poster_asset_id, poster_key, placeholder, suggested_focal_point, created_at, updated_at';

export const toAsset = (r: AssetRow): Asset => ({
  id: r.id,
  orgId: r.org_id,
  versionId: r.version_id,
  type: r.type as AssetType,
  title: r.title,
  contentType: r.content_type,
  fileName: r.file_name,
  path: r.path,
  caption: r.caption,
  alt: r.alt,
  author: r.author,
  source: r.source,
  size: Number(r.size),
  tags: r.tags ?? [],
  externalId: r.external_id,
  width: r.width,
  height: r.height,
  duration: r.duration,
  focalPoint: r.focal_point,
  focalPoints: r.focal_points ?? [],
  posterAssetId: r.poster_asset_id,
  posterKey: r.poster_key,
  placeholder: r.placeholder,
  suggestedFocalPoint: r.suggested_focal_point,
  createdAt: r.created_at,
  updatedAt: r.updated_at,
});
