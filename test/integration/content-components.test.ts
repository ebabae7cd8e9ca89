import { readFile } from 'node:fs/promises';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { MAX_COMPONENT_DEPTH } from '../../shared/content/component-rules.js';
import { startTestApp, type TestApp, type TestOrg } from '../support/harness.js';

let t: TestApp;
let org: TestOrg;
let other: TestOrg;
let siteId: string;
let imageId: string;
let image2Id: string;
let delivery: string;
let ada: string;
let home: string;

type Opts = { method?: string; body?: unknown; token?: string };
const m = (path: string, o: Opts = {}) => t.json(`/management/v1${path}`, { token: org.manageToken, ...o });
const ndjson = (lines: unknown[]) => lines.map((l) => JSON.stringify(l)).join('\n') + '\n';
const gql = async (token: string, query: string) => (await t.json('/graphql', { token, body: { query } })).body as { data?: Record<string, unknown>; errors?: { message: string }[] };

/** A page builder: hero (with a call to action, itself a component holding a reference), text and gallery. */
const COMPONENTS: Record<string, { name: string; fields: unknown[] }> = {
  link: {
    name: 'Link',
    fields: [
      { alias: 'label', type: 'text', required: true },
      { alias: 'target', type: 'reference', allowedModels: ['person'], required: true },
    ],
  },
  hero: {
    name: 'Hero',
    fields: [
      { alias: 'title', type: 'text', required: true, validations: [{ size: { max: 40 } }] },
      { alias: 'image', type: 'media', validations: [{ assetTypes: ['IMAGE'] }] },
      { alias: 'cta', type: 'component', components: ['link'] },
    ],
  },
  text: { name: 'Text', fields: [{ alias: 'body', type: 'text', required: true, validations: [{ pattern: { regex: '^[^<]*$', message: 'no markup' } }] }] },
  gallery: {
    name: 'Gallery',
    fields: [
      { alias: 'images', type: 'media', valueType: 'list', required: true, validations: [{ size: { max: 3 } }] },
      { alias: 'people', type: 'reference', valueType: 'list', allowedModels: ['person'] },
      { alias: 'caption', type: 'text' },
    ],
  },
};

const PAGE = {
  name: 'Page',
  titleField: 'title',
  fields: [
    { alias: 'title', type: 'text', required: true },
    { alias: 'body', type: 'component', valueType: 'list', components: ['hero', 'text', 'gallery'], localized: true, validations: [{ size: { max: 10 } }] },
    { alias: 'aside', type: 'component', components: ['text'] },
  ],
};

const hero = (extra: Record<string, unknown> = {}) => ({ component: 'hero', title: 'Welcome', image: imageId, cta: { component: 'link', label: 'Meet Ada', target: ada }, ...extra });
const pageBody = () => [hero(), { component: 'text', body: 'Plain words.' }, { component: 'gallery', images: [imageId, image2Id], people: [ada], caption: 'Two' }];

const PAGE_QUERY = `{
  pageCollection(order: {system: {createdAt: ASC}}) { items { title
    body { __typename
      ... on Hero { title image { id } cta { label target { name } } }
      ... on Text { body }
      ... on Gallery { images { id } people { items { name } } caption }
    }
    aside { body }
  } }
}`;

beforeAll(async () => {
  t = await startTestApp();
  org = await t.createOrg('Components');
  other = await t.createOrg('Components other');
  delivery = await t.createToken(org.manageToken, ['preview']);
  siteId = (await m('/sites', { body: { name: 'Main' } })).body.result.id;
  const jpeg = new Uint8Array(await readFile(new URL('../fixtures/images/the-mouse.jpg', import.meta.url)));
  imageId = (await t.json('/management/v1/assets?fileName=one.jpg', { method: 'POST', token: org.manageToken, rawBody: jpeg })).body.result.id;
  image2Id = (await t.json('/management/v1/assets?fileName=two.jpg', { method: 'POST', token: org.manageToken, rawBody: jpeg })).body.result.id;
  await m('/locales', { body: { code: 'en-US', name: 'English' } });
  await m('/locales', { body: { code: 'de-DE', name: 'Deutsch' } });
  expect((await m('/models/person', { method: 'PUT', body: { titleField: 'name', fields: [{ alias: 'name', type: 'text' }] } })).status).toBe(201);
  const person = await m('/entries', { body: { model: 'person', siteId, fields: { name: 'Ada' }, status: 'PUBLISHED' } });
  expect(person.status).toBe(201);
  ada = person.body.result.id;
  for (const alias of ['link', 'hero', 'text', 'gallery']) {
    const res = await m(`/components/${alias}`, { method: 'PUT', body: COMPONENTS[alias] });
    expect(res.status, JSON.stringify(res.body)).toBe(201);
  }
  const page = await m('/models/page', { method: 'PUT', body: PAGE });
  expect(page.status, JSON.stringify(page.body)).toBe(201);
});
afterAll(async () => {
  await t?.close();
});

describe('components in the management API', () => {
  it('lists, reads and replaces components; model answers name them in their fields', async () => {
    const list = await m('/components');
    expect(list.status).toBe(200);
    expect(list.body.result.map((c: { alias: string }) => c.alias)).toEqual(['gallery', 'hero', 'link', 'text']);
    const heroDef = (await m('/components/hero')).body.result;
    expect(heroDef).toMatchObject({ alias: 'hero', name: 'Hero' });
    expect(heroDef.fields.find((f: { alias: string }) => f.alias === 'cta')).toEqual({ alias: 'cta', type: 'component', valueType: 'single', allowedModels: [], required: false, components: ['link'] });
    const page = (await m('/models/page')).body.result;
    expect(page.fields[1]).toMatchObject({ alias: 'body', type: 'component', valueType: 'list', components: ['hero', 'text', 'gallery'], localized: true });
    expect(page).not.toHaveProperty('components');
    const renamed = await m('/components/text', { method: 'PUT', body: { ...COMPONENTS.text, name: 'Text block' } });
    expect(renamed.status).toBe(200);
    expect(renamed.body.result.name).toBe('Text block');
    expect((await m('/components/nope')).status).toBe(404);
  });

  it('refuses bad definitions with 422 naming the field and the rule', async () => {
    const cases: [string, unknown, string][] = [
      ['bad', { fields: [{ alias: 'x', type: 'colour' }] }, 'fields[0] ("x"): unknown type "colour"'],
      ['bad', { fields: [{ alias: 'x', type: 'component' }] }, 'a component field needs "components"'],
      ['bad', { fields: [{ alias: 'x', type: 'component', components: ['ghost'] }] }, 'components names unknown component "ghost"'],
      ['bad', { fields: [{ alias: 'x', type: 'text', components: ['hero'] }] }, 'components applies only to component fields'],
      ['bad', { fields: [{ alias: 'component', type: 'text' }] }, 'alias "component" is reserved in components'],
      ['bad', { fields: [{ alias: 'x', type: 'richcontent' }] }, 'type "richcontent" cannot be used in a component'],
      ['bad', { fields: [{ alias: 'x', type: 'text', localized: true }] }, "a component's fields cannot be localized"],
      ['bad', { fields: [{ alias: 'x', type: 'text', validations: [{ unique: true }] }] }, 'unique applies only to fields of models'],
      ['bad', { fields: [{ alias: 'x', type: 'reference', allowedModels: ['ghost'] }] }, 'allowedModels names unknown model "ghost"'],
      ['loop', { fields: [{ alias: 'x', type: 'component', components: ['loop'] }] }, 'component "loop" holds itself'],
      ['page', { fields: [] }, 'which model "page" already produces'],
      ['personCollection', { fields: [] }, 'produces the name "PersonCollection", which model "person" already produces'],
      ['Hero', { fields: [] }, 'must match'],
      ['bad', { fields: 'x' }, 'fields'],
    ];
    for (const [alias, body, message] of cases) {
      const res = await m(`/components/${alias}`, { method: 'PUT', body });
      expect(res.status, message).toBe(422);
      expect(res.body.success).toBe(false);
      expect(res.body.errors.join('\n'), message).toContain(message);
    }
    // a model may not take a component's name either: one namespace
    const model = await m('/models/hero', { method: 'PUT', body: { fields: [] } });
    expect(model.status).toBe(422);
    expect(model.body.errors.join('\n')).toContain('which component "hero" already produces');
    // nor a cycle through two components
    expect((await m('/components/ping', { method: 'PUT', body: { fields: [{ alias: 'x', type: 'text' }] } })).status).toBe(201);
    expect((await m('/components/pong', { method: 'PUT', body: { fields: [{ alias: 'x', type: 'component', components: ['ping'] }] } })).status).toBe(201);
    const cycle = await m('/components/ping', { method: 'PUT', body: { fields: [{ alias: 'x', type: 'component', components: ['pong'] }] } });
    expect(cycle.status).toBe(422);
    expect(cycle.body.errors.join('\n')).toContain('component "pong" would hold itself through "ping"');
    for (const alias of ['pong', 'ping']) expect((await m(`/components/${alias}`, { method: 'DELETE' })).status).toBe(200);
  });

  it(`bounds nesting at ${MAX_COMPONENT_DEPTH} levels`, async () => {
    const levels = ['levelA', 'levelB', 'levelC', 'levelD', 'levelE'];
    for (let i = 0; i < MAX_COMPONENT_DEPTH; i++) {
      const fields = i === 0 ? [{ alias: 'x', type: 'text' }] : [{ alias: 'x', type: 'component', components: [levels[i - 1]] }];
      expect((await m(`/components/${levels[i]}`, { method: 'PUT', body: { fields } })).status, levels[i]).toBe(201);
    }
    const deeper = await m(`/components/${levels[MAX_COMPONENT_DEPTH]}`, { method: 'PUT', body: { fields: [{ alias: 'x', type: 'component', components: [levels[MAX_COMPONENT_DEPTH - 1]] }] } });
    expect(deeper.status).toBe(422);
    expect(deeper.body.errors.join('\n')).toContain(`components nest at most ${MAX_COMPONENT_DEPTH} levels deep`);
    for (const alias of levels.slice(0, MAX_COMPONENT_DEPTH).reverse()) expect((await m(`/components/${alias}`, { method: 'DELETE' })).status).toBe(200);
  });

  it('refuses to delete a component a model or another component uses (409), deletes an unused one', async () => {
    const used = await m('/components/gallery', { method: 'DELETE' });
    expect(used.status).toBe(409);
    expect(used.body.errors.join('\n')).toContain('used by model "page" (field "body")');
    const nested = await m('/components/link', { method: 'DELETE' });
    expect(nested.status).toBe(409);
    expect(nested.body.errors.join('\n')).toContain('used by component "hero"');
    expect((await m('/models/place', { method: 'PUT', body: { fields: [] } })).status).toBe(201);
    expect((await m('/components/pin', { method: 'PUT', body: { fields: [{ alias: 'at', type: 'reference', allowedModels: ['place'] }] } })).status).toBe(201);
    const byComponent = await m('/models/place', { method: 'DELETE' });
    expect(byComponent.status).toBe(409);
    expect(byComponent.body.errors.join('\n')).toContain('Component "pin" lists "place" in allowedModels');
    expect((await m('/components/pin', { method: 'DELETE' })).status).toBe(200);
    expect((await m('/models/place', { method: 'DELETE' })).status).toBe(200);
    expect((await m('/components/spare', { method: 'PUT', body: { fields: [] } })).status).toBe(201);
    expect((await m('/components/spare', { method: 'DELETE' })).status).toBe(200);
    expect((await m('/components/spare', { method: 'DELETE' })).status).toBe(404);
  });

  it('a member writes components only when the role covers models (author: 403, developer: 201)', async () => {
    const member = async (role: string) => {
      const email = `${role}-${Date.now()}@example.test`;
      const invited = await m('/invitations', { body: { email, role } });
      expect(invited.status, JSON.stringify(invited.body)).toBe(201);
      await t.json('/auth/invitations/accept', { body: { token: invited.body.result.token, password: 'correct horse battery staple' } });
      return (await t.json('/auth/sign-in', { body: { email, password: 'correct horse battery staple' } })).body.result.token as string;
    };
    const author = await member('author');
    expect((await m('/components', { token: author })).status).toBe(200);
    const refused = await m('/components/quote', { method: 'PUT', token: author, body: { fields: [{ alias: 'text', type: 'text' }] } });
    expect(refused.status).toBe(403);
    expect((await m('/components/hero', { method: 'DELETE', token: author })).status).toBe(403);
    const developer = await member('developer');
    expect((await m('/components/quote', { method: 'PUT', token: developer, body: { fields: [{ alias: 'text', type: 'text' }] } })).status).toBe(201);
    expect((await m('/components/quote', { method: 'DELETE', token: developer })).status).toBe(200);
  });

  it("another organization's token neither sees nor uses this organization's components", async () => {
    const o = (path: string, opts: Opts = {}) => t.json(`/management/v1${path}`, { token: other.manageToken, ...opts });
    expect((await o('/components')).body.result).toEqual([]);
    expect((await o('/components/hero')).status).toBe(404);
    expect((await o('/components/hero', { method: 'DELETE' })).status).toBe(404);
    const model = await o('/models/page', { method: 'PUT', body: { fields: [{ alias: 'body', type: 'component', components: ['hero'] }] } });
    expect(model.status).toBe(422);
    expect(model.body.errors.join('\n')).toContain('components names unknown component "hero"');
    // its own component of the same name is its own, and holds no reference to ours
    expect((await o('/components/hero', { method: 'PUT', body: { fields: [{ alias: 'who', type: 'reference' }] } })).status).toBe(201);
    expect((await o('/models/page', { method: 'PUT', body: { fields: [{ alias: 'body', type: 'component', components: ['hero'] }] } })).status).toBe(201);
    const otherSite = (await o('/sites', { body: { name: 'Other' } })).body.result.id;
    const res = await o('/entries', { body: { model: 'page', siteId: otherSite, fields: { body: { component: 'hero', who: ada } } } });
    expect(res.status).toBe(422);
    expect(res.body.errors.join('\n')).toContain(`fields.body.who: entry "${ada}" not found`);
    expect((await m('/components/hero')).body.result.fields).toHaveLength(3);
  });
});

describe('component values', () => {
  it('are written as given, a list mixing kinds in any order, localized as a whole', async () => {
    const res = await m('/entries', {
      body: {
        model: 'page',
        siteId,
        status: 'PUBLISHED',
        fields: { title: 'Home', body: pageBody(), aside: { component: 'text', body: 'Aside.' } },
        locales: { 'de-DE': { body: [{ component: 'text', body: 'Schlichte Worte.' }, hero({ title: 'Willkommen', image: image2Id })] } },
      },
    });
    expect(res.status, JSON.stringify(res.body)).toBe(201);
    home = res.body.result.id;
    const got = (await m(`/entries/${home}`)).body.result;
    expect(got.fields.body).toEqual(pageBody());
    expect(got.locales['de-DE'].body[1]).toEqual(hero({ title: 'Willkommen', image: image2Id }));
  });

  it('refuses bad values with 422 naming the path and the rule', async () => {
    const cases: [Record<string, unknown>, string][] = [
      [{ body: [hero(), { component: 'text' }] }, 'fields.body[1].body: required'],
      [{ body: [{ component: 'nope' }] }, 'fields.body[0].component: "nope" is not allowed here (allowed: hero, text, gallery)'],
      [{ body: [{ title: 'x' }] }, 'fields.body[0].component: must name the component'],
      [{ body: ['hero'] }, 'fields.body[0]: must be a component value'],
      [{ body: [hero({ title: 'x'.repeat(41) })] }, 'fields.body[0].title: size: must be at most 40 characters long'],
      [{ body: [hero({ colour: 'red' })] }, 'fields.body[0].colour: unknown field (component "hero" has no such field)'],
      [{ body: [{ component: 'text', body: '<b>x</b>' }] }, 'fields.body[0].body: pattern: no markup'],
      [{ body: [{ component: 'gallery', images: [] }] }, 'fields.body[0].images: required'],
      [{ body: [{ component: 'gallery', images: [imageId, imageId, imageId, imageId] }] }, 'fields.body[0].images: size: must hold at most 3 items'],
      [{ body: [{ component: 'gallery', images: ['missing'] }] }, 'fields.body[0].images[0]: asset "missing" not found'],
      [{ body: [hero({ cta: { component: 'link', label: 'x', target: 'home2' } })] }, 'fields.body[0].cta.target: entry "home2" not found'],
      [{ body: [hero({ cta: { component: 'link', label: 'x', target: home } })] }, `fields.body[0].cta.target: entry "${home}" is a "page", not one of the allowed models (person)`],
      [{ body: [hero({ cta: { component: 'hero', title: 'x' } })] }, 'fields.body[0].cta.component: "hero" is not allowed here (allowed: link)'],
      [{ body: Array.from({ length: 11 }, () => ({ component: 'text', body: 'x' })) }, 'fields.body: size: must hold at most 10 items'],
      [{ aside: [{ component: 'text', body: 'x' }] }, 'fields.aside: must be a single value, not a list'],
    ];
    for (const [fields, message] of cases) {
      const res = await m('/entries', { body: { model: 'page', siteId, fields: { title: 'Bad', ...fields } } });
      expect(res.status, message).toBe(422);
      expect(res.body.errors.join('\n'), message).toContain(message);
    }
    const locale = await m('/entries', { body: { model: 'page', siteId, fields: { title: 'Bad' }, locales: { 'de-DE': { body: [{ component: 'gallery', images: ['missing'] }] } } } });
    expect(locale.status).toBe(422);
    expect(locale.body.errors.join('\n')).toContain('locales.de-DE.body[0].images[0]: asset "missing" not found');
  });

  it('are checked on import lines too, and a restore writes an old version back through the same checks', async () => {
    const lines = [
      { type: 'entry', id: 'imported-ok', model: 'page', siteId, fields: { title: 'Imported', body: [{ component: 'text', body: 'Fine.' }] } },
      { type: 'entry', id: 'imported-bad', model: 'page', siteId, fields: { title: 'Imported', body: [{ component: 'gallery', images: [imageId], people: [home] }] } },
    ];
    const res = await t.json('/management/v1/import', { method: 'POST', token: org.manageToken, rawBody: ndjson(lines), headers: { 'content-type': 'application/x-ndjson' } });
    expect(res.body.result.succeeded).toBe(1);
    const failed = res.body.result.results.find((r: { ok: boolean }) => !r.ok);
    expect(failed.errors.join('\n')).toContain(`fields.body[0].people[0]: entry "${home}" is a "page", not one of the allowed models (person)`);

    const first = (await m('/entries/imported-ok/versions')).body.result[0].versionId;
    expect((await m('/entries/imported-ok', { method: 'PATCH', body: { fields: { body: [{ component: 'text', body: 'Changed.' }] } } })).status).toBe(200);
    const restored = await m(`/entries/imported-ok/versions/${first}/restore`, { method: 'POST' });
    expect(restored.status, JSON.stringify(restored.body)).toBe(200);
    expect((await m('/entries/imported-ok')).body.result.fields.body).toEqual([{ component: 'text', body: 'Fine.' }]);
  });
});

describe('components in GraphQL', () => {
  it('are object types; a field of several kinds is a union read with inline fragments, references and media resolved', async () => {
    const res = await gql(delivery, PAGE_QUERY);
    expect(res.errors).toBeUndefined();
    const first = (res.data!.pageCollection as { items: Record<string, unknown>[] }).items.find((i) => i.title === 'Home')!;
    expect(first.body).toEqual([
      { __typename: 'Hero', title: 'Welcome', image: { id: imageId }, cta: { label: 'Meet Ada', target: { name: 'Ada' } } },
      { __typename: 'Text', body: 'Plain words.' },
      { __typename: 'Gallery', images: [{ id: imageId }, { id: image2Id }], people: { items: [{ name: 'Ada' }] }, caption: 'Two' },
    ]);
    expect(first.aside).toEqual({ body: 'Aside.' });
    // metrics count what components hold: Home, Welcome, Meet Ada, Plain words., Two, Aside.; three images
    const metrics = await gql(delivery, `{ page(id: "${home}") { system { metrics { wordCount imageCount } } } }`);
    expect(metrics.errors, JSON.stringify(metrics)).toBeUndefined();
    expect((metrics.data!.page as { system: unknown }).system).toEqual({ metrics: { wordCount: 8, imageCount: 3 } });
    const types = await gql(delivery, '{ union: __type(name: "Page_body") { kind possibleTypes { name } } aside: __type(name: "Page") { fields { name type { name kind } } } }');
    expect(types.data!.union).toEqual({ kind: 'UNION', possibleTypes: [{ name: 'Hero' }, { name: 'Text' }, { name: 'Gallery' }] });
    const fields = (types.data!.aside as { fields: { name: string; type: { name: string } }[] }).fields;
    expect(fields.find((f) => f.name === 'aside')!.type.name).toBe('Text');
  });

  it('filter by the components a field holds (the values inside are not filterable)', async () => {
    const titles = async (where: string, locale = '') => {
      const res = await gql(delivery, `{ pageCollection(where: ${where}${locale}, order: {system: {createdAt: ASC}}) { items { title } } }`);
      expect(res.errors, where).toBeUndefined();
      return (res.data!.pageCollection as { items: { title: string }[] }).items.map((i) => i.title);
    };
    expect(await titles('{body: {component: {some: ["gallery"]}}}')).toEqual(['Home']);
    expect(await titles('{body: {component: {all: ["hero", "text", "gallery"]}}}')).toEqual(['Home']);
    expect(await titles('{body: {component: {none: ["gallery"]}}}')).toEqual(['Imported']);
    // in a locale, its own list is read: German "home" has no gallery
    expect(await titles('{body: {component: {some: ["gallery"]}}}', ', locale: "de-DE"')).toEqual([]);
    expect(await titles('{aside: {component: {eq: "text"}}}')).toEqual(['Home']);
    expect(await titles('{aside: {exists: false}}')).toEqual(['Imported']);
  });

  it("full-text search finds words inside components (not their aliases nor ids), in each locale's own values", async () => {
    const found = async (words: string, locale = '') => {
      const res = await gql(delivery, `{ pageCollection(search: "${words}"${locale}) { items { title } } }`);
      expect(res.errors, words).toBeUndefined();
      return (res.data!.pageCollection as { items: { title: string }[] }).items.map((i) => i.title);
    };
    expect(await found('welcome')).toEqual(['Home']);
    expect(await found('plain words')).toEqual(['Home']);
    expect(await found('meet ada')).toEqual(['Home']);
    expect(await found('hero')).toEqual([]);
    expect(await found(imageId)).toEqual([]);
    expect(await found('willkommen', ', locale: "de-DE"')).toEqual(['Home']);
    expect(await found('welcome', ', locale: "de-DE"')).toEqual([]);
  });

  it('a component taken off a field hides the values of it that entries still hold', async () => {
    const narrowed = { ...PAGE, fields: PAGE.fields.map((f) => (f.alias === 'body' ? { ...f, components: ['hero', 'text'] } : f)) };
    expect((await m('/models/page', { method: 'PUT', body: narrowed })).status).toBe(200);
    try {
      const res = await gql(delivery, `{ page(id: "${home}") { body { __typename } } }`);
      expect(res.errors).toBeUndefined();
      expect((res.data!.page as { body: unknown }).body).toEqual([{ __typename: 'Hero' }, { __typename: 'Text' }]);
    } finally {
      expect((await m('/models/page', { method: 'PUT', body: PAGE })).status).toBe(200);
    }
  });

  it("the README's query runs as written (with the page's id)", async () => {
    const readme = await readFile(new URL('../../README.md', import.meta.url), 'utf8');
    const section = readme.slice(readme.indexOf('#### Components'));
    const query = section.slice(section.indexOf('```graphql') + 10, section.indexOf('```', section.indexOf('```graphql') + 10)).replace('"…"', `"${home}"`);
    const res = await gql(delivery, query);
    expect(res.errors).toBeUndefined();
    const body = (res.data!.page as { body: Record<string, unknown>[] }).body;
    expect(body.map((b) => b.__typename)).toEqual(['Text', 'Hero']);
    expect(body[1]).toMatchObject({ title: 'Willkommen', cta: { label: 'Meet Ada', target: { name: 'Ada' } } });
  });

  it('read a localized component field in the asked locale, references inside read in it too', async () => {
    const res = await gql(delivery, `{ page(id: "${home}", locale: "de-DE") { body { ... on Text { body } ... on Hero { title image { id } cta { target { name } } } } } }`);
    expect(res.errors).toBeUndefined();
    expect((res.data!.page as { body: unknown }).body).toEqual([{ body: 'Schlichte Worte.' }, { title: 'Willkommen', image: { id: image2Id }, cta: { target: { name: 'Ada' } } }]);
  });

  it("are recorded among the entry's edges, every locale's included, so changes to their targets reach the entry", async () => {
    const { rows } = await t.services.db.query<{ kind: string; target_id: string }>(
      `SELECT kind, target_id FROM entry_edges WHERE org_id = $1 AND source_id = $2 AND field = 'body' AND row_id = (SELECT max(row_id) FROM entry_edges WHERE org_id = $1 AND source_id = $2) ORDER BY position`,
      [org.orgId, home],
    );
    expect(rows.map((r) => `${r.kind}:${r.target_id}`)).toEqual([
      `media:${imageId}`, `reference:${ada}`, `media:${imageId}`, `media:${image2Id}`, `reference:${ada}`,
      `media:${image2Id}`, `reference:${ada}`,
    ]);
  });
});

describe('components in export and import', () => {
  it('an export imported into another organization answers the same GraphQL', async () => {
    // two entries that point at each other through components: the export breaks the circle inside the values
    expect((await m('/components/pointer', { method: 'PUT', body: { fields: [{ alias: 'to', type: 'reference' }] } })).status).toBe(201);
    expect((await m('/models/note', { method: 'PUT', body: { titleField: 'name', fields: [{ alias: 'name', type: 'text' }, { alias: 'see', type: 'component', valueType: 'list', components: ['pointer'] }] } })).status).toBe(201);
    const one = (await m('/entries', { body: { model: 'note', siteId, fields: { name: 'One' } } })).body.result.id;
    const two = (await m('/entries', { body: { model: 'note', siteId, fields: { name: 'Two', see: [{ component: 'pointer', to: one }] } } })).body.result.id;
    expect((await m(`/entries/${one}`, { method: 'PATCH', body: { fields: { see: [{ component: 'pointer', to: two }] } } })).status).toBe(200);
    const exported = await fetch(`${t.baseUrl}/management/v1/export`, { headers: { authorization: `Bearer ${org.manageToken}` } });
    const text = await exported.text();
    const lines = text.trim().split('\n').map((l) => JSON.parse(l) as { type: string; alias?: string });
    const at = (type: string, alias: string) => lines.findIndex((l) => l.type === type && l.alias === alias);
    expect(at('component', 'link')).toBeLessThan(at('component', 'hero'));
    expect(at('component', 'hero')).toBeLessThan(at('model', 'page'));
    const copy = await t.createOrg('Components copy');
    const imported = await t.json('/management/v1/import', { method: 'POST', token: copy.manageToken, rawBody: text, headers: { 'content-type': 'application/x-ndjson' } });
    expect(imported.body.result.failed, JSON.stringify(imported.body.result.results.filter((r: { ok: boolean }) => !r.ok))).toBe(0);
    expect((await t.json('/management/v1/components/link', { token: copy.manageToken })).body.result.fields[1].allowedModels).toEqual(['person']);
    const copyToken = await t.createToken(copy.manageToken, ['preview']);
    const notes = `{ noteCollection(order: {system: {createdAt: ASC}}) { items { name see { to { ... on Note { name } } } } } }`;
    for (const query of [notes, PAGE_QUERY, `{ page(id: "${home}", locale: "de-DE") { body { ... on Text { body } ... on Hero { title image { id } cta { target { name } } } } } }`]) {
      const original = await gql(delivery, query);
      expect(original.errors).toBeUndefined();
      expect(await gql(copyToken, query), query).toEqual(original);
    }
    // an import line may reference earlier lines only, inside components too, and says where
    const forward = [
      { type: 'entry', id: 'n1', model: 'note', siteId, fields: { name: 'N1', see: [{ component: 'pointer', to: 'n2' }] } },
      { type: 'entry', id: 'n2', model: 'note', siteId, fields: { name: 'N2' } },
    ];
    const later = await t.json('/management/v1/import', { method: 'POST', token: org.manageToken, rawBody: ndjson(forward), headers: { 'content-type': 'application/x-ndjson' } });
    expect(later.body.result.results[0].errors).toEqual(['fields.see[0].to: entry "n2" not found (line 2 comes later)']);
  });
});
