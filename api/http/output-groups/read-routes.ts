import { Router } from 'express';
import { ok, resultInfo } from '../../../shared/envelope.js';
import { getOutputGroup, listOutputGroups } from '../../../shared/output-groups/service.js';
import { parsePage } from '../../../shared/paging.js';
import type { Services } from '../../../shared/services.js';
import { requireScope, tenantOf } from '../auth.js';

/**
 * The output-group endpoints (scope `video`). Only version 1 exists, so the version
 * segment is literal: `/api/v2/...` matches no route and gets the global 404 envelope.
 */
const BASE = '/api/v1/projects/:projectId/outputgroups';

export function outputGroupReadRoutes(services: Services): Router {
  const r = Router();
  const video = requireScope('video');

  r.get(BASE, video, async (req, res) => {
    const page = parsePage(req.query);
    const scope = { orgId: tenantOf(req).orgId, projectId: String(req.params.projectId) };
    const { items, info } = await listOutputGroups(services.db, scope, page);
    res.json(ok(items, { resultInfo: info }));
  });

  r.get(`${BASE}/:id`, video, async (req, res) => {
    const ref = { orgId: tenantOf(req).orgId, projectId: String(req.params.projectId), id: String(req.params.id) };
    const detail = await getOutputGroup(services.db, ref);
    // The API pages even the detail: one item on one page.
    res.json(ok([detail], { resultInfo: resultInfo({ pageIndex: 1, pageSize: 1 }, 1) }));
  });

  return r;
}
