import { buildAssetUrl } from './build-asset-url.js';
import type { Asset, Orientation } from './types.js';
import { embedPath } from './url-grammar.js';

/** What the embed page, script and JSON describe: one video, its poster and its layout. */
export interface PlayerConfig {
  id: string;
  title: string | null;
  type: string;
  orientation: Orientation;
  /** "16:9" (horizontal) or "9:16" (vertical). */
  aspectRatio: string;
  width: number | null;
  height: number | null;
  duration: number | null;
  sources: Array<{ src: string; type: string }>;
  poster: string | null;
  embed: { html: string; js: string; json: string };
}

export function playerConfig(asset: Asset, ctx: { baseUrl: string; secret: Buffer; orientation: Orientation }): PlayerConfig {
  const urlCtx = { baseUrl: ctx.baseUrl, secret: ctx.secret, presets: new Map() };
  const vertical = ctx.orientation === 'VERTICAL';
  const embed = (kind: 'html' | 'js' | 'json') => ctx.baseUrl + embedPath({ orgId: asset.orgId, assetId: asset.id, kind, vertical });
  return {
    id: asset.id,
    title: asset.title,
    type: asset.type,
    orientation: ctx.orientation,
    aspectRatio: vertical ? '9:16' : '16:9',
    width: asset.width,
    height: asset.height,
    duration: asset.duration,
    sources: [{ src: buildAssetUrl({ asset, orgId: asset.orgId }, urlCtx)!, type: asset.contentType }],
    // A player-sized poster: the full-size original would be needlessly heavy.
    poster: buildAssetUrl({ asset, orgId: asset.orgId, transformation: { format: 'THUMBNAIL', width: 1280 } }, urlCtx),
    embed: { html: embed('html'), js: embed('js'), json: embed('json') },
  };
}
