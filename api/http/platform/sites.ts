import { Router } from 'express';
import { ok, resultInfo } from '../../../shared/envelope.js';
import { parsePage } from '../../../shared/paging.js';
import type { Services } from '../../../shared/services.js';
import { insertSite, listSites } from '../../../shared/tenancy/site-repository.js';
import { getSiteUrlPatterns, putSiteUrlPatterns } from '../../../shared/tenancy/site-url-patterns.js';
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
    res.json(ok(await getSiteUrlPatterns(services, tenantOf(req).orgId, req.params.siteId as string)));
  });

  r.put('/management/v1/sites/:siteId/url-patterns', requireScope('manage'), async (req, res) => {
    const input = parseInput(siteUrlPatternsInputSchema, req.body);
    res.json(ok(await putSiteUrlPatterns(services, tenantOf(req).orgId, req.params.siteId as string, input)));
  });

  return r;
}
