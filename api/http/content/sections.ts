import { Router } from 'express';
import { putSectionMedia, sectionDef } from '../../../shared/content/sections.js';
import { sectionInputSchema, sectionMediaSchema, sectionPatchSchema } from '../../../shared/content/resource-input.js';
import { ok } from '../../../shared/envelope.js';
import type { Services } from '../../../shared/services.js';
import { parseInput } from '../../../shared/validation.js';
import { requireScope, tenantOf } from '../auth.js';
import { resourceRoutes } from './resource-routes.js';

/** `/management/v1/sections` (a tree) and `PUT /sections/:id/media`. */
export function sectionRoutes(services: Services): Router {
  const r = resourceRoutes(services, { path: '/management/v1/sections', def: sectionDef, createSchema: sectionInputSchema, patchSchema: sectionPatchSchema });
  r.put('/management/v1/sections/:id/media', requireScope('manage'), async (req, res) => {
    const body = parseInput(sectionMediaSchema, req.body, { what: 'section media' });
    const assetIds = Array.isArray(body) ? body : body.assetIds;
    res.json(ok(await putSectionMedia(services, tenantOf(req).orgId, req.params.id as string, assetIds)));
  });
  return r;
}
