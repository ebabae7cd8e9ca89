import { Router } from 'express';
import { ok, resultInfo } from '../../../shared/envelope.js';
import { parsePage } from '../../../shared/paging.js';
import type { Services } from '../../../shared/services.js';
import { parseInput } from '../../../shared/validation.js';
import { webhookInputSchema, webhookPatchSchema } from '../../../shared/webhooks/webhook-input.js';
import {
  createWebhook,
  getWebhook,
  patchWebhook,
  redeliver,
  removeWebhook,
  rotateSecret,
  webhookDeliveries,
} from '../../../shared/webhooks/webhook-service.js';
import { listWebhooks } from '../../../shared/webhooks/webhook-repository.js';
import { requireScope, tenantOf } from '../auth.js';

/** Webhook subscriptions and their delivery log (scope `manage`); another org's ids are 404. */
export function webhookRoutes(services: Services): Router {
  const r = Router();
  const base = '/management/v1/webhooks';
  const manage = requireScope('manage');

  r.post(base, manage, async (req, res) => {
    const created = await createWebhook(services, tenantOf(req).orgId, parseInput(webhookInputSchema, req.body));
    res.status(201).json(ok(created, { messages: ['Store the secret now: it is not shown again.'] }));
  });

  r.get(base, manage, async (req, res) => {
    const page = parsePage(req.query);
    const { items, total } = await listWebhooks(services.db, tenantOf(req).orgId, page);
    res.json(ok(items, { resultInfo: resultInfo(page, total) }));
  });

  r.get(`${base}/:id`, manage, async (req, res) => {
    res.json(ok(await getWebhook(services, tenantOf(req).orgId, String(req.params.id))));
  });

  r.patch(`${base}/:id`, manage, async (req, res) => {
    const patch = parseInput(webhookPatchSchema, req.body);
    res.json(ok(await patchWebhook(services, tenantOf(req).orgId, String(req.params.id), patch)));
  });

  r.delete(`${base}/:id`, manage, async (req, res) => {
    await removeWebhook(services, tenantOf(req).orgId, String(req.params.id));
    res.json(ok({ id: req.params.id, deleted: true }));
  });

  r.post(`${base}/:id/rotate-secret`, manage, async (req, res) => {
    const rotated = await rotateSecret(services, tenantOf(req).orgId, String(req.params.id));
    res.json(ok(rotated, { messages: ['Store the new secret now: it is not shown again. Until previousSecretValidUntil each delivery is signed with both.'] }));
  });

  r.get(`${base}/:id/deliveries`, manage, async (req, res) => {
    const page = parsePage(req.query);
    const { items, total } = await webhookDeliveries(services, tenantOf(req).orgId, String(req.params.id), page);
    res.json(ok(items, { resultInfo: resultInfo(page, total) }));
  });

  r.post(`${base}/:id/deliveries/:deliveryId/redeliver`, manage, async (req, res) => {
    const delivery = await redeliver(services, tenantOf(req).orgId, String(req.params.id), String(req.params.deliveryId));
    res.status(202).json(ok(delivery, { messages: ['Queued: the same webhook-id and body are sent again.'] }));
  });

  return r;
}
