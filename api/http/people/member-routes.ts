import { Router } from 'express';
import { ok, resultInfo } from '../../../shared/envelope.js';
import { parsePage } from '../../../shared/paging.js';
import { listMembers, listRoles } from '../../../shared/people/membership-repository.js';
import { invitationInputSchema, memberPatchSchema } from '../../../shared/people/people-input.js';
import { changeMemberRole, createCustomRole, invite } from '../../../shared/people/people-service.js';
import { removeMember } from '../../../shared/people/member-removal.js';
import { BUILT_IN_ROLES, BUILT_IN_RULES, customRoleInputSchema } from '../../../shared/people/roles.js';
import type { Services } from '../../../shared/services.js';
import { parseInput } from '../../../shared/validation.js';
import { requireArea, tenantOf } from '../auth.js';

/** `/management/v1/invitations`, `/members`, `/roles`: the members settings area. */
export function memberRoutes(services: Services): Router {
  const r = Router();
  const members = requireArea('members');

  r.post('/management/v1/invitations', members, async (req, res) => {
    const input = parseInput(invitationInputSchema, req.body);
    const tenant = tenantOf(req);
    const invitation = await invite(services, tenant.orgId, { member: tenant.member }, input);
    const messages = [invitation.emailed ? `The invitation was emailed to ${invitation.email}.` : 'No mail is sent (SMTP_URL is not set): hand the link over yourself.'];
    res.status(201).json(ok(invitation, { messages }));
  });

  r.get('/management/v1/members', members, async (req, res) => {
    const page = parsePage(req.query);
    const { items, total } = await listMembers(services.db, tenantOf(req).orgId, page);
    res.json(ok(items, { resultInfo: resultInfo(page, total) }));
  });

  r.patch('/management/v1/members/:id', members, async (req, res) => {
    const { role } = parseInput(memberPatchSchema, req.body);
    const tenant = tenantOf(req);
    res.json(ok(await changeMemberRole(services, tenant.orgId, { member: tenant.member }, String(req.params.id), role)));
  });

  r.delete('/management/v1/members/:id', members, async (req, res) => {
    const tenant = tenantOf(req);
    const removed = await removeMember(services, tenant.orgId, { member: tenant.member }, String(req.params.id));
    res.json(ok({ ...removed, removed: true }, { messages: ["The member's sessions and personal access tokens in this organization are revoked."] }));
  });

  r.get('/management/v1/roles', members, async (req, res) => {
    const custom = await listRoles(services.db, tenantOf(req).orgId);
    const builtIn = BUILT_IN_ROLES.map((name) => ({ id: name, name, builtIn: true, rules: BUILT_IN_RULES[name] }));
    res.json(ok([...builtIn, ...custom.map((c) => ({ ...c, id: `custom:${c.id}`, builtIn: false }))]));
  });

  r.post('/management/v1/roles', members, async (req, res) => {
    const input = parseInput(customRoleInputSchema, req.body, { what: 'role' });
    const orgId = tenantOf(req).orgId;
    const role = await createCustomRole(services, orgId, input);
    res.status(201).json(ok({ ...role, id: `custom:${role.id}`, builtIn: false }));
  });

  return r;
}
