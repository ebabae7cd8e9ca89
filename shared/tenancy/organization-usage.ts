import type { Queryable } from '../adapters/db/index.js';
import { monthOf } from './usage-meter.js';

/** `GET /management/v1/organization`'s usage: what the organization holds now, and this month's traffic. */
export interface OrganizationUsage {
  /** The first day (UTC) of the month the counts below belong to. */
  month: string;
  entries: number;
  assets: number;
  assetBytes: number;
  /** Admitted API requests (REST and GraphQL) this month; a few seconds behind. */
  requests: number;
  imageTransforms: number;
}

export async function organizationUsage(db: Queryable, orgId: string, now = new Date()): Promise<OrganizationUsage> {
  const month = monthOf(now);
  const { rows } = await db.query<{ entries: number; assets: number; asset_bytes: string; requests: string | null; image_transforms: string | null }>(
    `SELECT (SELECT count(*)::int FROM entries WHERE org_id = $1 AND in_preview) AS entries,
            (SELECT count(*)::int FROM assets WHERE org_id = $1 AND deleted_at IS NULL) AS assets,
            (SELECT coalesce(sum(size), 0)::text FROM assets WHERE org_id = $1 AND deleted_at IS NULL) AS asset_bytes,
            u.requests::text, u.image_transforms::text
     FROM (SELECT 1) one LEFT JOIN organization_usage u ON u.org_id = $1 AND u.month = $2::date`,
    [orgId, month],
  );
  const r = rows[0];
  return { month, entries: r.entries, assets: r.assets, assetBytes: Number(r.asset_bytes), requests: Number(r.requests ?? 0), imageTransforms: Number(r.image_transforms ?? 0) };
}
