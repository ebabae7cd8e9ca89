import { Router } from 'express';
import { ok } from '../../../shared/envelope.js';
import type { Services } from '../../../shared/services.js';
import { findAllowedOrigins, updateAllowedOrigins } from '../../../shared/tenancy/organization-repository.js';
import { allowedOriginsInputSchema } from '../../../shared/tenancy/tenancy-input.js';
import { parseInput } from '../../../shared/validation.js';
import { requireScope, tenantOf } from '../auth.js';

/**
 * The web origins whose pages may call Folio with the organization's tokens (scope `manage`).
 * A change reaches every instance within the token cache's lifetime (TOKEN_CACHE_TTL_MS, 5 s).
 */
export function allowedOriginRoutes(services: Services): Router {
  const r = Router();
  r.get('/management/v1/allowed-origins', requireScope('manage'), async (req, res) => {
    res.json(ok({ allowedOrigins: await findAllowedOrigins(services.db, tenantOf(req).orgId) }));
  });
  r.put('/management/v1/allowed-origins', requireScope('manage'), async (req, res) => {
    const { allowedOrigins } = parseInput(allowedOriginsInputSchema, req.body);
    await updateAllowedOrigins(services.db, tenantOf(req).orgId, allowedOrigins);
    res.json(ok({ allowedOrigins }, { messages: ['Every instance applies the change within 5 seconds.'] }));
  });
  return r;
}
