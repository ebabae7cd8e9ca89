import { Router } from 'express';
import { findAsset, listAssets } from '../../../shared/assets/asset-repository.js';
import { removeAsset, updateAsset } from '../../../shared/assets/asset-service.js';
import { ok, resultInfo } from '../../../shared/envelope.js';
import { notFound } from '../../../shared/errors/index.js';
import { parsePage } from '../../../shared/paging.js';
import type { Services } from '../../../shared/services.js';
import { parseInput } from '../../../shared/validation.js';
import { requireScope, tenantOf } from '../auth.js';
import { assetListQuerySchema, assetPatchSchema } from '../../../shared/assets/asset-input.js';
import { assetView } from './asset-view.js';

/** Reading, patching (metadata, focal points, poster) and deleting assets. */
export function assetRoutes(services: Services): Router {
  const r = Router();

  r.get('/management/v1/assets', requireScope('manage'), async (req, res) => {
    const query = parseInput(assetListQuerySchema, req.query, { what: 'query string' });
    const page = parsePage(query);
    const { items, total } = await listAssets(services.db, tenantOf(req).orgId, page, { type: query.type, search: query.search, tag: query.tag });
    res.json(ok(items.map((a) => assetView(services, a)), { resultInfo: resultInfo(page, total) }));
  });

  r.get('/management/v1/assets/:id', requireScope('manage'), async (req, res) => {
    const asset = await findAsset(services.db, tenantOf(req).orgId, String(req.params.id));
    if (!asset) throw notFound(`Asset "${req.params.id}"`);
    res.json(ok(assetView(services, asset)));
  });

  r.patch('/management/v1/assets/:id', requireScope('manage'), async (req, res) => {
    const patch = parseInput(assetPatchSchema, req.body);
    const asset = await updateAsset(services, tenantOf(req).orgId, String(req.params.id), patch);
    res.json(ok(assetView(services, asset)));
  });

  r.delete('/management/v1/assets/:id', requireScope('manage'), async (req, res) => {
    await removeAsset(services, tenantOf(req).orgId, String(req.params.id));
    res.json(ok({ id: req.params.id }));
  });

  return r;
}
