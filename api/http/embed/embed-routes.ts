import { assertNotSuspended } from '../../../shared/tenancy/suspensions.js';
import { Router } from 'express';
import { findAssetForDelivery } from '../../../shared/assets/asset-read-cache.js';
import { playerConfig } from '../../../shared/assets/player-config.js';
import { badRequest, notFound } from '../../../shared/errors/index.js';
import type { Services } from '../../../shared/services.js';
import { markShareable } from '../request-context.js';
import { renderPlayerPage, renderPlayerScript } from './render-player.js';

const ID = /^[A-Za-z0-9_-]{1,64}$/;

/**
 * Public video embeds: `/embed/{org}/{asset}.html|.js|.json[?orientation=vertical]`. Short
 * caching: the title and poster may change while the URL stays the same.
 */
export function embedRoutes(services: Services): Router {
  const r = Router();

  r.get('/embed/:orgId/:file', async (req, res) => {
    const m = /^([A-Za-z0-9_-]+)\.(html|js|json)$/.exec(req.params.file);
    if (!m || !ID.test(req.params.orgId)) throw notFound('Embed');
    assertNotSuspended(services.suspensions, req.params.orgId);
    const orientation = req.query.orientation;
    if (orientation !== undefined && orientation !== 'vertical' && orientation !== 'horizontal') {
      throw badRequest('orientation: must be "horizontal" or "vertical".');
    }
    const asset = await findAssetForDelivery(services.db, services.assetCaches, req.params.orgId, m[1]);
    if (!asset || (asset.type !== 'VIDEO' && asset.type !== 'VIDEO_PLAYLIST')) throw notFound('Video');
    const config = playerConfig(asset, {
      baseUrl: services.config.publicBaseUrl,
      secret: services.secrets.signing,
      orientation: orientation === 'vertical' ? 'VERTICAL' : 'HORIZONTAL',
    });
    res.setHeader('Cache-Control', 'public, max-age=300');
    markShareable(res);
    res.setHeader('X-Content-Type-Options', 'nosniff');
    switch (m[2]) {
      case 'html':
        // Meant to be framed anywhere; loads nothing but its own media.
        res.setHeader('Content-Security-Policy', "default-src 'none'; media-src 'self' " + new URL(services.config.publicBaseUrl).origin + "; img-src 'self' " + new URL(services.config.publicBaseUrl).origin + "; style-src 'unsafe-inline'; frame-ancestors *");
        res.type('html').send(renderPlayerPage(config));
        break;
      case 'js':
        res.setHeader('Access-Control-Allow-Origin', '*');
        res.setHeader('Cross-Origin-Resource-Policy', 'cross-origin');
        res.type('application/javascript').send(renderPlayerScript(config));
        break;
      default:
        res.setHeader('Access-Control-Allow-Origin', '*');
        res.json(config);
    }
  });

  return r;
}
