import type { AnalyticsStore } from '../adapters/clickhouse/index.js';
import { HUMANS, readsDays, windowSql, type Scope } from './window-sql.js';

// Image traffic per asset and output format over a window, from the image rollups and, at the
// window's ends, the raw rows' `/img/…` paths read the way the rollups read them.

/** The same reading of a derivative path as the materialized view's (0004-create-image-traffic.sql). */
const RAW_IMAGE = {
  where: "status < 400 AND startsWith(path, '/img/') AND length(splitByChar('/', path)) = 7 AND splitByChar('/', path)[4] = org_id",
  asset: "splitByChar('/', path)[5]",
  format: "lower(splitByChar('.', splitByChar('/', path)[7])[-1])",
};

export interface ImageTrafficRow {
  assetId: string;
  format: string;
  requests: number;
  bytes: number;
}

/** Requests and bytes per asset and format (bots left out on request), most requested first. */
export async function queryImageTraffic(store: AnalyticsStore, scope: Scope): Promise<ImageTrafficRow[]> {
  const w = windowSql(scope, { days: readsDays(scope) });
  const humans = scope.excludeBots ? HUMANS : '';
  const hourly = (column: string) => (w.minus ? `sum(if(${w.minus}, -toInt64(${column}), toInt64(${column})))` : `toInt64(sum(${column}))`);
  const parts: string[] = [];
  if (w.days) {
    parts.push(`SELECT asset_id, format, toInt64(sum(requests)) AS requests, toInt64(sum(bytes)) AS bytes
      FROM cdn_images_daily WHERE ${w.days}${humans} GROUP BY asset_id, format`);
  }
  if (w.hours) {
    parts.push(`SELECT asset_id, format, ${hourly('requests')} AS requests, ${hourly('bytes')} AS bytes
      FROM cdn_images_hourly WHERE ${w.hours}${humans} GROUP BY asset_id, format`);
  }
  if (w.raw) {
    parts.push(`SELECT ${RAW_IMAGE.asset} AS asset_id, ${RAW_IMAGE.format} AS format, toInt64(count()) AS requests, toInt64(sum(bytes)) AS bytes
      FROM cdn_logs WHERE ${w.raw}${humans} AND ${RAW_IMAGE.where} GROUP BY asset_id, format`);
  }
  return store.query<ImageTrafficRow>(
    `SELECT asset_id AS assetId, format, sum(requests) AS requests, sum(bytes) AS bytes
     FROM (${parts.join(' UNION ALL ')}) GROUP BY asset_id, format HAVING requests > 0
     ORDER BY requests DESC, assetId, format`,
    w.params,
  );
}
