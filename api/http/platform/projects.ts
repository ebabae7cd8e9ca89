import { Router } from 'express';
import { ok, resultInfo } from '../../../shared/envelope.js';
import { parsePage } from '../../../shared/paging.js';
import type { Services } from '../../../shared/services.js';
import {
  insertDistribution,
  insertProject,
  listDistributions,
  listProjects,
  requireProject,
} from '../../../shared/tenancy/project-repository.js';
import { distributionInputSchema, projectInputSchema } from '../../../shared/tenancy/tenancy-input.js';
import { parseInput } from '../../../shared/validation.js';
import { requireScope, tenantOf } from '../auth.js';

export function projectRoutes(services: Services): Router {
  const r = Router();
  const manage = requireScope('manage');

  r.post('/management/v1/projects', manage, async (req, res) => {
    const project = await insertProject(services.db, tenantOf(req).orgId, parseInput(projectInputSchema, req.body));
    res.status(201).json(ok(project));
  });

  r.get('/management/v1/projects', manage, async (req, res) => {
    const page = parsePage(req.query);
    const { items, total } = await listProjects(services.db, tenantOf(req).orgId, page);
    res.json(ok(items, { resultInfo: resultInfo(page, total) }));
  });

  r.get('/management/v1/projects/:projectId', manage, async (req, res) => {
    const orgId = tenantOf(req).orgId;
    const project = await requireProject(services.db, orgId, String(req.params.projectId));
    res.json(ok({ ...project, distributions: await listDistributions(services.db, orgId, project.id) }));
  });

  r.post('/management/v1/projects/:projectId/distributions', manage, async (req, res) => {
    const orgId = tenantOf(req).orgId;
    // The project is resolved first: a foreign project is a 404 whatever the body holds.
    const project = await requireProject(services.db, orgId, String(req.params.projectId));
    const distribution = await insertDistribution(services.db, orgId, project.id, parseInput(distributionInputSchema, req.body));
    res.status(201).json(ok(distribution));
  });

  r.get('/management/v1/projects/:projectId/distributions', manage, async (req, res) => {
    const orgId = tenantOf(req).orgId;
    const project = await requireProject(services.db, orgId, String(req.params.projectId));
    res.json(ok(await listDistributions(services.db, orgId, project.id)));
  });

  return r;
}
