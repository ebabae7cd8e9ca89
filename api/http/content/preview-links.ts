import { Router } from 'express';
import { createPreviewLink, previewLinkInputSchema } from '../../../shared/content/preview-links.js';
import { ok } from '../../../shared/envelope.js';
import type { Services } from '../../../shared/services.js';
import { parseInput } from '../../../shared/validation.js';
import { requireScope, tenantOf } from '../auth.js';

/** `POST /management/v1/entries/:id/preview-link`: the entry's draft on the site, with a short-lived preview token. */
export function previewLinkRoutes(services: Services): Router {
  const r = Router();
  r.post('/management/v1/entries/:id/preview-link', requireScope('manage'), async (req, res) => {
    const input = parseInput(previewLinkInputSchema, req.body ?? {}, { what: 'preview link' });
    res.status(201).json(ok(await createPreviewLink(services, tenantOf(req).orgId, req.params.id as string, input)));
  });
  return r;
}
