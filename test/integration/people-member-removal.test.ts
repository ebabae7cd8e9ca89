import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { randomBase62 } from '../../shared/ids.js';
import { startTestApp, type TestApp, type TestOrg } from '../support/harness.js';

/**
 * Removing a member (`DELETE /management/v1/members/:id`): the membership ends, and with it the
 * member's sessions and personal access tokens in that organization (revoked, so a new invitation
 * does not bring them back); audited as member.removed; only owners remove owners; the last owner
 * stays; another organization's token or member cannot reach it.
 */

let t: TestApp;
let org: TestOrg;
const PASSWORD = 'correct horse battery';
const inADay = () => new Date(Date.now() + 86_400_000).toISOString();

beforeAll(async () => {
  t = await startTestApp({ workers: false });
  org = await t.createOrg('Removal');
});

afterAll(async () => {
  await t?.close();
});

async function member(role: string, o: TestOrg = org) {
  const email = `rm-${role}-${randomBase62(6).toLowerCase()}@example.test`;
  const invited = await t.json('/management/v1/invitations', { token: o.manageToken, body: { email, role } });
  expect(invited.status).toBe(201);
  expect((await t.json('/auth/invitations/accept', { body: { token: invited.body.result.token, password: PASSWORD } })).status).toBe(200);
  const signed = await t.json('/auth/sign-in', { body: { email, password: PASSWORD, organization: o.slug } });
  expect(signed.status).toBe(200);
  return { email, id: signed.body.result.member.id as string, session: signed.body.result.token as string };
}

const remove = (token: string, id: string) => t.json(`/management/v1/members/${id}`, { method: 'DELETE', token });

describe('removing a member', () => {
  it('ends the membership, its sessions and personal access tokens, audited; a new invitation brings no old token back', async () => {
    const m = await member('editor');
    const pat = (await t.json('/auth/tokens', { token: m.session, body: { name: 'ci', expiresAt: inADay() } })).body.result.token as string;
    expect((await t.json('/management/v1/entries', { token: pat })).status).toBe(200);

    const removed = await remove(org.manageToken, m.id);
    expect(removed.status).toBe(200);
    expect(removed.body.result).toMatchObject({ id: m.id, email: m.email, role: 'editor', removed: true });
    expect((await t.json('/management/v1/entries', { token: pat })).status).toBe(401);
    expect((await t.json('/auth/me', { token: m.session })).status).toBe(401);
    const members = await t.json('/management/v1/members?pageSize=100', { token: org.manageToken });
    expect(members.body.result.map((x: { id: string }) => x.id)).not.toContain(m.id);
    expect((await remove(org.manageToken, m.id)).status).toBe(404);

    const audit = await t.json(`/management/v1/audit-log?action=member.removed&subjectId=${m.id}`, { token: org.manageToken });
    expect(audit.body.result).toHaveLength(1);
    expect(audit.body.result[0]).toMatchObject({
      action: 'member.removed',
      actor: { type: 'token' },
      subject: { type: 'member', id: m.id },
      changes: { email: m.email, role: 'editor', sessionsRevoked: 1, tokensRevoked: 1 },
    });

    const again = await t.json('/management/v1/invitations', { token: org.manageToken, body: { email: m.email, role: 'editor' } });
    expect((await t.json('/auth/invitations/accept', { body: { token: again.body.result.token, password: PASSWORD } })).status).toBe(200);
    expect((await t.json('/management/v1/entries', { token: pat })).status).toBe(401);
    expect((await t.json('/auth/me', { token: m.session })).status).toBe(401);
  });

  it('keeps the membership in other organizations', async () => {
    const other = await t.createOrg('Removal elsewhere');
    const m = await member('viewer');
    const invited = await t.json('/management/v1/invitations', { token: other.manageToken, body: { email: m.email, role: 'viewer' } });
    expect((await t.json('/auth/invitations/accept', { body: { token: invited.body.result.token, password: PASSWORD } })).status).toBe(200);
    const elsewhere = (await t.json('/auth/sign-in', { body: { email: m.email, password: PASSWORD, organization: other.slug } })).body.result.token as string;
    expect((await remove(org.manageToken, m.id)).status).toBe(200);
    expect((await t.json('/auth/me', { token: elsewhere })).status).toBe(200);
    expect((await t.json('/auth/sign-in', { body: { email: m.email, password: PASSWORD, organization: org.slug } })).status).toBe(403);
  });

  it('only an owner removes or demotes an owner, and the last owner stays (409)', async () => {
    const o = await t.createOrg('Owners');
    const owner = await member('owner', o);
    const admin = await member('admin', o);
    const refused = await remove(admin.session, owner.id);
    expect([refused.status, refused.body.success, refused.body.errors[0]]).toEqual([403, false, 'Only an owner may remove an owner.']);
    const last = await remove(owner.session, owner.id);
    expect([last.status, last.body.success]).toEqual([409, false]);
    expect(last.body.errors[0]).toMatch(/last owner/);
    expect((await remove(org.manageToken, owner.id)).status).toBe(404); // not of that org
    const lastByToken = await remove(o.manageToken, owner.id);
    expect(lastByToken.status).toBe(409);

    // demoting the last owner is refused likewise; with a second owner it is allowed
    const demote = (token: string, id: string, role: string) => t.json(`/management/v1/members/${id}`, { method: 'PATCH', token, body: { role } });
    const lastDemoted = await demote(owner.session, owner.id, 'admin');
    expect([lastDemoted.status, lastDemoted.body.success]).toEqual([409, false]);
    expect((await demote(admin.session, owner.id, 'viewer')).status).toBe(403);
    const second = await member('owner', o);
    expect((await demote(owner.session, second.id, 'editor')).status).toBe(200);
    expect((await demote(owner.session, second.id, 'owner')).status).toBe(200);
    expect((await remove(second.session, owner.id)).status).toBe(200);
    expect((await remove(second.session, second.id)).status).toBe(409);
    // an admin removes non-owners, themselves included
    expect((await remove(admin.session, admin.id)).status).toBe(200);
    expect((await t.json('/auth/me', { token: admin.session })).status).toBe(401);
  });

  it('refuses members without the members area, other organizations, and bad input', async () => {
    const target = await member('viewer');
    const editor = await member('editor');
    const denied = await remove(editor.session, target.id);
    expect([denied.status, denied.body.success]).toEqual([403, false]);
    const pat = (await t.json('/auth/tokens', { token: editor.session, body: { name: 'x', expiresAt: inADay() } })).body.result.token as string;
    expect((await remove(pat, target.id)).status).toBe(403);

    const other = await t.createOrg('Removal other');
    const foreign = await remove(other.manageToken, target.id);
    expect([foreign.status, foreign.body.success]).toEqual([404, false]);
    const otherOwner = await member('owner', other);
    expect((await remove(otherOwner.session, target.id)).status).toBe(404);
    const delivery = await t.createToken(org.manageToken, ['delivery']);
    expect((await remove(delivery, target.id)).status).toBe(403);
    expect((await t.json(`/management/v1/members/${target.id}`, { method: 'DELETE' })).status).toBe(401);
    for (const [id, status] of [['does-not-exist', 404], ['x'.repeat(300), 404], ['%00', 400]] as const) {
      const res = await remove(org.manageToken, id);
      expect([res.status, res.body.success]).toEqual([status, false]);
    }
    // the target is untouched by every refusal
    expect((await t.json('/auth/me', { token: target.session })).status).toBe(200);
  });
});
