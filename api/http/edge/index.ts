import { Router } from 'express';
import { ok, resultInfo } from '../../../shared/envelope.js';
import { deliverySettingsPatchSchema, persistedDocumentsInputSchema, purgeTargetInputSchema, purgeTargetPatchSchema } from '../../../shared/edge/edge-input.js';
import { deleteDocument, listDocuments } from '../../../shared/edge/persisted-document-repository.js';
import { registerPersistedDocuments } from '../../../shared/edge/persisted-document-service.js';
import {
  createPurgeTarget,
  getPurgeTarget,
  listPurgeTargets,
  patchPurgeTarget,
  purgeTargetDeliveries,
  removePurgeTarget,
} from '../../../shared/edge/purge-target-service.js';
import { parsePage } from '../../../shared/paging.js';
import type { Services } from '../../../shared/services.js';
import { updateDeliverySettings } from '../../../shared/tenancy/organization-repository.js';
import { checkWatermark } from '../../../shared/assets/image-watermark.js';
import { parseInput } from '../../../shared/validation.js';
import { requireScope, tenantOf } from '../auth.js';

/**
 * Edge delivery settings (scope `manage`): HTTP caching and trusted documents of GraphQL
 * delivery, the registered documents, and the CDN purge targets fed by content events. Another
 * org's ids are 404.
 */
export function edgeRoutes(services: Services): Router {
  const r = Router();
  const manage = requireScope('manage');
  const APPLIED = 'Every instance applies the change within 5 seconds.';

  r.get('/management/v1/delivery-settings', manage, async (req, res) => {
    res.json(ok(await updateDeliverySettings(services.db, tenantOf(req).orgId, {})));
  });
  r.patch('/management/v1/delivery-settings', manage, async (req, res) => {
    const patch = parseInput(deliverySettingsPatchSchema, req.body);
    await checkWatermark(services.db, tenantOf(req).orgId, patch.imageWatermark);
    res.json(ok(await updateDeliverySettings(services.db, tenantOf(req).orgId, patch), { messages: [APPLIED] }));
  });

  const docs = '/management/v1/persisted-documents';
  r.post(docs, manage, async (req, res) => {
    const result = await registerPersistedDocuments(services.db, tenantOf(req).orgId, parseInput(persistedDocumentsInputSchema, req.body));
    res.status(201).json(ok(result, { messages: [APPLIED] }));
  });
  r.get(docs, manage, async (req, res) => {
    const page = parsePage(req.query);
    const { items, total } = await listDocuments(services.db, tenantOf(req).orgId, page);
    res.json(ok(items, { resultInfo: resultInfo(page, total) }));
  });
  r.delete(`${docs}/:id`, manage, async (req, res) => {
    await deleteDocument(services.db, tenantOf(req).orgId, String(req.params.id));
    res.json(ok({ id: req.params.id, deleted: true }, { messages: [APPLIED] }));
  });

  const targets = '/management/v1/purge-targets';
  r.post(targets, manage, async (req, res) => {
    res.status(201).json(ok(await createPurgeTarget(services, tenantOf(req).orgId, parseInput(purgeTargetInputSchema, req.body))));
  });
  r.get(targets, manage, async (req, res) => {
    const page = parsePage(req.query);
    const { items, total } = await listPurgeTargets(services, tenantOf(req).orgId, page);
    res.json(ok(items, { resultInfo: resultInfo(page, total) }));
  });
  r.get(`${targets}/:id`, manage, async (req, res) => {
    res.json(ok(await getPurgeTarget(services, tenantOf(req).orgId, String(req.params.id))));
  });
  r.patch(`${targets}/:id`, manage, async (req, res) => {
    const patch = parseInput(purgeTargetPatchSchema, req.body);
    res.json(ok(await patchPurgeTarget(services, tenantOf(req).orgId, String(req.params.id), patch)));
  });
  r.delete(`${targets}/:id`, manage, async (req, res) => {
    await removePurgeTarget(services, tenantOf(req).orgId, String(req.params.id));
    res.json(ok({ id: req.params.id, deleted: true }));
  });
  r.get(`${targets}/:id/deliveries`, manage, async (req, res) => {
    const page = parsePage(req.query);
    const { items, total } = await purgeTargetDeliveries(services, tenantOf(req).orgId, String(req.params.id), page);
    res.json(ok(items, { resultInfo: resultInfo(page, total) }));
  });
  return r;
}
