import { Router } from 'express';
import { releaseEntriesInputSchema, releaseInputSchema, releaseRunInputSchema } from '../../../shared/content/releases/release-input.js';
import { addReleaseEntries, createRelease, listReleases, requireRelease, startRelease } from '../../../shared/content/releases/releases.js';
import { cancelRelease, deleteRelease } from '../../../shared/content/releases/release-undo.js';
import { ok, resultInfo } from '../../../shared/envelope.js';
import { parsePage } from '../../../shared/paging.js';
import type { Services } from '../../../shared/services.js';
import { parseInput } from '../../../shared/validation.js';
import { requireScope, tenantOf } from '../auth.js';

/** `/management/v1/releases`: entries published or unpublished together, now or at a time. */
export function releaseRoutes(services: Services): Router {
  const r = Router();
  const manage = requireScope('manage');

  r.post('/management/v1/releases', manage, async (req, res) => {
    const input = parseInput(releaseInputSchema, req.body, { what: 'release' });
    res.status(201).json(ok(await createRelease(services, tenantOf(req).orgId, input)));
  });

  r.get('/management/v1/releases', manage, async (req, res) => {
    const page = parsePage(req.query);
    const { items, total } = await listReleases(services.db, tenantOf(req).orgId, page);
    res.json(ok(items, { resultInfo: resultInfo(page, total) }));
  });

  r.get('/management/v1/releases/:id', manage, async (req, res) => {
    res.json(ok(await requireRelease(services, tenantOf(req).orgId, req.params.id as string)));
  });

  r.post('/management/v1/releases/:id/entries', manage, async (req, res) => {
    const input = parseInput(releaseEntriesInputSchema, req.body, { what: 'release entries' });
    res.json(ok(await addReleaseEntries(services, tenantOf(req).orgId, req.params.id as string, input.entries)));
  });

  for (const action of ['publish', 'unpublish'] as const) {
    r.post(`/management/v1/releases/:id/${action}`, manage, async (req, res) => {
      const input = parseInput(releaseRunInputSchema, req.body ?? {}, { what: action });
      const { release, scheduled } = await startRelease(services, tenantOf(req).orgId, req.params.id as string, action, input);
      res.status(scheduled ? 202 : 200).json(ok(release));
    });
  }

  r.post('/management/v1/releases/:id/cancel', manage, async (req, res) => {
    const release = await cancelRelease(services, tenantOf(req).orgId, req.params.id as string);
    res.json(ok(release, { messages: [release.status === 'OPEN' ? 'The schedule is cancelled: the release is open again.' : 'The scheduled unpublish is cancelled: the release stays published.'] }));
  });

  r.delete('/management/v1/releases/:id', manage, async (req, res) => {
    await deleteRelease(services, tenantOf(req).orgId, req.params.id as string);
    res.json(ok({ id: req.params.id, deleted: true }));
  });

  return r;
}
