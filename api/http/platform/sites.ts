import { Router } from 'express';
import { ok, resultInfo } from '../../../shared/envelope.js';
import { parsePage } from '../../../shared/paging.js';
import type { Services } from '../../../shared/services.js';
import { badRequest, notFound } from '../../../shared/errors/index.js';
import { listModels } from '../../../shared/content/model-repository.js';
import { findSiteUrlPatterns, insertSite, listSites, updateSiteUrlPatterns } from '../../../shared/tenancy/site-repository.js';
import { listDistributionIds } from '../../../shared/tenancy/project-repository.js';
import { siteInputSchema, siteUrlPatternsInputSchema } from '../../../shared/tenancy/tenancy-input.js';
import { parseInput } from '../../../shared/validation.js';
import { requireScope, tenantOf } from '../auth.js';

export function siteRoutes(services: Services): Router {
  const r = Router();

  r.post('/management/v1/sites', requireScope('manage'), async (req, res) => {
    const site = await insertSite(services.db, tenantOf(req).orgId, parseInput(siteInputSchema, req.body));
    res.status(201).json(ok(site));
  });

  r.get('/management/v1/sites', requireScope('manage'), async (req, res) => {
    const page = parsePage(req.query);
    const { items, total } = await listSites(services.db, tenantOf(req).orgId, page);
    res.json(ok(items, { resultInfo: resultInfo(page, total) }));
  });

  r.get('/management/v1/sites/:siteId/url-patterns', requireScope('manage'), async (req, res) => {
    const found = await findSiteUrlPatterns(services.db, tenantOf(req).orgId, req.params.siteId as string);
    if (!found) throw notFound('Site');
    res.json(ok(found));
  });

  // Log lines accepted from then on are resolved by the new patterns (other instances within 30 s).
  r.put('/management/v1/sites/:siteId/url-patterns', requireScope('manage'), async (req, res) => {
    const { orgId } = tenantOf(req);
    const input = parseInput(siteUrlPatternsInputSchema, req.body);
    const [models, distributions] = await Promise.all([listModels(services.db, orgId), listDistributionIds(services.db, orgId)]);
    const problems = [
      ...input.patterns.flatMap((p, i) => (p.model && !models.some((m) => m.alias === p.model) ? [`patterns[${i}].model: no model "${p.model}"`] : [])),
      ...input.distributionIds.flatMap((d, i) => (distributions.has(d) ? [] : [`distributionIds[${i}]: no distribution "${d}"`])),
    ];
    if (problems.length > 0) throw badRequest('The URL patterns name what does not exist.', problems);
    const value = { patterns: input.patterns, distributionIds: [...new Set(input.distributionIds)] };
    if (!(await updateSiteUrlPatterns(services.db, orgId, req.params.siteId as string, value))) throw notFound('Site');
    services.entryResolver.forget(orgId);
    res.json(ok(value));
  });

  return r;
}
