import { Router } from 'express';
import { ok, resultInfo } from '../../../shared/envelope.js';
import { parsePage } from '../../../shared/paging.js';
import type { Services } from '../../../shared/services.js';
import { createToken, listTokens, revokeToken } from '../../../shared/tenancy/token-repository.js';
import { tokenInputSchema } from '../../../shared/tenancy/tenancy-input.js';
import { parseInput } from '../../../shared/validation.js';
import { requireScope, tenantOf } from '../auth.js';

export function tokenRoutes(services: Services): Router {
  const r = Router();

  r.post('/management/v1/tokens', requireScope('manage'), async (req, res) => {
    const body = parseInput(tokenInputSchema, req.body);
    const created = await createToken(services.db, tenantOf(req).orgId, body);
    res.status(201).json(ok(created, { messages: ['Store the token now: it is not shown again.'] }));
  });

  r.get('/management/v1/tokens', requireScope('manage'), async (req, res) => {
    const page = parsePage(req.query);
    const { items, total } = await listTokens(services.db, tenantOf(req).orgId, page);
    res.json(ok(items, { resultInfo: resultInfo(page, total) }));
  });

  r.delete('/management/v1/tokens/:id', requireScope('manage'), async (req, res) => {
    const { hash } = await revokeToken(services.db, tenantOf(req).orgId, String(req.params.id));
    // This instance forgets the token at once; the others on the bus message or within the TTL.
    services.auth.evict(hash);
    await services.bus.publish('token-revoked', { tokenId: String(req.params.id), hash: hash.toString('hex') }).catch((err: unknown) => {
      services.logger.warn({ err, requestId: req.requestId }, 'token revocation broadcast failed; other instances drop it within the cache TTL');
    });
    res.json(ok({ id: req.params.id, revoked: true }));
  });

  return r;
}
