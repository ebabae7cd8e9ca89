import { Router } from 'express';
import { ok } from '../../../shared/envelope.js';
import type { Services } from '../../../shared/services.js';
import { findClientIps, updateClientIps } from '../../../shared/tenancy/organization-repository.js';
import { analyticsSettingsInputSchema } from '../../../shared/tenancy/tenancy-input.js';
import { parseInput } from '../../../shared/validation.js';
import { requireScope, tenantOf } from '../auth.js';

/**
 * What the organization keeps of its visitors' IP addresses in the raw CDN logs (scope `manage`):
 * `full`, `truncated` (IPv4 without its last octet, IPv6 without its last 80 bits) or `none`.
 * Applies to batches accepted from then on; visitor keys and countries are worked out from the
 * whole address before it is cut, so no figure changes.
 */
export function analyticsSettingsRoutes(services: Services): Router {
  const r = Router();
  r.get('/management/v1/analytics-settings', requireScope('manage'), async (req, res) => {
    res.json(ok({ clientIps: (await findClientIps(services.db, tenantOf(req).orgId)) ?? 'full' }));
  });
  r.put('/management/v1/analytics-settings', requireScope('manage'), async (req, res) => {
    const { clientIps } = parseInput(analyticsSettingsInputSchema, req.body);
    await updateClientIps(services.db, tenantOf(req).orgId, clientIps);
    res.json(ok({ clientIps }));
  });
  return r;
}
