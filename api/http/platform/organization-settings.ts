import { Router } from 'express';
import { ok } from '../../../shared/envelope.js';
import { unprocessable } from '../../../shared/errors/index.js';
import { authorizeOrganizationDeletion } from '../../../shared/people/request-policy.js';
import type { Services } from '../../../shared/services.js';
import { announceSuspension, organizationState } from '../../../shared/tenancy/organization-admin.js';
import { enqueueDeletion, requestDeletion } from '../../../shared/tenancy/organization-deletion.js';
import { organizationUsage } from '../../../shared/tenancy/organization-usage.js';
import { organizationDeletionInputSchema } from '../../../shared/tenancy/tenancy-input.js';
import { parseInput } from '../../../shared/validation.js';
import { requireScope, tenantOf } from '../auth.js';

/**
 * `/management/v1/organization`: the caller's own organization — its name, slug and usage at a
 * glance (any member, any manage token), and its deletion (an owner's session, with the slug typed
 * to confirm). Deletion runs as the operator's does: suspended at once, removed by a job.
 */
export function organizationSettingsRoutes(services: Services): Router {
  const r = Router();
  const path = '/management/v1/organization';
  const manage = requireScope('manage');
  const deps = { ...services, warn: (err: unknown) => services.logger.warn({ err }, 'suspension broadcast failed; other instances re-read within 2 s') };

  r.get(path, manage, async (req, res) => {
    const { orgId } = tenantOf(req);
    const [state, usage] = await Promise.all([organizationState(services.db, orgId), organizationUsage(services.db, orgId)]);
    res.json(ok({ id: state.id, slug: state.slug, name: 'name' in state ? state.name : null, usage }));
  });

  r.delete(path, manage, async (req, res) => {
    const tenant = tenantOf(req);
    authorizeOrganizationDeletion(tenant);
    const { confirm } = parseInput(organizationDeletionInputSchema, req.body ?? {});
    if (confirm !== tenant.orgSlug) throw unprocessable(`The confirmation does not match: type the organization's slug, "${tenant.orgSlug}", exactly.`);
    const status = await requestDeletion(services.db, tenant.orgId);
    await announceSuspension(deps, tenant.orgId);
    await enqueueDeletion(services.queue, tenant.orgId, req.requestId);
    res.status(202).json(ok(status, { messages: ['Deletion started: every token and session of the organization is refused from now on.'] }));
  });

  return r;
}
