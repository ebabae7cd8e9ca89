import { Router } from 'express';
import { scheduleInputSchema } from '../../../shared/content/entry-input.js';
import { scheduleEntry, transitionEntry, type Transition } from '../../../shared/content/entry-lifecycle.js';
import { ok } from '../../../shared/envelope.js';
import type { Services } from '../../../shared/services.js';
import { parseInput } from '../../../shared/validation.js';
import { requireScope, tenantOf } from '../auth.js';
import { expectedVersionOf } from './if-match.js';

/** Lifecycle transitions: publish, unpublish, archive, schedule and delete. */
export function entryLifecycleRoutes(services: Services): Router {
  const r = Router();
  const manage = requireScope('manage');

  for (const transition of ['publish', 'unpublish', 'archive'] as const satisfies Transition[]) {
    r.post(`/management/v1/entries/:id/${transition}`, manage, async (req, res) => {
      res.json(ok(await transitionEntry(services, tenantOf(req).orgId, req.params.id as string, transition, { expectedVersionId: expectedVersionOf(req) })));
    });
  }

  r.post('/management/v1/entries/:id/schedule', manage, async (req, res) => {
    const schedule = parseInput(scheduleInputSchema, req.body, { what: 'schedule' });
    res.json(ok(await scheduleEntry(services, tenantOf(req).orgId, req.params.id as string, schedule, { expectedVersionId: expectedVersionOf(req) })));
  });

  // DELETE marks the entry DELETED; it is kept (never hard-deleted by the API).
  r.delete('/management/v1/entries/:id', manage, async (req, res) => {
    res.json(ok(await transitionEntry(services, tenantOf(req).orgId, req.params.id as string, 'delete')));
  });

  return r;
}
