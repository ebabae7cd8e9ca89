import { Router } from 'express';
import { ok } from '../../../shared/envelope.js';
import type { Services } from '../../../shared/services.js';
import { listProjectsWithDistributions } from '../../../shared/tenancy/project-repository.js';
import { requireScope, tenantOf } from '../auth.js';

/**
 * The organization's projects and their distributions for a token with the analytics scope: what
 * it can report on (the dashboard's choice), without the manage scope the management list needs.
 */
export function analyticsProjectRoutes(services: Services): Router {
  const r = Router();
  r.get('/api/v1/projects', requireScope('analytics'), async (req, res) => {
    const projects = await listProjectsWithDistributions(services.db, tenantOf(req).orgId);
    res.json(ok(projects.map((p) => ({ id: p.id, name: p.name, distributions: p.distributions.map((d) => ({ id: d.id, name: d.name, hostnames: d.hostnames })) }))));
  });
  return r;
}
