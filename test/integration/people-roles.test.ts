import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { randomBase62 } from '../../shared/ids.js';
import { startTestApp, type TestApp } from '../support/harness.js';
import { setupOrg, type GqlOrg } from './graphql-support.js';

/**
 * One policy for every door: members act under their role's rules on REST and GraphQL preview;
 * API tokens keep their scopes (manage acts as admin). An author drafts, an editor publishes; a
 * hidden field is absent from REST and GraphQL; a locale-restricted role writes only its locales.
 */

let t: TestApp;
let o: GqlOrg;
const PASSWORD = 'correct horse battery';

/** A member of `o` with `role`, signed in: their session bearer and id. */
async function member(role: string): Promise<{ token: string; id: string }> {
  const email = `${role.replace(/\W/g, '')}-${randomBase62(6).toLowerCase()}@example.test`;
  const invited = await t.json('/management/v1/invitations', { token: o.manage, body: { email, role } });
  expect(invited.status, JSON.stringify(invited.body)).toBe(201);
  await t.json('/auth/invitations/accept', { body: { token: invited.body.result.token, password: PASSWORD } });
  const signed = await t.json('/auth/sign-in', { body: { email, password: PASSWORD } });
  return { token: signed.body.result.token, id: signed.body.result.member.id };
}

const entry = (id: string, fields: Record<string, unknown>, extra: Record<string, unknown> = {}) => ({ model: 'article', siteId: o.siteId, fields, ...extra, id });
const put = (token: string, id: string, body: Record<string, unknown>) => t.json(`/management/v1/entries/${id}`, { method: 'PUT', token, body: { ...body, id: undefined } });

beforeAll(async () => {
  t = await startTestApp();
  o = await setupOrg(t);
  await o.m('POST', '/locales', { code: 'en-US', name: 'English' });
  await o.m('POST', '/locales', { code: 'de-DE', name: 'Deutsch' });
  await o.m('PUT', '/models/article', {
    name: 'Article',
    titleField: 'title',
    fields: [
      { alias: 'title', type: 'text', required: true, localized: true },
      { alias: 'salary', type: 'number' },
      { alias: 'code', type: 'text' },
    ],
  });
  await o.m('PUT', '/entries/seed', { model: 'article', siteId: o.siteId, status: 'PUBLISHED', fields: { title: 'Seed', salary: 100, code: 'S' }, locales: { 'de-DE': { title: 'Saat' } } });
});

afterAll(async () => {
  await t?.close();
});

describe('built-in roles', () => {
  it("an author's publish is 403 while an editor's succeeds; the author cannot delete", async () => {
    const author = await member('author');
    const editor = await member('editor');
    const created = await put(author.token, 'a1', entry('a1', { title: 'Draft by author', code: 'A1' }));
    expect(created.status).toBe(201);
    const publish = await t.json('/management/v1/entries/a1/publish', { method: 'POST', token: author.token });
    expect(publish.status).toBe(403);
    expect(publish.body).toEqual({ success: false, errors: ['Your role may not publish entries of the model "article".'], messages: [], result: null, resultInfo: null });
    expect((await t.json('/management/v1/entries/a1', { method: 'DELETE', token: author.token })).status).toBe(403);
    const published = await t.json('/management/v1/entries/a1/publish', { method: 'POST', token: editor.token });
    expect(published.status).toBe(200);
    expect(published.body.result.status).toBe('PUBLISHED');
  });

  it('a viewer reads drafts (REST and preview GraphQL) but writes nothing; an analyst has no content door', async () => {
    const viewer = await member('viewer');
    expect((await t.json('/management/v1/entries/seed', { token: viewer.token })).status).toBe(200);
    expect((await put(viewer.token, 'v1', entry('v1', { title: 'No' }))).status).toBe(403);
    const gql = await o.q('{ articleCollection{ items { title } } }', undefined, viewer.token);
    expect(gql.status).toBe(200);
    expect(gql.body.data?.articleCollection.items.length).toBeGreaterThan(0);
    const analyst = await member('analyst');
    expect((await t.json('/management/v1/entries', { token: analyst.token })).status).toBe(403);
  });

  it('API tokens keep their scopes: manage acts as admin, preview reads', async () => {
    expect((await t.json('/management/v1/entries/seed/publish', { method: 'POST', token: o.manage })).status).toBe(200);
    const gql = await o.q('{ article(id: "seed") { salary } }', undefined, o.preview);
    expect(gql.body.data?.article.salary).toBe(100);
  });

  it('a developer changes models and tokens but not members; an author neither', async () => {
    const developer = await member('developer');
    const model = await t.json('/management/v1/models/note', { method: 'PUT', token: developer.token, body: { name: 'Note', fields: [{ alias: 'text', type: 'text' }] } });
    expect(model.status).toBeLessThan(300);
    expect((await t.json('/management/v1/tokens', { token: developer.token, body: { name: 'ci', scopes: ['preview'] } })).status).toBe(201);
    expect((await t.json('/management/v1/members', { token: developer.token })).status).toBe(403);
    const author = await member('author');
    expect((await t.json('/management/v1/tokens', { token: author.token })).status).toBe(403);
    expect((await t.json('/management/v1/models/note2', { method: 'PUT', token: author.token, body: { name: 'N', fields: [] } })).status).toBe(403);
  });
});

describe('custom roles', () => {
  it('a hidden field is absent from the role’s REST and preview GraphQL answers, and cannot be written', async () => {
    const role = await t.json('/management/v1/roles', {
      token: o.manage,
      body: { name: `no-salary-${randomBase62(4)}`, rules: { models: { article: { read: true, create: true, update: true, hiddenFields: ['salary'], readOnlyFields: ['code'] } } } },
    });
    expect(role.status).toBe(201);
    const clerk = await member(role.body.result.id);

    const one = await t.json('/management/v1/entries/seed', { token: clerk.token });
    expect(one.status).toBe(200);
    expect(one.body.result.fields).toEqual({ title: 'Seed', code: 'S' });
    const list = await t.json('/management/v1/entries?model=article', { token: clerk.token });
    expect(list.body.result.every((e: { fields: Record<string, unknown> }) => !('salary' in e.fields))).toBe(true);
    const versions = await t.json('/management/v1/entries/seed', { token: o.manage });
    expect(versions.body.result.fields.salary).toBe(100); // the manage token sees it

    const asked = await o.q('{ article(id: "seed") { title salary } }', undefined, clerk.token);
    expect(asked.body.data).toBeUndefined();
    expect(asked.body.errors?.[0].message).toMatch(/Cannot query field "salary"/);
    const filtered = await o.q('{ articleCollection(where: { salary_gt: 1 }) { items { title } } }', undefined, clerk.token);
    expect(filtered.body.errors?.[0].message).toMatch(/salary_gt/);
    const visible = await o.q('{ article(id: "seed") { title code } }', undefined, clerk.token);
    expect(visible.body.data?.article).toEqual({ title: 'Seed', code: 'S' });
    // the full answer of another caller is not served to the role from the response cache
    const full = await o.q('{ article(id: "seed") { title code salary } }', undefined, o.preview);
    expect(full.body.data?.article.salary).toBe(100);

    const hiddenWrite = await t.json('/management/v1/entries/seed', { method: 'PATCH', token: clerk.token, body: { fields: { salary: 1 } } });
    expect([hiddenWrite.status, hiddenWrite.body.errors]).toEqual([403, ['Your role may not write the field(s) "salary" of the model "article".']]);
    expect((await t.json('/management/v1/entries/seed', { method: 'PATCH', token: clerk.token, body: { fields: { code: 'X' } } })).status).toBe(403);
    expect((await t.json('/management/v1/entries/seed', { method: 'PATCH', token: clerk.token, body: { fields: { title: 'Seed!' } } })).status).toBe(200);
    expect((await t.json('/management/v1/export', { token: clerk.token })).status).toBe(403);
  });

  it('a locale-restricted role writes its locale and not another', async () => {
    const role = await t.json('/management/v1/roles', {
      token: o.manage,
      body: { name: `german-${randomBase62(4)}`, rules: { models: { '*': { read: true, update: true } }, locales: ['de-DE'] } },
    });
    const translator = await member(role.body.result.id);
    const german = await t.json('/management/v1/entries/seed', { method: 'PATCH', token: translator.token, body: { locales: { 'de-DE': { title: 'Samen' } } } });
    expect(german.status).toBe(200);
    const english = await t.json('/management/v1/entries/seed', { method: 'PATCH', token: translator.token, body: { fields: { title: 'Seed (en)' } } });
    expect([english.status, english.body.errors]).toEqual([403, ['Your role may not write the locale "en-US".']]);
    const create = await put(translator.token, 'de1', entry('de1', {}, { locales: { 'de-DE': { title: 'Neu' } } }));
    expect(create.status).toBe(403); // no create right
  });

  it('own entries only: an author-like role updates its own entries, not others’', async () => {
    const role = await t.json('/management/v1/roles', {
      token: o.manage,
      body: { name: `own-${randomBase62(4)}`, rules: { models: { article: { read: true, create: true, update: true, publish: true, ownEntriesOnly: true } } } },
    });
    const writer = await member(role.body.result.id);
    expect((await put(writer.token, 'mine', entry('mine', { title: 'Mine' }))).status).toBe(201);
    expect((await t.json('/management/v1/entries/mine', { method: 'PATCH', token: writer.token, body: { fields: { title: 'Mine 2' } } })).status).toBe(200);
    expect((await t.json('/management/v1/entries/mine/publish', { method: 'POST', token: writer.token })).status).toBe(200);
    expect((await t.json('/management/v1/entries/seed', { method: 'PATCH', token: writer.token, body: { fields: { title: 'Theirs' } } })).status).toBe(403);
    const theirs = await t.json('/management/v1/entries/seed/publish', { method: 'POST', token: writer.token });
    expect([theirs.status, theirs.body.errors]).toEqual([403, ['Your role may not publish entries of the model "article" other than its own.']]);
  });

  it('roles are listed with the built-in ones; bad rules are 400, a duplicate name 409, another organization never sees them', async () => {
    const list = await t.json('/management/v1/roles', { token: o.manage });
    expect(list.body.result.slice(0, 7).map((r: { name: string }) => r.name)).toEqual(['owner', 'admin', 'developer', 'editor', 'author', 'viewer', 'analyst']);
    const bad = await t.json('/management/v1/roles', { token: o.manage, body: { name: 'x', rules: { models: { a: { read: 'yes' } } } } });
    expect(bad.status).toBe(400);
    const name = `dup-${randomBase62(4)}`;
    expect((await t.json('/management/v1/roles', { token: o.manage, body: { name, rules: {} } })).status).toBe(201);
    expect((await t.json('/management/v1/roles', { token: o.manage, body: { name, rules: {} } })).status).toBe(409);
    const other = await t.createOrg('Other');
    const theirs = await t.json('/management/v1/roles', { token: other.manageToken });
    expect(theirs.body.result.filter((r: { builtIn: boolean }) => !r.builtIn)).toEqual([]);
    const foreign = await t.json('/management/v1/invitations', { token: other.manageToken, body: { email: 'x@example.test', role: list.body.result[7].id } });
    expect(foreign.status).toBe(422);
  });
});
