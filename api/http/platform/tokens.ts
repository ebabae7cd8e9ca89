import { Router } from 'express';
import { ok, resultInfo } from '../../../shared/envelope.js';
import { parsePage } from '../../../shared/paging.js';
import type { Services } from '../../../shared/services.js';
import { forgetToken } from '../../../shared/tenancy/forget-token.js';
import { createGrantedToken } from '../../../shared/people/token-grants.js';
import { listTokens, revokeToken, rotateToken } from '../../../shared/tenancy/token-repository.js';
import { tokenInputSchema, tokenRotationInputSchema } from '../../../shared/tenancy/tenancy-input.js';
import { parseInput } from '../../../shared/validation.js';
import { requireScope, tenantOf } from '../auth.js';

export function tokenRoutes(services: Services): Router {
  const r = Router();

  r.post('/management/v1/tokens', requireScope('manage'), async (req, res) => {
    const body = parseInput(tokenInputSchema, req.body);
    const created = await createGrantedToken(services.db, tenantOf(req), body);
    res.status(201).json(ok(created, { messages: ['Store the token now: it is not shown again.'] }));
  });

  r.get('/management/v1/tokens', requireScope('manage'), async (req, res) => {
    const page = parsePage(req.query);
    const { items, total } = await listTokens(services.db, tenantOf(req).orgId, page);
    res.json(ok(items, { resultInfo: resultInfo(page, total) }));
  });

  // A new token in place of this one; the old one keeps working until the overlap ends.
  r.post('/management/v1/tokens/:id/rotate', requireScope('manage'), async (req, res) => {
    const body = parseInput(tokenRotationInputSchema, req.body ?? {});
    const orgId = tenantOf(req).orgId;
    const { token, previous, previousHash } = await services.db.transaction((tx) => rotateToken(tx, orgId, String(req.params.id), body));
    // Caches hold the old token without its new expiry: dropped here at once, elsewhere on the
    // bus message (the one a revocation sends) or within the cache TTL.
    await forgetToken(services, req.requestId, String(req.params.id), previousHash);
    res.status(201).json(ok({ ...token, previous }, { messages: ['Store the token now: it is not shown again.', `The old token works until ${previous.expiresAt!.toISOString()}.`] }));
  });

  r.delete('/management/v1/tokens/:id', requireScope('manage'), async (req, res) => {
    const { hash } = await revokeToken(services.db, tenantOf(req).orgId, String(req.params.id));
    await forgetToken(services, req.requestId, String(req.params.id), hash);
    res.json(ok({ id: req.params.id, revoked: true }));
  });

  return r;
}
