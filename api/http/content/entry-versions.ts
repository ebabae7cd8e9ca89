import { Router } from 'express';
import { versionRetentionPatchSchema } from '../../../shared/content/entry-input.js';
import { entryVersion, entryVersions, restoreVersion } from '../../../shared/content/entry-versions.js';
import { diffVersions } from '../../../shared/content/version-diff.js';
import { hiddenFields, policyActorOf } from '../../../shared/people/policy.js';
import { findVersionRetention, updateVersionRetention } from '../../../shared/content/version-repository.js';
import { ok, resultInfo } from '../../../shared/envelope.js';
import { parsePage } from '../../../shared/paging.js';
import type { Services } from '../../../shared/services.js';
import { parseInput } from '../../../shared/validation.js';
import { requireScope, tenantOf } from '../auth.js';

/** Version history of entries (scope `manage`): list, read, compare two, restore; and the org's retention. */
export function entryVersionRoutes(services: Services): Router {
  const r = Router();
  const manage = requireScope('manage');
  const base = '/management/v1/entries/:id/versions';

  r.get(base, manage, async (req, res) => {
    const page = parsePage(req.query);
    const { items, total } = await entryVersions(services, tenantOf(req).orgId, String(req.params.id), page);
    res.json(ok(items, { resultInfo: resultInfo(page, total) }));
  });
  r.get(`${base}/:versionId`, manage, async (req, res) => {
    res.json(ok(await entryVersion(services, tenantOf(req).orgId, String(req.params.id), String(req.params.versionId))));
  });
  r.get(`${base}/:versionId/diff/:otherId`, manage, async (req, res) => {
    const tenant = tenantOf(req);
    const actor = policyActorOf(tenant);
    const ids = { from: String(req.params.versionId), to: String(req.params.otherId) };
    res.json(ok(await diffVersions(services, tenant.orgId, String(req.params.id), ids, (model) => hiddenFields(actor, model))));
  });
  r.post(`${base}/:versionId/restore`, manage, async (req, res) => {
    const entry = await restoreVersion(services, tenantOf(req).orgId, String(req.params.id), String(req.params.versionId));
    res.json(ok(entry, { messages: ['Restored as the draft (a new version); publish it to make it live.'] }));
  });

  r.get('/management/v1/version-retention', manage, async (req, res) => {
    res.json(ok(await findVersionRetention(services.db, tenantOf(req).orgId)));
  });
  r.patch('/management/v1/version-retention', manage, async (req, res) => {
    const patch = parseInput(versionRetentionPatchSchema, req.body);
    res.json(ok(await updateVersionRetention(services.db, tenantOf(req).orgId, patch)));
  });
  return r;
}
