import { Router } from 'express';
import { ok } from '../../../shared/envelope.js';
import { createOutputGroup, deleteOutputGroup, replaceOutputGroup } from '../../../shared/output-groups/service.js';
import type { Services } from '../../../shared/services.js';
import { requireScope, tenantOf } from '../auth.js';

const BASE = '/management/v1/projects/:projectId/outputgroups';

/** Write side of output groups (scope `manage`); bodies are checked against the catalog. */
export function outputGroupManageRoutes(services: Services): Router {
  const r = Router();
  const manage = requireScope('manage');

  r.post(BASE, manage, async (req, res) => {
    const projectId = String(req.params.projectId);
    const detail = await createOutputGroup(services.db, { orgId: tenantOf(req).orgId, projectId }, req.body);
    res.location(`/api/v1/projects/${projectId}/outputgroups/${detail.id}`);
    res.status(201).json(ok(detail));
  });

  r.put(`${BASE}/:id`, manage, async (req, res) => {
    const ref = { orgId: tenantOf(req).orgId, projectId: String(req.params.projectId), id: String(req.params.id) };
    res.json(ok(await replaceOutputGroup(services.db, ref, req.body)));
  });

  r.delete(`${BASE}/:id`, manage, async (req, res) => {
    const ref = { orgId: tenantOf(req).orgId, projectId: String(req.params.projectId), id: String(req.params.id) };
    res.json(ok(await deleteOutputGroup(services.db, ref)));
  });

  return r;
}
