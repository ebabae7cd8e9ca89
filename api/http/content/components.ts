import { Router } from 'express';
import { componentInputSchema } from '../../../shared/content/component-rules.js';
import { deleteComponent, listComponents, putComponent, requireComponent } from '../../../shared/content/components.js';
import { ok } from '../../../shared/envelope.js';
import type { Services } from '../../../shared/services.js';
import { parseInput } from '../../../shared/validation.js';
import { requireScope, tenantOf } from '../auth.js';

/** `/management/v1/components`: create or replace, read, list and delete components (typed groups of fields models use). */
export function componentRoutes(services: Services): Router {
  const r = Router();
  const manage = requireScope('manage');

  r.get('/management/v1/components', manage, async (req, res) => {
    res.json(ok(await listComponents(services.db, tenantOf(req).orgId)));
  });

  r.get('/management/v1/components/:alias', manage, async (req, res) => {
    res.json(ok(await requireComponent(services, tenantOf(req).orgId, req.params.alias as string)));
  });

  r.put('/management/v1/components/:alias', manage, async (req, res) => {
    const input = parseInput(componentInputSchema, req.body, { status: 422, what: 'component' });
    const { component, created } = await putComponent(services, tenantOf(req).orgId, req.params.alias as string, input);
    res.status(created ? 201 : 200).json(ok(component));
  });

  r.delete('/management/v1/components/:alias', manage, async (req, res) => {
    await deleteComponent(services, tenantOf(req).orgId, req.params.alias as string);
    res.json(ok({ alias: req.params.alias }));
  });

  return r;
}
