import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { randomBase62 } from '../../shared/ids.js';
import { isCredentialLive } from '../../shared/tenancy/credential-liveness.js';
import { hashToken } from '../../shared/tenancy/token-format.js';
import { findActiveToken } from '../../shared/tenancy/token-repository.js';
import { startTestApp, type TestApp } from '../support/harness.js';
import { setupOrg, type GqlOrg } from './graphql-support.js';

/**
 * Members' personal access tokens (they act as the member under the membership's current role,
 * always expire, are listed and revoked by the member, and cannot manage the account) and API
 * tokens that carry a role instead of scopes (the one policy decides; a member or role token
 * gives a new token no more rights than its own; scopes keep working).
 */

let t: TestApp;
let o: GqlOrg;
const PASSWORD = 'correct horse battery';
const inADay = () => new Date(Date.now() + 86_400_000).toISOString();

beforeAll(async () => {
  t = await startTestApp();
  o = await setupOrg(t);
  await o.m('PUT', '/models/article', { name: 'Article', titleField: 'title', fields: [{ alias: 'title', type: 'text', required: true }, { alias: 'salary', type: 'number' }] });
});

afterAll(async () => {
  await t?.close();
});

async function member(role: string) {
  const email = `${role}-${randomBase62(6).toLowerCase()}@example.test`;
  const invited = await t.json('/management/v1/invitations', { token: o.manage, body: { email, role } });
  await t.json('/auth/invitations/accept', { body: { token: invited.body.result.token, password: PASSWORD } });
  const signed = await t.json('/auth/sign-in', { body: { email, password: PASSWORD } });
  expect(signed.status).toBe(200);
  return { email, id: signed.body.result.member.id as string, session: signed.body.result.token as string };
}

const putEntry = (token: string, id: string, title = 'A title') =>
  t.json(`/management/v1/entries/${id}`, { method: 'PUT', token, body: { model: 'article', siteId: o.siteId, fields: { title, salary: 1 } } });
const publish = (token: string, id: string) => t.json(`/management/v1/entries/${id}/publish`, { method: 'POST', token });

describe('personal access tokens', () => {
  it('act as the member, with the role of the membership at the time of use', async () => {
    const m = await member('author');
    const created = await t.json('/auth/tokens', { token: m.session, body: { name: 'laptop', expiresAt: inADay() } });
    expect(created.status).toBe(201);
    const pat = created.body.result.token as string;
    expect(pat).toMatch(/^folio_/);
    expect((await t.json('/auth/me', { token: pat })).body.result).toMatchObject({ email: m.email, role: 'author', credential: 'personal-token', secondFactor: false });

    expect((await putEntry(pat, 'pat-1')).status).toBe(201);
    expect((await publish(pat, 'pat-1')).status).toBe(403);
    const audit = await t.json('/management/v1/audit-log?subjectId=pat-1', { token: o.manage });
    expect(audit.body.result[0]).toMatchObject({ action: 'entry.created', actor: { type: 'member', id: m.id, name: m.email } });

    // the role follows the membership (within the token cache's 5 s)
    expect((await t.json(`/management/v1/members/${m.id}`, { method: 'PATCH', token: o.manage, body: { role: 'editor' } })).status).toBe(200);
    await expect.poll(async () => (await publish(pat, 'pat-1')).status, { timeout: 8000, interval: 500 }).toBe(200);
  });

  it('stay live for an open subscription until revoked (they are rows of tokens, not sessions)', async () => {
    const m = await member('editor');
    const created = await t.json('/auth/tokens', { token: m.session, body: { name: 'preview', expiresAt: inADay() } });
    const found = await findActiveToken(t.services.db, hashToken(created.body.result.token));
    expect(found?.identity.member?.credential).toBe('personal-token');
    expect(await isCredentialLive(t.services.db, found!.identity)).toBe(true);
    expect((await t.json(`/auth/tokens/${created.body.result.id}`, { method: 'DELETE', token: m.session })).status).toBeLessThan(300);
    expect(await isCredentialLive(t.services.db, found!.identity)).toBe(false);
  });

  it('are listed and revoked by their member only, and cannot manage the account', async () => {
    const m = await member('editor');
    const other = await member('editor');
    const created = await t.json('/auth/tokens', { token: m.session, body: { name: 'ci', expiresAt: inADay() } });
    const { id, token } = created.body.result;
    const list = await t.json('/auth/tokens', { token: m.session });
    expect(list.body.result.map((x: { id: string }) => x.id)).toEqual([id]);
    expect(JSON.stringify(list.body)).not.toContain(token);
    expect((await t.json('/auth/tokens', { token: other.session })).body.result).toEqual([]);

    for (const [method, path, body] of [
      ['POST', '/auth/tokens', { name: 'more', expiresAt: inADay() }],
      ['GET', '/auth/sessions', undefined],
      ['POST', '/auth/totp/enroll', undefined],
      ['DELETE', `/auth/tokens/${id}`, undefined],
    ] as const) {
      const res = await t.json(path, { method, token, body });
      expect([res.status, res.body.errors, path]).toEqual([403, ['This route needs a signed-in session (POST /auth/sign-in), not a personal access token.'], path]);
    }
    expect((await t.json(`/auth/tokens/${id}`, { method: 'DELETE', token: other.session })).status).toBe(404);
    expect((await t.json('/auth/me', { token })).status).toBe(200);
    expect((await t.json(`/auth/tokens/${id}`, { method: 'DELETE', token: m.session })).status).toBe(200);
    const after = await t.json('/auth/me', { token });
    expect([after.status, after.body.errors]).toEqual([401, ['The access token is unknown or revoked.']]);
    expect((await t.json('/auth/tokens', { token: m.session })).body.result).toEqual([]);
  });

  it('must expire: bad input is 400, and an expired token is 401 saying so', async () => {
    const m = await member('viewer');
    for (const body of [
      { name: 'x' },
      { name: 'x', expiresAt: new Date(Date.now() - 1000).toISOString() },
      { name: 'x', expiresAt: new Date(Date.now() + 400 * 86_400_000).toISOString() },
      { name: '', expiresAt: inADay() },
      { name: 'x', expiresAt: inADay(), scopes: ['manage'] },
    ]) {
      expect([(await t.json('/auth/tokens', { token: m.session, body })).status, body]).toEqual([400, body]);
    }
    const created = await t.json('/auth/tokens', { token: m.session, body: { name: 'short', expiresAt: inADay() } });
    await t.services.db.query(`UPDATE tokens SET expires_at = now() - interval '1 second' WHERE id = $1`, [created.body.result.id]);
    const expired = await t.json('/auth/me', { token: created.body.result.token });
    expect(expired.status).toBe(401);
    expect(expired.body.errors[0]).toMatch(/^The access token expired at /);
  });

  it("are refused to API tokens and another organization's members", async () => {
    const m = await member('editor');
    const created = await t.json('/auth/tokens', { token: m.session, body: { name: 'mine', expiresAt: inADay() } });
    const other = await setupOrg(t);
    expect((await t.json('/auth/tokens', { token: other.manage })).status).toBe(403);
    expect((await t.json(`/auth/tokens/${created.body.result.id}`, { method: 'DELETE', token: other.manage })).status).toBe(403);
    // another organization's manage token cannot revoke it either (404: not its token)
    expect((await t.json(`/management/v1/tokens/${created.body.result.id}`, { method: 'DELETE', token: other.manage })).status).toBe(404);
    expect((await t.json('/auth/me', { token: created.body.result.token })).status).toBe(200);
  });
});

describe('API tokens with a role', () => {
  it('act under the role: an author token drafts but cannot publish; an editor token publishes', async () => {
    const author = await t.json('/management/v1/tokens', { token: o.manage, body: { name: 'drafts bot', role: 'author' } });
    expect(author.status).toBe(201);
    expect(author.body.result).toMatchObject({ role: 'author', scopes: [], personId: null });
    const editor = await t.json('/management/v1/tokens', { token: o.manage, body: { name: 'publisher', role: 'editor' } });
    expect((await putEntry(author.body.result.token, 'role-1')).status).toBe(201);
    const refused = await publish(author.body.result.token, 'role-1');
    expect([refused.status, refused.body.errors]).toEqual([403, ['Your role may not publish entries of the model "article".']]);
    expect((await publish(editor.body.result.token, 'role-1')).status).toBe(200);
    // scope tokens keep working as before
    expect((await publish(o.manage, 'role-1')).status).toBe(200);
  });

  it('a custom role hides its hidden fields from REST and GraphQL preview', async () => {
    const role = await t.json('/management/v1/roles', { token: o.manage, body: { name: `no-salary-${randomBase62(4)}`, rules: { models: { '*': { read: true, hiddenFields: ['salary'] } } } } });
    expect(role.status).toBe(201);
    const token = (await t.json('/management/v1/tokens', { token: o.manage, body: { name: 'reader', role: role.body.result.id } })).body.result.token;
    await putEntry(o.manage, 'role-2', 'Hidden salary');
    const rest = await t.json('/management/v1/entries/role-2', { token });
    expect(rest.status).toBe(200);
    expect(rest.body.result.fields).toEqual({ title: 'Hidden salary' });
    const gql = await o.q('{ articleCollection { items { title } } }', undefined, token);
    expect(gql.status).toBe(200);
    const withSalary = await o.q('{ articleCollection { items { title salary } } }', undefined, token);
    expect(JSON.stringify(withSalary.body.errors ?? [])).toMatch(/salary/);
  });

  it('refuses bad input, owner, and more rights than the creator has', async () => {
    for (const [body, status] of [
      [{ name: 'x' }, 400],
      [{ name: 'x', scopes: ['manage'], role: 'editor' }, 400],
      [{ name: 'x', role: '' }, 400],
      [{ name: 'x', role: 'owner' }, 422],
      [{ name: 'x', role: 'nobody' }, 422],
      [{ name: 'x', role: 'editor', publishable: true }, 400],
    ] as const) {
      expect([(await t.json('/management/v1/tokens', { token: o.manage, body })).status, body]).toEqual([status, body]);
    }
    const developer = await member('developer');
    for (const body of [{ name: 'x', role: 'admin' }, { name: 'x', role: 'editor' }, { name: 'x', scopes: ['manage'] }]) {
      const res = await t.json('/management/v1/tokens', { token: developer.session, body });
      expect([res.status, res.body.errors, body]).toEqual([403, ['Your role may not create a token with rights it does not have.'], body]);
    }
    expect((await t.json('/management/v1/tokens', { token: developer.session, body: { name: 'ok', role: 'viewer' } })).status).toBe(201);
    expect((await t.json('/management/v1/tokens', { token: developer.session, body: { name: 'ok', scopes: ['preview'] } })).status).toBe(201);
    // a role token with the tokens area gives no more than its role either
    const devToken = (await t.json('/management/v1/tokens', { token: o.manage, body: { name: 'dev', role: 'developer' } })).body.result.token;
    expect((await t.json('/management/v1/tokens', { token: devToken, body: { name: 'x', role: 'admin' } })).status).toBe(403);
    expect((await t.json('/management/v1/tokens', { token: devToken, body: { name: 'x', role: 'viewer' } })).status).toBe(201);
  });

  it("another organization's token cannot see or revoke it, and a rotation keeps the role", async () => {
    const created = await t.json('/management/v1/tokens', { token: o.manage, body: { name: 'rot', role: 'viewer' } });
    const other = await setupOrg(t);
    expect((await t.json(`/management/v1/tokens/${created.body.result.id}`, { method: 'DELETE', token: other.manage })).status).toBe(404);
    expect((await t.json('/management/v1/tokens', { token: other.manage })).body.result.some((x: { id: string }) => x.id === created.body.result.id)).toBe(false);
    const rotated = await t.json(`/management/v1/tokens/${created.body.result.id}/rotate`, { token: o.manage, body: { overlapSeconds: 0 } });
    expect(rotated.status).toBe(201);
    expect(rotated.body.result).toMatchObject({ role: 'viewer', scopes: [] });
    expect((await t.json('/management/v1/entries', { token: rotated.body.result.token })).status).toBe(200);
    expect((await putEntry(rotated.body.result.token, 'role-3')).status).toBe(403);
  });
});
