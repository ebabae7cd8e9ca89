import { Router } from 'express';
import { z } from 'zod';
import { ok, resultInfo } from '../../../shared/envelope.js';
import { parsePage } from '../../../shared/paging.js';
import type { Services } from '../../../shared/services.js';
import { insertSite, listSites } from '../../../shared/tenancy/site-repository.js';
import { parseInput } from '../../../shared/validation.js';
import { requireScope, tenantOf } from '../auth.js';

const clientId = z.string().regex(/^[A-Za-z0-9_-]{1,64}$/, 'letters, digits, "_" or "-", at most 64');

const createSiteBody = z.object({
  id: clientId.optional(),
  name: z.string().trim().min(1).max(200),
  externalId: z.string().max(200).optional(),
});

export function siteRoutes(services: Services): Router {
  const r = Router();

  r.post('/management/v1/sites', requireScope('manage'), async (req, res) => {
    const site = await insertSite(services.db, tenantOf(req).orgId, parseInput(createSiteBody, req.body));
    res.status(201).json(ok(site));
  });

  r.get('/management/v1/sites', requireScope('manage'), async (req, res) => {
    const page = parsePage(req.query);
    const { items, total } = await listSites(services.db, tenantOf(req).orgId, page);
    res.json(ok(items, { resultInfo: resultInfo(page, total) }));
  });

  return r;
}
