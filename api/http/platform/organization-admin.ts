import { Router } from 'express';
import { ok, resultInfo } from '../../../shared/envelope.js';
import { parsePage } from '../../../shared/paging.js';
import type { Services } from '../../../shared/services.js';
import { announceSuspension, changeSuspension, issueManageToken, organizationMembers, organizationState } from '../../../shared/tenancy/organization-admin.js';
import { enqueueDeletion, requestDeletion } from '../../../shared/tenancy/organization-deletion.js';
import { adminTokenInputSchema, suspensionInputSchema } from '../../../shared/tenancy/tenancy-input.js';
import { parseInput } from '../../../shared/validation.js';
import { requireAdmin } from '../auth.js';

/** Platform operator: one organization — its state, a new manage token, its members, suspension, deletion. */
export function organizationAdminRoutes(services: Services): Router {
  const r = Router();
  const base = '/admin/v1/organizations/:id';
  const deps = { ...services, warn: (err: unknown) => services.logger.warn({ err }, 'suspension broadcast failed; other instances re-read within 2 s') };

  r.get(base, requireAdmin, async (req, res) => {
    res.json(ok(await organizationState(services.db, String(req.params.id))));
  });

  r.post(`${base}/tokens`, requireAdmin, async (req, res) => {
    const body = parseInput(adminTokenInputSchema, req.body ?? {});
    const created = await issueManageToken(services.db, String(req.params.id), body);
    res.status(201).json(ok(created, { messages: ['Store the token now: it is not shown again.'] }));
  });

  r.get(`${base}/members`, requireAdmin, async (req, res) => {
    const page = parsePage(req.query);
    const { items, total } = await organizationMembers(services.db, String(req.params.id), page);
    res.json(ok(items, { resultInfo: resultInfo(page, total) }));
  });

  r.post(`${base}/suspend`, requireAdmin, async (req, res) => {
    const body = parseInput(suspensionInputSchema, req.body ?? {});
    res.json(ok(await changeSuspension(deps, String(req.params.id), { suspend: true, reason: body.reason ?? null })));
  });

  r.post(`${base}/resume`, requireAdmin, async (req, res) => {
    parseInput(suspensionInputSchema.pick({}), req.body ?? {});
    res.json(ok(await changeSuspension(deps, String(req.params.id), { suspend: false })));
  });

  r.delete(base, requireAdmin, async (req, res) => {
    const orgId = String(req.params.id);
    const status = await requestDeletion(services.db, orgId);
    await announceSuspension(deps, orgId);
    await enqueueDeletion(services.queue, orgId, req.requestId);
    res.status(202).setHeader('Location', `/admin/v1/organizations/${encodeURIComponent(orgId)}`);
    res.json(ok(status, { messages: ['Deletion started: poll GET /admin/v1/organizations/{id} until its status is "deleted".'] }));
  });

  return r;
}
