import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildAssetUrl, type UrlAsset } from '../../shared/assets/build-asset-url.js';
import { randomBase62 } from '../../shared/ids.js';
import { startTestApp, type TestApp, type TestOrg } from '../support/harness.js';
import { uploadImage } from './graphql-support.js';

/**
 * `/management/v1/organization`: name, slug and usage at a glance (entries, assets and their
 * bytes, this month's requests and image transforms); deletion only by an owner's session with the
 * slug typed to confirm. Another organization's token sees only its own organization.
 */

const PASSWORD = 'correct horse battery staple';
let t: TestApp;
let a: TestOrg;
let b: TestOrg;

/** A member of `org` with `role`, signed in: the session bearer. */
async function member(org: TestOrg, role: string): Promise<string> {
  const email = `${role}-${randomBase62(6).toLowerCase()}@example.test`;
  const invited = await t.json('/management/v1/invitations', { token: org.manageToken, body: { email, role } });
  expect(invited.status, JSON.stringify(invited.body)).toBe(201);
  expect((await t.json('/auth/invitations/accept', { body: { token: invited.body.result.token, password: PASSWORD } })).status).toBe(200);
  const signed = await t.json('/auth/sign-in', { body: { email, password: PASSWORD, organization: org.slug } });
  expect(signed.status).toBe(200);
  return signed.body.result.token as string;
}

beforeAll(async () => {
  t = await startTestApp();
  a = await t.createOrg('Usage A');
  b = await t.createOrg('Usage B');
}, 60_000);

afterAll(async () => {
  await t?.close();
});

describe('GET /management/v1/organization', () => {
  it('answers name, slug and usage: entries, assets and bytes, requests and transforms this month', async () => {
    const m = (method: string, path: string, body?: unknown) => t.json(`/management/v1${path}`, { method, token: a.manageToken, body });
    const site = (await m('POST', '/sites', { name: 'Main' })).body.result.id as string;
    expect((await m('PUT', '/models/note', { name: 'Note', fields: [{ alias: 'title', type: 'text' }] })).status).toBeLessThan(300);
    for (const id of ['n1', 'n2', 'n3']) expect((await m('PUT', `/entries/${id}`, { model: 'note', siteId: site, fields: { title: id } })).status).toBeLessThan(300);
    const assetId = await uploadImage(t, a.manageToken);
    await t.services.usageMeter.flush();
    const before = (await m('GET', '/organization')).body.result;
    expect(before).toMatchObject({ id: a.orgId, slug: a.slug, name: 'Usage A' });
    expect(before.usage).toMatchObject({ entries: 3, assets: 1, month: `${new Date().toISOString().slice(0, 7)}-01` });
    expect(before.usage.assetBytes).toBeGreaterThan(100);
    // a site, a model, three entries and an upload
    expect(before.usage.requests).toBe(6);

    // three more requests, counted once flushed; B's are not A's
    for (let i = 0; i < 3; i++) await m('GET', '/models');
    await t.json('/management/v1/models', { token: b.manageToken });
    // a derivative made by the image-transform job counts once; its second request is a cache hit
    const asset = (await t.json(`/management/v1/assets/${assetId}`, { token: b.manageToken })).status;
    expect(asset).toBe(404);
    const stored = (await m('GET', `/assets/${assetId}`)).body.result as UrlAsset;
    const url = buildAssetUrl({ asset: stored, orgId: a.orgId, transformation: { width: 40 } }, { baseUrl: t.baseUrl, secret: t.services.secrets.signing, presets: new Map() })!;
    for (let i = 0; i < 2; i++) expect((await fetch(url)).status).toBe(200);
    await t.services.usageMeter.flush();
    const after = (await m('GET', '/organization')).body.result.usage;
    // the GET of `before` and the GET of the asset are counted too (B's refused read is B's)
    expect(after.requests).toBe(before.usage.requests + 5);
    expect(after.imageTransforms).toBe(before.usage.imageTransforms + 1);
  });

  it("another organization's token reads its own organization, never A's", async () => {
    const res = await t.json('/management/v1/organization', { token: b.manageToken });
    expect(res.status).toBe(200);
    expect(res.body.result).toMatchObject({ id: b.orgId, slug: b.slug, usage: { entries: 0, assets: 0 } });
    expect(JSON.stringify(res.body)).not.toContain(a.orgId);
  });

  it('is refused without a token or with a delivery token, in the envelope', async () => {
    const none = await t.json('/management/v1/organization');
    expect(none.status).toBe(401);
    expect(none.body.success).toBe(false);
    const delivery = await t.json('/management/v1/organization', { token: await t.createToken(a.manageToken, ['delivery']) });
    expect(delivery.status).toBe(403);
    expect(delivery.body.errors[0]).toMatch(/manage/);
  });
});

describe('DELETE /management/v1/organization', () => {
  it('refuses manage tokens, admins and bad confirmations; an owner deletes with the slug', async () => {
    const org = await t.createOrg('Doomed');
    const del = (token: string, body: unknown) => t.json('/management/v1/organization', { method: 'DELETE', token, body });

    const token = await del(org.manageToken, { confirm: org.slug });
    expect(token.status).toBe(403);
    expect(token.body.errors[0]).toMatch(/API tokens may not/);
    const admin = await del(await member(org, 'admin'), { confirm: org.slug });
    expect(admin.status).toBe(403);
    expect(admin.body.errors[0]).toMatch(/Only an owner/);

    const owner = await member(org, 'owner');
    const missing = await del(owner, {});
    expect(missing.status).toBe(400);
    expect(missing.body.success).toBe(false);
    expect(missing.body.errors.join(' ')).toMatch(/confirm/);
    const extra = await del(owner, { confirm: org.slug, force: true });
    expect(extra.status).toBe(400);
    const wrong = await del(owner, { confirm: `${org.slug}x` });
    expect(wrong.status).toBe(422);
    expect(wrong.body.errors[0]).toContain(`"${org.slug}"`);
    // another organization's slug does not delete this one, nor that one
    const other = await del(owner, { confirm: b.slug });
    expect(other.status).toBe(422);
    expect((await t.json('/management/v1/organization', { token: b.manageToken })).status).toBe(200);
    expect((await t.json('/management/v1/organization', { token: org.manageToken })).status).toBe(200);

    const done = await del(owner, { confirm: org.slug });
    expect(done.status, JSON.stringify(done.body)).toBe(202);
    expect(done.body.success).toBe(true);
    // from now on its tokens are refused
    const after = await t.json('/management/v1/organization', { token: org.manageToken });
    expect([401, 403]).toContain(after.status);
    expect((await t.json('/management/v1/organization', { token: b.manageToken })).status).toBe(200);
  });
});
