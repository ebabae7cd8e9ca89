import { Router } from 'express';
import { listDef, putListEntries } from '../../../shared/content/lists.js';
import { listEntriesSchema, listInputSchema, listPatchSchema } from '../../../shared/content/resource-input.js';
import { ok } from '../../../shared/envelope.js';
import type { Services } from '../../../shared/services.js';
import { parseInput } from '../../../shared/validation.js';
import { requireScope, tenantOf } from '../auth.js';
import { resourceRoutes } from './resource-routes.js';

/** `/management/v1/lists` and `PUT /lists/:id/entries` (ordered, with display windows). */
export function listRoutes(services: Services): Router {
  const r = resourceRoutes(services, { path: '/management/v1/lists', def: listDef, createSchema: listInputSchema, patchSchema: listPatchSchema });
  r.put('/management/v1/lists/:id/entries', requireScope('manage'), async (req, res) => {
    const body = parseInput(listEntriesSchema, req.body, { what: 'list entries' });
    const items = Array.isArray(body) ? body : body.entries;
    res.json(ok(await putListEntries(services, tenantOf(req).orgId, req.params.id as string, items)));
  });
  return r;
}
