import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { randomBase62 } from '../../shared/ids.js';
import { startTestApp, type TestApp, type TestOrg } from '../support/harness.js';

/** The platform operator lists one organization's members: only that organization's, paged, operator only. */

let t: TestApp;
const PASSWORD = 'correct horse battery';

beforeAll(async () => {
  t = await startTestApp();
});
afterAll(() => t?.close());

async function join(org: TestOrg, role: string): Promise<{ email: string; session: string }> {
  const email = `${role}-${randomBase62(6).toLowerCase()}@example.test`;
  const invited = await t.json('/management/v1/invitations', { token: org.manageToken, body: { email, role } });
  await t.json('/auth/invitations/accept', { body: { token: invited.body.result.token, password: PASSWORD } });
  const signed = await t.json('/auth/sign-in', { body: { email, password: PASSWORD, organization: org.slug } });
  expect(signed.status).toBe(200);
  return { email, session: signed.body.result.token };
}

const members = (orgId: string, token = t.adminToken, query = '') => t.json(`/admin/v1/organizations/${orgId}/members${query}`, { token });

describe('GET /admin/v1/organizations/{id}/members', () => {
  it("lists the organization's members with role and source, paged, and no one else's", async () => {
    const org = await t.createOrg('Members');
    const other = await t.createOrg('Other');
    const ann = await join(org, 'owner');
    const bob = await join(org, 'author');
    const eve = await join(other, 'editor');
    // an invitation not accepted yet is no member
    await t.json('/management/v1/invitations', { token: org.manageToken, body: { email: 'pending@example.test', role: 'viewer' } });

    const all = await members(org.orgId);
    expect(all.status).toBe(200);
    expect(all.body.result.map((m: { email: string; role: string; source: string }) => [m.email, m.role, m.source])).toEqual([
      [ann.email, 'owner', 'invitation'],
      [bob.email, 'author', 'invitation'],
    ]);
    expect(all.body.resultInfo).toMatchObject({ totalCount: 2 });
    expect(JSON.stringify(all.body)).not.toContain(eve.email);

    const page2 = await members(org.orgId, t.adminToken, '?pageSize=1&pageIndex=2');
    expect(page2.body.result.map((m: { email: string }) => m.email)).toEqual([bob.email]);
    expect(page2.body.resultInfo).toMatchObject({ totalCount: 2, pageIndex: 2, pageSize: 1, hasPreviousPage: true, hasNextPage: false });
  });

  it("refuses everyone but the operator, and answers 404 for an unknown organization and 400 for bad paging", async () => {
    const org = await t.createOrg('Closed');
    const owner = await join(org, 'owner');
    for (const token of [org.manageToken, owner.session, 'folio_' + 'x'.repeat(40)]) {
      const res = await members(org.orgId, token);
      expect([res.status, res.body.success]).toEqual([401, false]);
    }
    const none = await t.json(`/admin/v1/organizations/${org.orgId}/members`);
    expect(none.status).toBe(401);
    const unknown = await members('no-such-org');
    expect([unknown.status, unknown.body.errors]).toEqual([404, ['Organization not found.']]);
    expect((await members(org.orgId, t.adminToken, '?pageSize=1000')).status).toBe(400);
  });
});
