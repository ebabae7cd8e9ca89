import { Router } from 'express';
import { localeInputSchema, localePatchSchema } from '../../../shared/content/locale-input.js';
import { createLocale, deleteLocale, findLocales, getLocale, patchLocale } from '../../../shared/content/locales.js';
import { ok } from '../../../shared/envelope.js';
import type { Services } from '../../../shared/services.js';
import { parseInput } from '../../../shared/validation.js';
import { requireScope, tenantOf } from '../auth.js';

/** `/management/v1/locales`: the organization's locales, its default and their fallbacks. */
export function localeRoutes(services: Services): Router {
  const r = Router();
  const manage = requireScope('manage');

  r.get('/management/v1/locales', manage, async (req, res) => {
    res.json(ok(await findLocales(services.db, tenantOf(req).orgId)));
  });

  r.post('/management/v1/locales', manage, async (req, res) => {
    const input = parseInput(localeInputSchema, req.body, { what: 'locale' });
    res.status(201).json(ok(await createLocale(services, tenantOf(req).orgId, input)));
  });

  r.get('/management/v1/locales/:code', manage, async (req, res) => {
    res.json(ok(await getLocale(services, tenantOf(req).orgId, req.params.code as string)));
  });

  r.patch('/management/v1/locales/:code', manage, async (req, res) => {
    const patch = parseInput(localePatchSchema, req.body, { what: 'locale patch' });
    res.json(ok(await patchLocale(services, tenantOf(req).orgId, req.params.code as string, patch)));
  });

  r.delete('/management/v1/locales/:code', manage, async (req, res) => {
    await deleteLocale(services, tenantOf(req).orgId, req.params.code as string);
    res.json(ok({ code: req.params.code }));
  });

  return r;
}
