import type { AnalyticsStore } from '../adapters/clickhouse/index.js';
import type { Queryable } from '../adapters/db/index.js';
import { findAssetSizes } from '../assets/asset-repository.js';
import { queryImageTraffic } from './image-queries.js';
import type { AnalyticsRange } from './range.js';
import { mostFirst } from './reports.js';
import type { Scope } from './window-sql.js';

export interface AssetTraffic {
  id: string;
  /** Its title or file name; null for an asset no longer known. */
  title: string | null;
  requests: number;
  bytes: number;
  /** The size of its original; null for an asset no longer known. */
  originalBytes: number | null;
}

export interface FormatTraffic {
  format: string;
  requests: number;
  bytes: number;
  /** Requests × the original's size − the bytes served, over the assets still known. */
  bytesSaved: number;
}

export interface ImageAnalytics {
  requests: number;
  bytes: number;
  bytesSaved: number;
  /** The TermCount most requested assets. */
  assets: AssetTraffic[];
  /** Image requests of the assets not listed. */
  otherRequests: number;
  /** Every output format served, most requested first. */
  formats: FormatTraffic[];
}

/**
 * Image traffic per asset: what the CDN served of the organization's signed derivatives (answers
 * below 400), and what serving a derivative instead of the original saved, per format.
 */
export async function imageAnalytics(store: AnalyticsStore, db: Queryable, scope: Scope, range: AnalyticsRange): Promise<ImageAnalytics> {
  const rows = await queryImageTraffic(store, scope);
  const perAsset = new Map<string, { requests: number; bytes: number }>();
  const perFormat = new Map<string, FormatTraffic>();
  for (const r of rows) {
    const a = perAsset.get(r.assetId) ?? { requests: 0, bytes: 0 };
    a.requests += r.requests;
    a.bytes += r.bytes;
    perAsset.set(r.assetId, a);
  }
  const sizes = await findAssetSizes(db, scope.orgId, [...perAsset.keys()]);
  for (const r of rows) {
    const f = perFormat.get(r.format) ?? { format: r.format, requests: 0, bytes: 0, bytesSaved: 0 };
    f.requests += r.requests;
    f.bytes += r.bytes;
    const size = sizes.get(r.assetId)?.size;
    if (size !== undefined) f.bytesSaved += r.requests * size - r.bytes;
    perFormat.set(r.format, f);
  }
  const assets = [...perAsset]
    .map(([id, t]) => ({ id, title: sizes.get(id)?.title ?? null, requests: t.requests, bytes: t.bytes, originalBytes: sizes.get(id)?.size ?? null }))
    .sort(mostFirst<AssetTraffic>((a) => a.requests, (a) => a.id));
  const formats = [...perFormat.values()].sort(mostFirst<FormatTraffic>((f) => f.requests, (f) => f.format));
  const top = assets.slice(0, range.termCount);
  const requests = assets.reduce((n, a) => n + a.requests, 0);
  return {
    requests,
    bytes: assets.reduce((n, a) => n + a.bytes, 0),
    bytesSaved: formats.reduce((n, f) => n + f.bytesSaved, 0),
    assets: top,
    otherRequests: requests - top.reduce((n, a) => n + a.requests, 0),
    formats,
  };
}
