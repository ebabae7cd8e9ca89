import { Router } from 'express';
import { ok, resultInfo } from '../../../shared/envelope.js';
import { parsePage } from '../../../shared/paging.js';
import type { Services } from '../../../shared/services.js';
import { insertOrganization, listOrganizations } from '../../../shared/tenancy/organization-repository.js';
import { createToken } from '../../../shared/tenancy/token-repository.js';
import { organizationInputSchema } from '../../../shared/tenancy/tenancy-input.js';
import { parseInput } from '../../../shared/validation.js';
import { requireAdmin } from '../auth.js';

/** Platform operator: organizations. The new org comes with a first `manage` token, shown once. */
export function organizationRoutes(services: Services): Router {
  const r = Router();

  r.post('/admin/v1/organizations', requireAdmin, async (req, res) => {
    const body = parseInput(organizationInputSchema, req.body);
    const created = await services.db.transaction(async (tx) => {
      const org = await insertOrganization(tx, body);
      const token = await createToken(tx, org.id, { name: 'initial manage token', scopes: ['manage'] });
      return { id: org.id, slug: org.slug, name: org.name, createdAt: org.createdAt, token: token.token, tokenId: token.id };
    });
    res.status(201).json(ok(created, { messages: ['Store the token now: it is not shown again.'] }));
  });

  r.get('/admin/v1/organizations', requireAdmin, async (req, res) => {
    const page = parsePage(req.query);
    const { items, total } = await listOrganizations(services.db, page);
    res.json(ok(items, { resultInfo: resultInfo(page, total) }));
  });

  return r;
}
