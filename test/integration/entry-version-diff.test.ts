import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestApp, type TestApp } from '../support/harness.js';
import { setupOrg, type GqlOrg } from './graphql-support.js';

/**
 * `GET /management/v1/entries/:id/versions/:a/diff/:b`: what changed between two kept versions,
 * per field (added, removed, changed, with the values) and per locale for localized fields; the
 * fields a role hides are left out; unknown ids and other organizations are 404.
 */

let t: TestApp;
let o: GqlOrg;
let other: GqlOrg;

type Change = { path: string; field: string | null; locale: string | null; change: string; before?: unknown; after?: unknown };
const versionsOf = async (id: string, token = o.manage) =>
  ((await t.json(`/management/v1/entries/${id}/versions?pageSize=100`, { token })).body.result as { versionId: string }[]).map((v) => v.versionId).reverse();
const diff = (id: string, a: string, b: string, token = o.manage) => t.json(`/management/v1/entries/${id}/versions/${a}/diff/${b}`, { token });

beforeAll(async () => {
  t = await startTestApp({ workers: false });
  [o, other] = await Promise.all([setupOrg(t), setupOrg(t)]);
  await o.m('POST', '/locales', { code: 'en-US', name: 'English' });
  await o.m('POST', '/locales', { code: 'de-DE', name: 'Deutsch', fallback: 'en-US' });
  await o.m('POST', '/locales', { code: 'fr-FR', name: 'Français', fallback: 'en-US' });
  await o.m('PUT', '/models/article', {
    titleField: 'title',
    fields: [
      { alias: 'title', type: 'text', required: true, localized: true },
      { alias: 'body', type: 'text', localized: true },
      { alias: 'rank', type: 'number' },
      { alias: 'salary', type: 'number' },
      { alias: 'tags', type: 'tag', valueType: 'list' },
    ],
  });
  await o.m('PUT', '/entries/a1', { model: 'article', siteId: o.siteId, fields: { title: 'Apple', rank: 1, salary: 10, tags: ['fruit'] }, locales: { 'de-DE': { title: 'Apfel' } } });
  await o.m('PUT', '/entries/a1', {
    model: 'article',
    siteId: o.siteId,
    slug: 'apple',
    fields: { title: 'Apple pie', body: 'Bake it', salary: 20, tags: ['fruit', 'dessert'] },
    locales: { 'de-DE': { title: 'Apfelkuchen' }, 'fr-FR': { title: 'Tarte aux pommes' } },
  });
});

afterAll(async () => {
  await t?.close();
});

describe('a diff of two versions', () => {
  it('names each field added, removed or changed, with its values, and localized values per locale', async () => {
    const [first, second] = await versionsOf('a1');
    const res = await diff('a1', first, second);
    expect(res.status).toBe(200);
    expect(res.body.result).toMatchObject({ entryId: 'a1', from: { versionId: first }, to: { versionId: second } });
    const changes = res.body.result.changes as Change[];
    expect(changes).toEqual([
      { path: 'slug', field: null, locale: null, change: 'added', after: 'apple' },
      { path: 'fields.title', field: 'title', locale: 'en-US', change: 'changed', before: 'Apple', after: 'Apple pie' },
      { path: 'fields.body', field: 'body', locale: 'en-US', change: 'added', after: 'Bake it' },
      { path: 'fields.rank', field: 'rank', locale: null, change: 'removed', before: 1 },
      { path: 'fields.salary', field: 'salary', locale: null, change: 'changed', before: 10, after: 20 },
      { path: 'fields.tags', field: 'tags', locale: null, change: 'changed', before: ['fruit'], after: ['fruit', 'dessert'] },
      { path: 'locales.de-DE.title', field: 'title', locale: 'de-DE', change: 'changed', before: 'Apfel', after: 'Apfelkuchen' },
      { path: 'locales.fr-FR.title', field: 'title', locale: 'fr-FR', change: 'added', after: 'Tarte aux pommes' },
    ]);
    // the other way round, added and removed swap
    const back = (await diff('a1', second, first)).body.result.changes as Change[];
    expect(back.find((c) => c.path === 'fields.rank')).toMatchObject({ change: 'added', after: 1 });
    expect(back.find((c) => c.path === 'locales.fr-FR.title')).toMatchObject({ change: 'removed', before: 'Tarte aux pommes' });
    // a version against itself: nothing
    expect((await diff('a1', first, first)).body.result.changes).toEqual([]);
  });

  it('leaves out the fields a role hides, and follows the role’s read rights', async () => {
    const [first, second] = await versionsOf('a1');
    await o.m('POST', '/roles', { name: 'no-salary', rules: { models: { article: { read: true, hiddenFields: ['salary'] } } } });
    await o.m('POST', '/roles', { name: 'no-articles', rules: { models: { page: { read: true } } } });
    const hiding = (await o.m('POST', '/tokens', { name: 'hiding', role: 'no-salary' })) as { token: string };
    const blind = (await o.m('POST', '/tokens', { name: 'blind', role: 'no-articles' })) as { token: string };
    const seen = await diff('a1', first, second, hiding.token);
    expect(seen.status).toBe(200);
    const paths = (seen.body.result.changes as Change[]).map((c) => c.path);
    expect(paths).toContain('fields.title');
    expect(paths).not.toContain('fields.salary');
    expect(JSON.stringify(seen.body)).not.toContain('"salary"');
    const refused = await diff('a1', first, second, blind.token);
    expect([refused.status, refused.body.success]).toEqual([403, false]);
  });

  it('answers 404 for unknown entries and versions and for another organization; needs a manage token', async () => {
    const [first, second] = await versionsOf('a1');
    for (const [path, what] of [
      [`/entries/nope/versions/${first}/diff/${second}`, 'Entry "nope"'],
      [`/entries/a1/versions/nope/diff/${second}`, 'Version "nope"'],
      [`/entries/a1/versions/${first}/diff/nope`, 'Version "nope"'],
    ] as const) {
      const res = await t.json(`/management/v1${path}`, { token: o.manage });
      expect([res.status, res.body.success]).toEqual([404, false]);
      expect(res.body.errors[0]).toContain(what);
    }
    const foreign = await diff('a1', first, second, other.manage);
    expect([foreign.status, foreign.body.success]).toEqual([404, false]);
    // another organization's entry of the same id does not lend its versions
    await other.m('PUT', '/models/article', { fields: [{ alias: 'title', type: 'text' }] });
    await other.m('PUT', '/entries/a1', { model: 'article', siteId: other.siteId, fields: { title: 'Theirs' } });
    const [theirs] = await versionsOf('a1', other.manage);
    expect((await diff('a1', theirs, first)).status).toBe(404);
    expect((await diff('a1', first, second, o.delivery)).status).toBe(403);
    expect((await diff('a1', first, second, 'folio_x')).status).toBe(401);
    const nul = await t.json(`/management/v1/entries/a1/versions/${first}/diff/%00`, { token: o.manage });
    expect([nul.status, nul.body.success]).toEqual([400, false]);
  });
});
