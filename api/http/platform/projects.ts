import { Router } from 'express';
import { z } from 'zod';
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
import { parseInput } from '../../../shared/validation.js';
import { requireScope, tenantOf } from '../auth.js';

const createProjectBody = z.object({ name: z.string().trim().min(1).max(200) });

const hostname = z
  .string()
  .regex(/^(?=.{1,253}$)([a-z0-9](?:[a-z0-9-]{0,61}[a-z0-9])?)(\.[a-z0-9](?:[a-z0-9-]{0,61}[a-z0-9])?)*$/i, 'must be a host name');

const createDistributionBody = z.object({
  id: z.string().regex(/^[A-Za-z0-9_-]{1,64}$/, 'letters, digits, "_" or "-", at most 64').optional(),
  name: z.string().trim().min(1).max(200),
  hostnames: z.array(hostname).max(100).default([]),
});

export function projectRoutes(services: Services): Router {
  const r = Router();
  const manage = requireScope('manage');

  r.post('/management/v1/projects', manage, async (req, res) => {
    const project = await insertProject(services.db, tenantOf(req).orgId, parseInput(createProjectBody, req.body));
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
    const distribution = await insertDistribution(services.db, orgId, project.id, parseInput(createDistributionBody, req.body));
    res.status(201).json(ok(distribution));
  });

  r.get('/management/v1/projects/:projectId/distributions', manage, async (req, res) => {
    const orgId = tenantOf(req).orgId;
    const project = await requireProject(services.db, orgId, String(req.params.projectId));
    res.json(ok(await listDistributions(services.db, orgId, project.id)));
  });

  return r;
}
