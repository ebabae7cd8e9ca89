import { Router } from 'express';
import { ok } from '../../../shared/envelope.js';
import { createPersonalToken, listPersonalTokens, revokePersonalToken } from '../../../shared/people/personal-tokens.js';
import type { Services } from '../../../shared/services.js';
import { forgetToken } from '../../../shared/tenancy/forget-token.js';
import { personalTokenInputSchema } from '../../../shared/tenancy/tenancy-input.js';
import { parseInput } from '../../../shared/validation.js';
import { requireSession, tenantOf } from '../auth.js';

/** `/auth/tokens`: the signed-in member's personal access tokens in the session's organization. */
export function personalTokenRoutes(services: Services): Router {
  const r = Router();

  r.post('/auth/tokens', requireSession, async (req, res) => {
    const input = parseInput(personalTokenInputSchema, req.body);
    const tenant = tenantOf(req);
    const created = await createPersonalToken(services.db, tenant.orgId, tenant.member!.id, input);
    res.status(201).json(ok(created, { messages: ['Store the token now: it is not shown again. It acts as you, with your role, until it expires.'] }));
  });

  r.get('/auth/tokens', requireSession, async (req, res) => {
    const tenant = tenantOf(req);
    res.json(ok(await listPersonalTokens(services.db, tenant.orgId, tenant.member!.id)));
  });

  r.delete('/auth/tokens/:id', requireSession, async (req, res) => {
    const tenant = tenantOf(req);
    const { hash } = await revokePersonalToken(services.db, tenant.orgId, tenant.member!.id, String(req.params.id));
    await forgetToken(services, req.requestId, String(req.params.id), hash);
    res.json(ok({ id: req.params.id, revoked: true }));
  });

  return r;
}
