import { Router } from 'express';
import type { z } from 'zod';
import { createResource, listResourcePage, patchResource, readResource, removeResource, type ResourceDef } from '../../../shared/content/resources.js';
import { ok, resultInfo } from '../../../shared/envelope.js';
import { parsePage } from '../../../shared/paging.js';
import type { Services } from '../../../shared/services.js';
import { parseInput } from '../../../shared/validation.js';
import { requireScope, tenantOf } from '../auth.js';

export interface ResourceRouteOptions {
  /** Collection path, e.g. `/management/v1/sections`. */
  path: string;
  def: ResourceDef;
  createSchema: z.ZodType<Record<string, unknown> & { id?: string }>;
  patchSchema: z.ZodType<Record<string, unknown>>;
}

/** POST, GET (paged), GET one, PATCH and DELETE for one simple resource. */
export function resourceRoutes(services: Services, o: ResourceRouteOptions): Router {
  const r = Router();
  const manage = requireScope('manage');
  const what = o.def.name.toLowerCase();

  r.post(o.path, manage, async (req, res) => {
    const input = parseInput(o.createSchema, req.body, { what });
    res.status(201).json(ok(await createResource(services, o.def, tenantOf(req).orgId, input)));
  });

  r.get(o.path, manage, async (req, res) => {
    const page = parsePage(req.query);
    const { items, total } = await listResourcePage(services, o.def, tenantOf(req).orgId, page);
    res.json(ok(items, { resultInfo: resultInfo(page, total) }));
  });

  r.get(`${o.path}/:id`, manage, async (req, res) => {
    res.json(ok(await readResource(services, o.def, tenantOf(req).orgId, req.params.id as string)));
  });

  r.patch(`${o.path}/:id`, manage, async (req, res) => {
    const values = parseInput(o.patchSchema, req.body, { what });
    res.json(ok(await patchResource(services, o.def, tenantOf(req).orgId, req.params.id as string, values)));
  });

  r.delete(`${o.path}/:id`, manage, async (req, res) => {
    await removeResource(services, o.def, tenantOf(req).orgId, req.params.id as string);
    res.json(ok({ id: req.params.id }));
  });

  return r;
}
