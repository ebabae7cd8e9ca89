import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { randomBase62 } from '../../shared/ids.js';
import { startTestApp, type TestApp } from '../support/harness.js';
import { setupOrg, uploadImage, type GqlOrg } from './graphql-support.js';

/**
 * The entries list as the Studio asks for it: filtered by locale, label, author and asset (where
 * an asset is used), ordered by updated, created, title or status in either direction. Bad values
 * are 400 in the envelope; another organization's token finds none of it; a role that may not
 * read a model does not see its entries among an asset's uses.
 */

let t: TestApp;
let o: GqlOrg;
let image: string;
let label: string;
let author: string;
const PASSWORD = 'correct horse battery';

const list = async (query: string, token = o.manage) => t.json(`/management/v1/entries?${query}`, { token });
const ids = async (query: string, token = o.manage) => {
  const res = await list(query, token);
  expect(res.status, JSON.stringify(res.body)).toBe(200);
  return (res.body.result as { id: string }[]).map((e) => e.id);
};

beforeAll(async () => {
  t = await startTestApp();
  o = await setupOrg(t);
  await o.m('POST', '/locales', { code: 'en', name: 'English' });
  await o.m('POST', '/locales', { code: 'fr', name: 'Français' });
  await o.m('PUT', '/models/article', {
    name: 'Article',
    titleField: 'title',
    fields: [
      { alias: 'title', type: 'text', localized: true },
      { alias: 'cover', type: 'media' },
      { alias: 'byline', type: 'author' },
      { alias: 'body', type: 'richcontent' },
    ],
  });
  await o.m('PUT', '/models/secret', { name: 'Secret', titleField: 'title', fields: [{ alias: 'title', type: 'text' }, { alias: 'cover', type: 'media' }] });
  image = await uploadImage(t, o.manage);
  label = (await o.m('POST', '/labels', { name: 'Featured' })).id;
  author = (await o.m('POST', '/authors', { byline: 'Ada' })).id;
  const put = (id: string, body: Record<string, unknown>) => o.m('PUT', `/entries/${id}`, { siteId: o.siteId, model: 'article', ...body });
  // created in this order: b, a, c, d, s
  await put('b', { fields: { title: 'banana', cover: image }, labels: [label] });
  await put('a', { fields: { title: 'Apple', byline: author }, locales: { fr: { title: 'Pomme' } } });
  await put('c', {
    fields: { title: 'cherry', body: { type: 'doc', content: [{ type: 'cms_media', attrs: { id: image } }] } },
    labels: [label],
  });
  await put('d', { fields: {} });
  await put('s', { model: 'secret', fields: { title: 'Secret plan', cover: image } });
  await o.m('POST', '/entries/c/publish');
  // a is the last changed
  await o.m('PATCH', '/entries/a', { fields: { title: 'Apple' } });
});

afterAll(async () => {
  await t?.close();
});

describe('GET /management/v1/entries filters', () => {
  it('by label, author, asset (media field, media block, any model) and locale', async () => {
    expect(await ids(`label=${label}`)).toEqual(['b', 'c']);
    expect(await ids(`author=${author}`)).toEqual(['a']);
    expect(await ids(`asset=${image}`)).toEqual(['b', 'c', 's']);
    expect(await ids(`asset=${image}&model=article`)).toEqual(['b', 'c']);
    expect(await ids('hasLocale=fr')).toEqual(['a']);
    // every entry has the default locale
    expect(await ids('hasLocale=en')).toEqual(['b', 'a', 'c', 'd', 's']);
    const res = await list(`label=${label}&author=${author}`);
    expect([res.body.result, res.body.resultInfo.totalCount]).toEqual([[], 0]);
  });

  it('sorts by title, status, created and updated, both ways, ties in creation order', async () => {
    expect(await ids('sort=title&model=article')).toEqual(['a', 'b', 'c', 'd']);
    expect(await ids('sort=title&order=desc&model=article')).toEqual(['d', 'c', 'b', 'a']);
    expect(await ids('sort=createdAt')).toEqual(['s', 'd', 'c', 'a', 'b']);
    expect(await ids('sort=createdAt&order=asc')).toEqual(['b', 'a', 'c', 'd', 's']);
    expect((await ids('sort=updatedAt'))[0]).toBe('a');
    expect((await ids('sort=updatedAt&order=asc')).at(-1)).toBe('a');
    expect(await ids('sort=status&model=article')).toEqual(['b', 'a', 'd', 'c']);
    // paging walks the sorted order without overlap
    const first = await ids('sort=title&pageSize=2&pageIndex=1');
    const second = await ids('sort=title&pageSize=2&pageIndex=2');
    expect([...first, ...second]).toEqual(['a', 'b', 'c', 's']);
  });

  it('refuses bad values with 400 in the envelope', async () => {
    for (const query of ['sort=price', 'order=up&sort=title', 'hasLocale=de', 'asset=../x', `label=${'x'.repeat(200)}`, 'author=%20']) {
      const res = await list(query);
      expect(res.status, query).toBe(400);
      expect(res.body.success).toBe(false);
      expect(res.body.errors.length, query).toBeGreaterThan(0);
    }
  });

  it("another organization's token sees none of these entries, whatever it names", async () => {
    const other = await t.createOrg('Other');
    for (const query of [`asset=${image}`, `label=${label}`, `author=${author}`, 'sort=title']) {
      const res = await list(query, other.manageToken);
      expect(res.status, query).toBe(200);
      expect(res.body.result, query).toEqual([]);
    }
  });

  it('a member whose role may not read a model does not see its entries among the uses of an asset', async () => {
    const role = await t.json('/management/v1/roles', { token: o.manage, body: { name: `articles-${randomBase62(4)}`, rules: { models: { article: { read: true } } } } });
    expect(role.status, JSON.stringify(role.body)).toBe(201);
    const email = `reader-${randomBase62(6).toLowerCase()}@example.test`;
    const invited = await t.json('/management/v1/invitations', { token: o.manage, body: { email, role: role.body.result.id } });
    await t.json('/auth/invitations/accept', { body: { token: invited.body.result.token, password: PASSWORD } });
    const signed = await t.json('/auth/sign-in', { body: { email, password: PASSWORD } });
    expect(await ids(`asset=${image}`, signed.body.result.token)).toEqual(['b', 'c']);
  });
});
