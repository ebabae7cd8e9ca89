import { Router } from 'express';
import { createEntry, getEntry, listEntries, patchEntry, putEntry } from '../../../shared/content/entries.js';
import { clientIdSchema, entryInputSchema, entryListQuerySchema, entryPatchSchema } from '../../../shared/content/entry-input.js';
import { ok, resultInfo } from '../../../shared/envelope.js';
import { parsePage } from '../../../shared/paging.js';
import type { Services } from '../../../shared/services.js';
import { parseInput } from '../../../shared/validation.js';
import { requireScope, tenantOf } from '../auth.js';
import { expectedVersionOf } from './if-match.js';

/** `/management/v1/entries`: create, replace, merge, read and list entries. */
export function entryRoutes(services: Services): Router {
  const r = Router();
  const manage = requireScope('manage');

  r.post('/management/v1/entries', manage, async (req, res) => {
    const input = parseInput(entryInputSchema, req.body, { what: 'entry' });
    res.status(201).json(ok(await createEntry(services, tenantOf(req).orgId, input)));
  });

  r.put('/management/v1/entries/:id', manage, async (req, res) => {
    const id = parseInput(clientIdSchema, req.params.id, { what: 'entry id' });
    const input = parseInput(entryInputSchema, req.body, { what: 'entry' });
    const { entry, created } = await putEntry(services, tenantOf(req).orgId, id, input, { expectedVersionId: expectedVersionOf(req) });
    res.status(created ? 201 : 200).json(ok(entry));
  });

  r.patch('/management/v1/entries/:id', manage, async (req, res) => {
    const patch = parseInput(entryPatchSchema, req.body, { what: 'entry patch' });
    res.json(ok(await patchEntry(services, tenantOf(req).orgId, req.params.id as string, patch, { expectedVersionId: expectedVersionOf(req) })));
  });

  r.get('/management/v1/entries', manage, async (req, res) => {
    const filter = parseInput(entryListQuerySchema, req.query, { what: 'listing' });
    const page = parsePage(req.query);
    const { items, total } = await listEntries(services, tenantOf(req).orgId, filter, page);
    res.json(ok(items, { resultInfo: resultInfo(page, total) }));
  });

  r.get('/management/v1/entries/:id', manage, async (req, res) => {
    res.json(ok(await getEntry(services, tenantOf(req).orgId, req.params.id as string)));
  });

  return r;
}
