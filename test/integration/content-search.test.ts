import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestApp, type TestApp, type TestOrg } from '../support/harness.js';

let t: TestApp;
let org: TestOrg;
let siteId: string;
let delivery: string;
const ids: Record<string, string> = {};

const m = (path: string, o: { method?: string; body?: unknown } = {}) => t.json(`/management/v1${path}`, { token: org.manageToken, ...o });
const gql = async (query: string) => {
  const res = await t.json('/graphql', { token: delivery, body: { query } });
  return res.body as { data?: Record<string, { items: { title?: string }[]; total?: number; continuationToken?: string | null }>; errors?: { message: string; extensions?: { code?: string } }[] };
};
const titles = (items: { title?: string }[]) => items.map((i) => i.title);

beforeAll(async () => {
  t = await startTestApp();
  org = await t.createOrg('Search');
  delivery = await t.createToken(org.manageToken, ['delivery']);
  siteId = (await m('/sites', { body: { name: 'Main' } })).body.result.id;
  await m('/locales', { body: { code: 'en-US', name: 'English' } });
  await m('/locales', { body: { code: 'de-DE', name: 'Deutsch' } });
  const model = await m('/models/article', {
    method: 'PUT',
    body: {
      titleField: 'title',
      fields: [
        { alias: 'title', type: 'text', localized: true },
        { alias: 'body', type: 'richtext' },
        { alias: 'tags', type: 'tag', valueType: 'list' },
        { alias: 'n', type: 'number' },
        { alias: 'code', type: 'json' },
      ],
    },
  });
  expect(model.status).toBe(201);
  await m('/models/note', { method: 'PUT', body: { titleField: 'title', fields: [{ alias: 'title', type: 'text' }] } });
  const entries: [string, Record<string, unknown>, Record<string, unknown> | undefined][] = [
    ['dogs', { title: 'Running dogs', body: 'Dogs run in the park; the dog runs fast.', tags: ['pets'], n: 1 }, { 'de-DE': { title: 'Laufende Hunde in den Häusern' } }],
    ['cats', { title: 'Sleeping cats', body: 'A cat sleeps all day. Nothing runs here.', tags: ['pets'], n: 2 }, { 'de-DE': { title: 'Schlafende Katzen' } }],
    ['cars', { title: 'Fast cars', body: 'Engines and wheels.', tags: ['motors', 'running'], n: 3, code: { hidden: 'dog' } }, undefined],
    ['draft', { title: 'Running draft', body: 'not published' }, undefined],
  ];
  for (const [key, fields, locales] of entries) {
    const res = await m('/entries', { body: { model: 'article', siteId, status: key === 'draft' ? undefined : 'PUBLISHED', fields, ...(locales ? { locales } : {}) } });
    expect(res.status, JSON.stringify(res.body)).toBe(201);
    ids[key] = res.body.result.id;
  }
  await m('/entries', { body: { model: 'note', siteId, status: 'PUBLISHED', fields: { title: 'Dog walking note' } } });
});
afterAll(async () => {
  await t?.close();
});

describe('search on GraphQL collections', () => {
  it('matches stemmed words across the text fields, most relevant first', async () => {
    const r = await gql('{ articleCollection(search: "run") { total items { title } } }');
    expect(r.errors).toBeUndefined();
    // "runs", "running" and "run" stem alike in english; the dogs entry says it three times; tags count too
    const found = titles(r.data!.articleCollection.items);
    expect(found[0]).toBe('Running dogs');
    expect(found.slice(1).sort()).toEqual(['Fast cars', 'Sleeping cats']);
    expect(r.data!.articleCollection.total).toBe(3);
    // json fields and drafts are not searched (delivery reads published entries)
    expect(titles((await gql('{ articleCollection(search: "dog") { items { title } } }')).data!.articleCollection.items)).toEqual(['Running dogs']);
    expect((await gql('{ articleCollection(search: "zebra") { items { title } } }')).data!.articleCollection.items).toEqual([]);
  });

  it('reads the asked locale, stemmed for its language', async () => {
    const de = await gql('{ articleCollection(search: "Haus", locale: "de-DE") { items { title } } }');
    expect(de.errors).toBeUndefined();
    expect(titles(de.data!.articleCollection.items)).toEqual(['Laufende Hunde in den Häusern']);
    // the default locale's title does not say it
    expect((await gql('{ articleCollection(search: "Haus") { items { title } } }')).data!.articleCollection.items).toEqual([]);
    // a field without a value in the locale is read from the default
    expect(titles((await gql('{ articleCollection(search: "engines", locale: "de-DE") { items { title } } }')).data!.articleCollection.items)).toEqual(['Fast cars']);
  });

  it('combines with where, order and paging', async () => {
    const found = titles((await gql('{ articleCollection(search: "run") { items { title } } }')).data!.articleCollection.items);
    const where = await gql('{ articleCollection(search: "run", where: {n: {gte: 2}}) { items { title } } }');
    expect(titles(where.data!.articleCollection.items).sort()).toEqual(['Fast cars', 'Sleeping cats']);
    const ordered = await gql('{ articleCollection(search: "run", order: {n: DESC}) { items { title } } }');
    expect(titles(ordered.data!.articleCollection.items)).toEqual(['Fast cars', 'Sleeping cats', 'Running dogs']);
    const first = await gql('{ articleCollection(search: "run", limit: 2) { items { title } continuationToken } }');
    const token = first.data!.articleCollection.continuationToken;
    expect(token).toBeTruthy();
    const next = await gql(`{ articleCollection(search: "run", limit: 2, continuationToken: "${token}") { items { title } continuationToken } }`);
    // the pages together are the ranked list, each entry once
    expect([...titles(first.data!.articleCollection.items), ...titles(next.data!.articleCollection.items)]).toEqual(found);
    // the token belongs to its search
    const other = await gql(`{ articleCollection(search: "dog", limit: 2, continuationToken: "${token}") { items { title } } }`);
    expect(other.errors?.[0].message).toBeTruthy();
  });

  it('works on entryCollection across models, and refuses a relevance order without a search', async () => {
    const all = await gql('{ entryCollection(search: "dog") { items { __typename } } }');
    expect(all.errors).toBeUndefined();
    expect(all.data!.entryCollection.items).toHaveLength(2);
    const bad = await gql('{ articleCollection(order: {system: {relevance: DESC}}) { items { title } } }');
    expect(bad.errors?.[0].message).toContain('only a search');
    const blank = await gql('{ articleCollection(search: "  ") { items { title } } }');
    expect(blank.errors?.[0].message).toContain('search: give at least one word');
  });
});

describe('search on the management listing', () => {
  it('finds drafts too, ranked, combinable with model and locale', async () => {
    const res = await m('/entries?search=running&model=article');
    expect(res.status).toBe(200);
    expect(new Set(res.body.result.map((e: { id: string }) => e.id))).toEqual(new Set([ids.dogs, ids.draft, ids.cars, ids.cats]));
    expect(res.body.result[0].id).toBe(ids.dogs);
    expect(res.body.resultInfo.totalCount ?? res.body.resultInfo.total).toBe(4);
    const de = await m('/entries?search=katze&locale=de-DE');
    expect(de.body.result.map((e: { id: string }) => e.id)).toEqual([ids.cats]);
  });

  it('follows each write: a changed entry is found by its new words only', async () => {
    expect((await m(`/entries/${ids.cars}`, { method: 'PATCH', body: { fields: { body: 'Bicycles instead.' } } })).status).toBe(200);
    expect((await m('/entries?search=engines')).body.result).toEqual([]);
    expect((await m('/entries?search=bicycle')).body.result.map((e: { id: string }) => e.id)).toEqual([ids.cars]);
  });
});
