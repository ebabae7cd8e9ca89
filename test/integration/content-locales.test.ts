import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { seedDemo } from '../../shared/demo/seed-demo.js';
import { randomBase62 } from '../../shared/ids.js';
import { DEMO_QUERIES, runIndependent } from '../support/demo-queries.js';
import { startTestApp, type TestApp } from '../support/harness.js';
import { ids, setupOrg, type GqlOrg } from './graphql-support.js';
import golden from '../fixtures/demo-answers.json' with { type: 'json' };

/**
 * Locales: en-US (default), de-DE (falls back to the default), de-AT (falls back to de-DE), fr-FR.
 * Three fruit articles, each with a person; what each locale holds:
 *
 * | entry  | en-US (fields) | de-DE     | de-AT   | fr-FR  |
 * |--------|----------------|-----------|---------|--------|
 * | apple  | Apple, rank 1  | Apfel, 30 | Marille | —      |
 * | banana | Banana, rank 2 | Banane, 10| —       | —      |
 * | cherry | Cherry, rank 3 | Aprikose  | —       | Cerise |
 */
let t: TestApp;
let o: GqlOrg;

const call = (token: string, method: string, path: string, body?: unknown) => t.json(`/management/v1${path}`, { method, token, body });

beforeAll(async () => {
  t = await startTestApp();
  o = await setupOrg(t);
  await o.m('POST', '/locales', { code: 'en-US', name: 'English' });
  await o.m('POST', '/locales', { code: 'de-DE', name: 'Deutsch' });
  await o.m('POST', '/locales', { code: 'de-AT', name: 'Österreich', fallback: 'de-DE' });
  await o.m('POST', '/locales', { code: 'fr-FR' });
  await o.m('PUT', '/models/person', {
    name: 'Person',
    titleField: 'name',
    fields: [
      { alias: 'name', type: 'text', required: true },
      { alias: 'role', type: 'text', localized: true },
    ],
  });
  await o.m('PUT', '/models/fruit', {
    name: 'Fruit',
    titleField: 'title',
    fields: [
      { alias: 'title', type: 'text', required: true, localized: true },
      { alias: 'rank', type: 'number', localized: true },
      { alias: 'code', type: 'text' },
      { alias: 'grower', type: 'reference', allowedModels: ['person'] },
      { alias: 'related', type: 'reference', valueType: 'list', allowedModels: ['fruit'] },
    ],
  });
  const person = (id: string, name: string, role: string, de: string) =>
    o.m('PUT', `/entries/${id}`, { model: 'person', siteId: o.siteId, status: 'PUBLISHED', fields: { name, role }, locales: { 'de-DE': { role: de } } });
  await person('ann', 'Ann', 'grower', 'Bäuerin');
  await person('bob', 'Bob', 'picker', 'Pflücker');
  const fruit = (id: string, fields: Record<string, unknown>, locales: Record<string, unknown>) =>
    o.m('PUT', `/entries/${id}`, { model: 'fruit', siteId: o.siteId, status: 'PUBLISHED', fields, locales });
  await fruit('apple', { title: 'Apple', rank: 1, code: 'A', grower: 'ann' }, { 'de-DE': { title: 'Apfel', rank: 30 }, 'de-AT': { title: 'Marille' } });
  await fruit('cherry', { title: 'Cherry', rank: 3, code: 'C', grower: 'ann' }, { 'de-DE': { title: 'Aprikose' }, 'fr-FR': { title: 'Cerise' } });
  await fruit('banana', { title: 'Banana', rank: 2, code: 'B', grower: 'bob', related: ['apple', 'cherry'] }, { 'de-DE': { title: 'Banane', rank: 10 } });
});

afterAll(async () => {
  await t?.close();
});

describe('/management/v1/locales', () => {
  it('lists the default first; the first locale became the default', async () => {
    const list = await o.m('GET', '/locales');
    expect(list.map((l: { code: string; default: boolean; fallback: string | null }) => [l.code, l.default, l.fallback])).toEqual([
      ['en-US', true, null],
      ['de-AT', false, 'de-DE'],
      ['de-DE', false, null],
      ['fr-FR', false, null],
    ]);
    expect((await o.m('GET', '/locales/de-AT')).name).toBe('Österreich');
  });

  it('refuses bad codes, unknown and looping fallbacks, duplicates; 404 for unknown codes', async () => {
    const bad = await call(o.manage, 'POST', '/locales', { code: 'English' });
    expect(bad.status).toBe(400);
    expect(bad.body.success).toBe(false);
    expect(JSON.stringify(bad.body.errors)).toContain('BCP 47');
    const unknown = await call(o.manage, 'POST', '/locales', { code: 'it-IT', fallback: 'es-ES' });
    expect(unknown.status).toBe(422);
    expect(JSON.stringify(unknown.body.errors)).toContain('no locale \\"es-ES\\"');
    const loop = await call(o.manage, 'PATCH', '/locales/de-DE', { fallback: 'de-AT' });
    expect(loop.status).toBe(422);
    expect(JSON.stringify(loop.body.errors)).toContain('leads back');
    expect((await call(o.manage, 'PATCH', '/locales/fr-FR', { fallback: 'fr-FR' })).status).toBe(422);
    expect((await call(o.manage, 'PATCH', '/locales/en-US', { fallback: 'de-DE' })).status).toBe(422);
    expect((await call(o.manage, 'POST', '/locales', { code: 'de-DE' })).status).toBe(409);
    expect((await call(o.manage, 'POST', '/locales', { code: 'nl-NL', extra: 1 })).status).toBe(400);
    expect((await call(o.manage, 'GET', '/locales/xx-XX')).status).toBe(404);
    expect((await call(o.manage, 'PATCH', '/locales/xx-XX', { name: 'x' })).status).toBe(404);
    expect((await call(o.manage, 'DELETE', '/locales/xx-XX')).status).toBe(404);
  });

  it('keeps the default and the fallbacks others use; the default moves only while no entry holds other locales', async () => {
    expect((await call(o.manage, 'DELETE', '/locales/en-US')).status).toBe(409);
    const used = await call(o.manage, 'DELETE', '/locales/de-DE');
    expect(used.status).toBe(409);
    expect(JSON.stringify(used.body.errors)).toContain('de-AT');
    const moved = await call(o.manage, 'PATCH', '/locales/de-DE', { default: true });
    expect(moved.status).toBe(409);
    expect((await o.m('GET', '/locales/en-US')).default).toBe(true);
  });

  it("another organization's token sees none of them; other scopes are refused", async () => {
    const other = await t.createOrg('Other');
    expect((await call(other.manageToken, 'GET', '/locales')).body.result).toEqual([]);
    expect((await call(other.manageToken, 'GET', '/locales/de-DE')).status).toBe(404);
    expect((await call(other.manageToken, 'PATCH', '/locales/de-DE', { name: 'x' })).status).toBe(404);
    expect((await call(other.manageToken, 'DELETE', '/locales/de-DE')).status).toBe(404);
    expect((await call(o.delivery, 'GET', '/locales')).status).toBe(403);
    expect((await t.json('/management/v1/locales')).status).toBe(401);
    // the other org writing entries in our locales is refused: they are not its locales
    await call(other.manageToken, 'PUT', '/models/fruit', { fields: [{ alias: 'title', type: 'text', localized: true }] });
    const site = (await call(other.manageToken, 'POST', '/sites', { name: 'S' })).body.result.id;
    const write = await call(other.manageToken, 'PUT', '/entries/x', { model: 'fruit', siteId: site, fields: { title: 'X' }, locales: { 'de-DE': { title: 'Y' } } });
    expect(write.status).toBe(422);
    expect(JSON.stringify(write.body.errors)).toContain('declares no locales');
  });

  it('a locale and a default made on an organization without values elsewhere', async () => {
    const fresh = await t.createOrg('Fresh');
    await call(fresh.manageToken, 'POST', '/locales', { code: 'en' });
    const de = await call(fresh.manageToken, 'POST', '/locales', { code: 'de', default: true });
    expect(de.status).toBe(201);
    const list = (await call(fresh.manageToken, 'GET', '/locales')).body.result;
    expect(list.map((l: { code: string; default: boolean }) => [l.code, l.default])).toEqual([
      ['de', true],
      ['en', false],
    ]);
    expect((await call(fresh.manageToken, 'DELETE', '/locales/en')).status).toBe(200);
    expect((await call(fresh.manageToken, 'DELETE', '/locales/de')).status).toBe(200);
    expect((await call(fresh.manageToken, 'GET', '/locales')).body.result).toEqual([]);
  });
});

describe('writing localized values', () => {
  it('a model may localize only fields with values of their own', async () => {
    const res = await call(o.manage, 'PUT', '/models/badmodel', { fields: [{ alias: 'link', type: 'reference', localized: true }] });
    expect(res.status).toBe(422);
    expect(JSON.stringify(res.body.errors)).toContain('cannot be localized');
    expect((await o.m('GET', '/models/fruit')).fields[0]).toMatchObject({ alias: 'title', localized: true });
  });

  it('required applies to the default locale only; other locales may be partial', async () => {
    const missing = await call(o.manage, 'PUT', '/entries/plum', { model: 'fruit', siteId: o.siteId, fields: { rank: 4 }, locales: { 'de-DE': { title: 'Pflaume' } } });
    expect(missing.status).toBe(422);
    expect(missing.body.errors.join(' ')).toContain('fields.title: required');
    const partial = await call(o.manage, 'PUT', '/entries/plum', { model: 'fruit', siteId: o.siteId, fields: { title: 'Plum' }, locales: { 'de-DE': { rank: 7 } } });
    expect(partial.status).toBe(201);
    expect(partial.body.result.locales).toEqual({ 'de-DE': { rank: 7 } });
  });

  it('refuses unknown locales (naming the known ones), the default in locales, shared fields and bad values', async () => {
    const put = (locales: unknown) => call(o.manage, 'PUT', '/entries/bad', { model: 'fruit', siteId: o.siteId, fields: { title: 'X' }, locales });
    const unknown = await put({ 'it-IT': { title: 'Mela' } });
    expect(unknown.status).toBe(422);
    expect(unknown.body.errors.join(' ')).toMatch(/locales\.it-IT: Unknown locale "it-IT"; .*en-US, de-AT, de-DE, fr-FR/);
    expect((await put({ 'en-US': { title: 'Apple' } })).body.errors.join(' ')).toContain('is the default locale; its values go in fields');
    expect((await put({ 'de-DE': { code: 'Z' } })).body.errors.join(' ')).toContain('locales.de-DE.code: field "code" is not localized');
    expect((await put({ 'de-DE': { rank: 'many' } })).body.errors.join(' ')).toContain('locales.de-DE.rank: must be an integer');
    expect((await put({ 'de-DE': 'Apfel' })).status).toBe(400);
    expect((await call(o.manage, 'GET', '/entries/bad')).status).toBe(404);
  });

  it('PATCH merges per locale and field; null clears a value or a whole locale', async () => {
    await o.m('PATCH', '/entries/plum', { locales: { 'de-DE': { title: 'Pflaume' }, 'fr-FR': { title: 'Prune' } } });
    expect((await o.m('GET', '/entries/plum')).locales).toEqual({ 'de-DE': { rank: 7, title: 'Pflaume' }, 'fr-FR': { title: 'Prune' } });
    await o.m('PATCH', '/entries/plum', { locales: { 'de-DE': { rank: null }, 'fr-FR': null } });
    expect((await o.m('GET', '/entries/plum')).locales).toEqual({ 'de-DE': { title: 'Pflaume' } });
  });

  it('a restored version brings back the values of every locale it had', async () => {
    const before = (await o.m('GET', '/entries/plum')).versionId;
    await o.m('PATCH', '/entries/plum', { locales: { 'de-DE': { title: 'Zwetschge', rank: 9 } } });
    expect((await o.m('GET', `/entries/plum/versions/${before}`)).locales).toEqual({ 'de-DE': { title: 'Pflaume' } });
    await o.m('POST', `/entries/plum/versions/${before}/restore`);
    expect((await o.m('GET', '/entries/plum')).locales).toEqual({ 'de-DE': { title: 'Pflaume' } });
  });
});

describe('GraphQL with a locale', () => {
  it('a value present, missing (the default), and along a chain of two', async () => {
    const q = (locale: string) => o.d(`{ fruitCollection(order: { code: ASC }, locale: "${locale}") { items { id title rank code system { locale title } } } }`);
    const at = (await q('de-AT')).fruitCollection.items;
    expect(at.map((i: { title: string; rank: number }) => [i.title, i.rank])).toEqual([
      ['Marille', 30], // its own title; rank from de-DE
      ['Banane', 10], // de-DE, through the chain
      ['Aprikose', 3], // de-DE; rank from the default
    ]);
    expect(at[0].system).toEqual({ locale: 'de-AT', title: 'Marille' });
    expect(at.map((i: { code: string }) => i.code)).toEqual(['A', 'B', 'C']);
    const fr = (await q('fr-FR')).fruitCollection.items;
    expect(fr.map((i: { title: string }) => i.title)).toEqual(['Apple', 'Banana', 'Cerise']);
    const plain = await o.d(`{ fruit(id: "apple") { title system { locale title } } }`);
    expect(plain.fruit).toEqual({ title: 'Apple', system: { locale: 'en-US', title: 'Apple' } });
    expect((await o.d(`{ fruit(id: "apple", locale: "en-US") { title } }`)).fruit.title).toBe('Apple');
    expect((await o.d(`{ entry(id: "cherry", locale: "fr-FR") { ... on Fruit { title } system { locale } } }`)).entry).toEqual({ title: 'Cerise', system: { locale: 'fr-FR' } });
  });

  it('filters and orders by the values of the asked locale, with fallback', async () => {
    const de = await o.d(`{ fruitCollection(locale: "de-DE", order: { title: ASC }) { items { id } } }`);
    expect(ids(de.fruitCollection)).toEqual(['apple', 'cherry', 'banana']); // Apfel, Aprikose, Banane
    const en = await o.d(`{ fruitCollection(order: { title: ASC }) { items { id } } }`);
    expect(ids(en.fruitCollection)).toEqual(['apple', 'banana', 'cherry']);
    const byRank = await o.d(`{ fruitCollection(locale: "de-DE", order: { rank: DESC }) { items { id rank } } }`);
    expect(byRank.fruitCollection.items).toEqual([
      { id: 'apple', rank: 30 },
      { id: 'banana', rank: 10 },
      { id: 'cherry', rank: 3 },
    ]);
    const eq = await o.d(`{ fruitCollection(locale: "de-AT", where: { title: { eq: "banane" } }) { total items { id } } }`);
    expect(eq.fruitCollection).toEqual({ total: 1, items: [{ id: 'banana' }] });
    const gt = await o.d(`{ fruitCollection(locale: "de-DE", where: { rank: { gt: 5 } }) { total items { id } } }`);
    expect(gt.fruitCollection.total).toBe(2);
    const contains = await o.d(`{ entryCollection(locale: "de-DE", where: { fruit: { title: { contains: "pf" } } }) { items { id } } }`);
    expect(ids(contains.entryCollection)).toEqual(['apple']);
    const none = await o.d(`{ fruitCollection(where: { title: { eq: "Apfel" } }) { total } }`);
    expect(none.fruitCollection.total).toBe(0);
  });

  it('a substring filter on a localized title finds its candidates in the trigram index of every title, case-insensitively', async () => {
    const statements = vi.spyOn(t.services.db, 'query');
    let found: { sql: string; params: readonly unknown[] } | undefined;
    try {
      const upper = await o.d(`{ fruitCollection(locale: "de-AT", where: { title: { contains: "MARI" } }) { total items { id } } }`);
      expect(upper.fruitCollection).toEqual({ total: 1, items: [{ id: 'apple' }] }); // Marille, its de-AT title
      const calls = statements.mock.calls.filter(([sql]) => sql.includes('search_titles LIKE lower('));
      expect(calls).toHaveLength(1); // a title search: the page's statement counts the matches too
      found = { sql: calls[0][0], params: calls[0][1] ?? [] };
    } finally {
      statements.mockRestore();
    }
    // the statement's title prefilter, as written, is one the trigram index answers (shown alone:
    // on tables this small the planner reads the rows rather than any index)
    const [, alias, param] = /(\w+)\.search_titles LIKE lower\(\$(\d+)\)/.exec(found!.sql) ?? [];
    expect(alias).toBeDefined();
    const plan = await t.services.db.transaction(async (tx) => {
      await tx.query('SET LOCAL enable_seqscan = off');
      const sql = `EXPLAIN (FORMAT JSON) SELECT 1 FROM entries ${alias} WHERE ${alias}.search_titles LIKE lower($1)`;
      return (await tx.query<{ 'QUERY PLAN': unknown }>(sql, [found!.params[Number(param) - 1]])).rows[0]['QUERY PLAN'];
    });
    expect(found!.params[Number(param) - 1]).toBe('%MARI%');
    expect(JSON.stringify(plan)).toMatch(/"Node Type":"Bitmap Index Scan",[^}]*"Index Name":"entries_search_titles_trgm"/);
  });

  it('references, reference lists and relations inherit the locale', async () => {
    const d = await o.d(`{ fruit(id: "banana", locale: "de-AT") {
      title grower { name role system { locale } }
      related { items { title system { locale } } }
    } }`);
    expect(d.fruit.title).toBe('Banane');
    expect(d.fruit.grower).toEqual({ name: 'Bob', role: 'Pflücker', system: { locale: 'de-AT' } });
    expect(d.fruit.related.items).toEqual([
      { title: 'Marille', system: { locale: 'de-AT' } },
      { title: 'Aprikose', system: { locale: 'de-AT' } },
    ]);
    const rel = await o.d(`{ person(id: "ann", locale: "de-DE") { role relations { fruitCollection(order: { title: DESC }) { items { title } } } } }`);
    expect(rel.person.role).toBe('Bäuerin');
    expect(rel.person.relations.fruitCollection.items.map((i: { title: string }) => i.title)).toEqual(['Aprikose', 'Apfel']);
  });

  it('two locales in one document do not mix', async () => {
    const d = await o.d(`{ a: fruit(id: "apple", locale: "de-DE") { title grower { role } } b: fruit(id: "apple") { title grower { role } } c: fruit(id: "apple", locale: "de-AT") { title } }`);
    expect(d).toEqual({ a: { title: 'Apfel', grower: { role: 'Bäuerin' } }, b: { title: 'Apple', grower: { role: 'grower' } }, c: { title: 'Marille' } });
  });

  it('an unknown locale is BAD_USER_INPUT naming the known ones; a continuation token is bound to its locale', async () => {
    const res = await o.q(`{ fruitCollection(locale: "it-IT") { items { id } } }`);
    expect(res.body.errors?.[0].extensions?.code).toBe('BAD_USER_INPUT');
    expect(res.body.errors?.[0].message).toContain('en-US, de-AT, de-DE, fr-FR');
    const byId = await o.q(`{ fruit(id: "apple", locale: "xx") { id } }`);
    expect(byId.body.errors?.[0].extensions?.code).toBe('BAD_USER_INPUT');
    const first = await o.d(`{ fruitCollection(limit: 1, locale: "de-DE", order: { title: ASC }) { items { id } continuationToken } }`);
    const next = await o.d(`query($t: String) { fruitCollection(limit: 1, locale: "de-DE", order: { title: ASC }, continuationToken: $t) { items { id } } }`, { t: first.fruitCollection.continuationToken });
    expect(ids(next.fruitCollection)).toEqual(['cherry']);
    const other = await o.q(`query($t: String) { fruitCollection(limit: 1, locale: "fr-FR", order: { title: ASC }, continuationToken: $t) { items { id } } }`, { t: first.fruitCollection.continuationToken });
    expect(other.body.errors?.[0].extensions?.code).toBe('BAD_USER_INPUT');
  });

  it('preview reads the current version of every locale', async () => {
    await o.m('PATCH', '/entries/cherry', { locales: { 'fr-FR': { title: 'Griotte' } } });
    const q = `{ fruit(id: "cherry", locale: "fr-FR") { title } }`;
    expect((await o.d(q, undefined, o.preview)).fruit.title).toBe('Griotte');
    expect((await o.d(q)).fruit.title).toBe('Cerise');
    await o.m('POST', '/entries/cherry/publish');
    expect((await o.d(q)).fruit.title).toBe('Griotte');
  });
});

describe('listing in a locale', () => {
  it('shows each entry as read in the locale; 400 for an unknown one', async () => {
    const res = await call(o.manage, 'GET', '/entries?model=fruit&locale=de-AT');
    expect(res.status).toBe(200);
    const byId = Object.fromEntries(res.body.result.map((e: { id: string }) => [e.id, e]));
    expect(byId.apple).toMatchObject({ locale: 'de-AT', title: 'Marille', fields: { title: 'Marille', rank: 30, code: 'A' } });
    expect(byId.banana.fields.title).toBe('Banane');
    expect(byId.apple.locales).toBeUndefined();
    const plain = await call(o.manage, 'GET', '/entries?model=fruit');
    expect(plain.body.result.find((e: { id: string }) => e.id === 'apple').locales['de-AT']).toEqual({ title: 'Marille' });
    const bad = await call(o.manage, 'GET', '/entries?locale=it-IT');
    expect(bad.status).toBe(400);
    expect(bad.body.success).toBe(false);
    expect(JSON.stringify(bad.body.errors)).toContain('en-US, de-AT, de-DE, fr-FR');
  });
});

describe('export and import carry the locales', () => {
  it('into a new organization: the same answers in every locale', async () => {
    const res = await fetch(`${t.baseUrl}/management/v1/export`, { headers: { authorization: `Bearer ${o.manage}` } });
    const text = await res.text();
    const lines = text.trim().split('\n').map((l) => JSON.parse(l) as Record<string, unknown>);
    const localeLines = lines.filter((l) => l.type === 'locale');
    const codes = localeLines.map((l) => l.code);
    expect([...codes].sort()).toEqual(['de-AT', 'de-DE', 'en-US', 'fr-FR']);
    expect(codes[0]).toBe('en-US'); // the default first, so the import makes it the default
    expect(codes.indexOf('de-AT')).toBeGreaterThan(codes.indexOf('de-DE')); // after its fallback
    expect(lines.find((l) => l.type === 'entry' && l.id === 'apple')?.locales).toEqual({ 'de-DE': { title: 'Apfel', rank: 30 }, 'de-AT': { title: 'Marille' } });
    const copy = await t.createOrg('Copy');
    const imported = await t.json('/management/v1/import', { method: 'POST', token: copy.manageToken, rawBody: Buffer.from(text), headers: { 'content-type': 'application/x-ndjson' } });
    expect(imported.body.result.failed, JSON.stringify(imported.body.result.results.filter((r: { ok: boolean }) => !r.ok))).toBe(0);
    const delivery = await t.createToken(copy.manageToken, ['delivery']);
    for (const locale of ['en-US', 'de-DE', 'de-AT', 'fr-FR']) {
      const q = `{ fruitCollection(locale: "${locale}", order: { title: ASC }) { items { id title rank grower { role } related { items { title } } system { locale title } } } }`;
      const original = await t.json('/graphql', { token: o.delivery, body: { query: q } });
      const copied = await t.json('/graphql', { token: delivery, body: { query: q } });
      expect(copied.body, locale).toEqual(original.body);
    }
  });
});

describe('deleting a locale', () => {
  it('removes its values from the entries; queries in it are refused', async () => {
    await o.m('DELETE', '/locales/fr-FR');
    expect((await o.m('GET', '/entries/cherry')).locales).toEqual({ 'de-DE': { title: 'Aprikose' } });
    expect((await o.q(`{ fruit(id: "cherry", locale: "fr-FR") { title } }`)).body.errors?.[0].extensions?.code).toBe('BAD_USER_INPUT');
  });
});

describe('an organization without locales', () => {
  it('answers the demo queries as before locales existed', async () => {
    const demo = await seedDemo(t.services, { slug: `demo-${randomBase62(8).toLowerCase()}` });
    const assets = await t.json('/management/v1/assets', { token: demo.manageToken });
    const assetIds = (assets.body.result as Array<{ id: string }>).map((a) => a.id);
    const before = golden as Record<string, string>;
    for (const [scope, token] of [
      ['delivery', demo.deliveryToken],
      ['preview', demo.previewToken],
    ] as const) {
      for (const query of DEMO_QUERIES) {
        const res = await t.json('/graphql', { token, body: { query } });
        expect(runIndependent(res.body, demo.orgId, assetIds), `${scope} ${query}`).toBe(before[`${scope} ${query}`]);
      }
    }
    // and knows no locale argument
    const res = await t.json('/graphql', { token: demo.deliveryToken, body: { query: '{ article(id: "article-1", locale: "en") { id } }' } });
    expect(res.body.errors?.[0].message).toContain('Unknown argument "locale"');
  });
});
