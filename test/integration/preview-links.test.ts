import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { randomBase62 } from '../../shared/ids.js';
import { startTestApp, type TestApp } from '../support/harness.js';
import { setupOrg, type GqlOrg } from './graphql-support.js';

// Preview links: a model's previewUrl template, filled with an entry's values and a short-lived
// token of the preview scope that reads drafts of its organization and nothing else.

let t: TestApp;
let o: GqlOrg;
let other: GqlOrg;
const PASSWORD = 'correct horse battery';
const TEMPLATE = 'https://site.example/{slug}/{title}?preview={token}&id={id}';

const link = (token: string, id: string, body?: unknown) => t.json(`/management/v1/entries/${id}/preview-link`, { method: 'POST', token, body });

async function member(role: string): Promise<string> {
  const email = `${role.replace(/\W/g, '')}-${randomBase62(6).toLowerCase()}@example.test`;
  const invited = await t.json('/management/v1/invitations', { token: o.manage, body: { email, role } });
  expect(invited.status, JSON.stringify(invited.body)).toBe(201);
  await t.json('/auth/invitations/accept', { body: { token: invited.body.result.token, password: PASSWORD } });
  return (await t.json('/auth/sign-in', { body: { email, password: PASSWORD } })).body.result.token as string;
}

beforeAll(async () => {
  t = await startTestApp({ workers: false });
  [o, other] = await Promise.all([setupOrg(t), setupOrg(t)]);
  const fields = [
    { alias: 'title', type: 'text' },
    { alias: 'tags', type: 'tag', valueType: 'list' },
  ];
  await o.m('PUT', '/models/page', { titleField: 'title', fields, previewUrl: TEMPLATE });
  await o.m('PUT', '/models/note', { fields });
  await o.m('PUT', '/entries/home', { model: 'page', siteId: o.siteId, slug: 'home page', fields: { title: 'Hello & welcome' } });
  await o.m('PUT', '/entries/n1', { model: 'note', siteId: o.siteId, fields: { title: 'A note' } });
  await other.m('PUT', '/models/page', { fields, previewUrl: TEMPLATE });
  await other.m('PUT', '/entries/theirs', { model: 'page', siteId: other.siteId, fields: { title: 'Theirs' }, status: 'PUBLISHED' });
});
afterAll(async () => {
  await t?.close();
});

describe('previewUrl in a model definition', () => {
  it('is kept, listed in the model answer, kept when a PUT leaves it out and removed with null', async () => {
    expect((await o.m('GET', '/models/page')).previewUrl).toBe(TEMPLATE);
    expect((await o.m('GET', '/models/note')).previewUrl).toBeNull();
    await o.m('PUT', '/models/page', { titleField: 'title', fields: [{ alias: 'title', type: 'text' }, { alias: 'tags', type: 'tag', valueType: 'list' }] });
    expect((await o.m('GET', '/models/page')).previewUrl).toBe(TEMPLATE);
    await o.m('PUT', '/models/scratch', { fields: [], previewUrl: 'https://x.example/?t={token}' });
    await o.m('PUT', '/models/scratch', { fields: [], previewUrl: null });
    expect((await o.m('GET', '/models/scratch')).previewUrl).toBeNull();
  });

  it('travels in the export, so an import restores it', async () => {
    const res = await fetch(`${t.baseUrl}/management/v1/export`, { headers: { authorization: `Bearer ${o.manage}` } });
    const lines = (await res.text()).trim().split('\n').map((l) => JSON.parse(l) as { type: string; alias?: string; previewUrl?: string });
    const page = lines.find((l) => l.type === 'model' && l.alias === 'page')!;
    expect(page.previewUrl).toBe(TEMPLATE);
    expect(lines.find((l) => l.type === 'model' && l.alias === 'note')).not.toHaveProperty('previewUrl');
    const imported = await t.fetch('/management/v1/import', {
      method: 'POST',
      token: other.manage,
      rawBody: JSON.stringify({ ...page, alias: 'copied' }) + '\n',
      headers: { 'content-type': 'application/x-ndjson' },
    });
    expect(imported.status, await imported.clone().text()).toBeLessThan(300);
    expect((await other.m('GET', '/models/copied')).previewUrl).toBe(TEMPLATE);
  });

  it('refuses a template that is not an absolute http(s) URL with {token}, or names what the model lacks', async () => {
    const cases: [unknown, string][] = [
      ['/relative/{slug}?p={token}', 'previewUrl: must be an absolute http or https URL'],
      ['javascript:alert({token})', 'previewUrl: must be an absolute http or https URL'],
      ['ftp://site.example/{token}', 'previewUrl: must be an absolute http or https URL'],
      ['https://site.example/{slug}', 'previewUrl: must hold the placeholder "{token}"'],
      ['https://site.example/{nope}?p={token}', 'previewUrl: unknown placeholder "{nope}"'],
      ['https://site.example/{tags}?p={token}', 'previewUrl: placeholder "{tags}" names a field whose value is not one'],
      ['https://site.example/{slug?p={token}', 'previewUrl: a brace that is not part of a "{name}" placeholder'],
      [42, 'previewUrl'],
      ['https://site.example/' + 'a'.repeat(2000) + '{token}', 'previewUrl'],
    ];
    for (const [previewUrl, message] of cases) {
      const res = await t.json('/management/v1/models/bad', { method: 'PUT', token: o.manage, body: { fields: [{ alias: 'tags', type: 'tag', valueType: 'list' }], previewUrl } });
      expect(res.status, message).toBe(422);
      expect(res.body.errors.join('\n'), message).toContain(message);
    }
    expect((await t.json('/management/v1/models/bad', { token: o.manage })).status).toBe(404);
  });
});

describe('POST /management/v1/entries/:id/preview-link', () => {
  it('fills the template URL-encoded with a preview token that reads the draft until it expires', async () => {
    const before = Date.now();
    const res = await link(o.manage, 'home');
    expect(res.status, JSON.stringify(res.body)).toBe(201);
    const { url, token, expiresAt } = res.body.result;
    expect(url).toBe(`https://site.example/home%20page/Hello%20%26%20welcome?preview=${encodeURIComponent(token)}&id=home`);
    const lifetime = Date.parse(expiresAt) - before;
    expect(lifetime).toBeGreaterThan(3590_000);
    expect(lifetime).toBeLessThan(3610_000);

    // it reads the draft (delivery would not) of its own organization only
    const q = '{ page(id: "home") { title } }';
    expect(await o.d(q, {}, token)).toEqual({ page: { title: 'Hello & welcome' } });
    expect(await o.d(q, {}, o.delivery)).toEqual({ page: null });
    expect(await o.d('{ page(id: "theirs") { title } }', {}, token)).toEqual({ page: null });
    // and nothing of the management API
    expect((await t.json('/management/v1/entries/home', { token })).status).toBe(403);
    expect((await link(token, 'home')).status).toBe(403);

    // a token that has expired is refused
    const short = await link(o.manage, 'home', { expiresInSeconds: 60 });
    expect(Date.parse(short.body.result.expiresAt) - Date.now()).toBeLessThanOrEqual(60_000);
    await t.services.db.query(`UPDATE tokens SET expires_at = now() - interval '1 second' WHERE id = $1`, [short.body.result.tokenId]);
    const late = await o.q(q, {}, short.body.result.token);
    expect(late.status).toBe(401);
  });

  it('422 for a model without previewUrl, 404 for an unknown or another organization’s entry, 400 for a bad body', async () => {
    const none = await link(o.manage, 'n1');
    expect(none.status).toBe(422);
    expect(none.body.errors[0]).toContain('Model "note" has no previewUrl');
    expect((await link(o.manage, 'missing')).status).toBe(404);
    expect((await link(o.manage, 'theirs')).status).toBe(404);
    expect((await link(other.manage, 'home')).status).toBe(404);
    for (const body of [{ expiresInSeconds: 5 }, { expiresInSeconds: 86_401 }, { expiresInSeconds: 'soon' }, { other: 1 }]) {
      expect((await link(o.manage, 'home', body)).status, JSON.stringify(body)).toBe(400);
    }
    expect((await link(o.delivery, 'home')).status).toBe(403);
    expect((await link(o.preview, 'home')).status).toBe(403);
    expect((await link('folio_sk_nope', 'home')).status).toBe(401);
  });

  it('asks the policy: a viewer may make one, an analyst or a role that hides a field may not', async () => {
    expect((await link(await member('viewer'), 'home')).status).toBe(201);
    const analyst = await link(await member('analyst'), 'home');
    expect(analyst.status).toBe(403);
    const role = await t.json('/management/v1/roles', {
      token: o.manage,
      body: { name: `no-tags-${randomBase62(4)}`, rules: { models: { '*': { read: true, create: true, update: true, hiddenFields: ['tags'] } } } },
    });
    expect(role.status, JSON.stringify(role.body)).toBe(201);
    const hidden = await link(await member(role.body.result.id), 'home');
    expect(hidden.status).toBe(403);
    expect(hidden.body.errors[0]).toContain('a preview link is refused');
  });
});
