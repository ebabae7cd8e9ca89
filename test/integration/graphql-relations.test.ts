import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ReadSet } from '../../shared/edge/surrogate-keys.js';
import { assembleFields, entryColumns, type EntryColumn, type DeliveredEntryRow } from '../../shared/delivery/entry-row.js';
import { createLoaders } from '../../shared/delivery/loaders.js';
import { startTestApp, type TestApp } from '../support/harness.js';
import { doc, heading, ids, insertAsset, para, setupOrg, uploadImage, type GqlOrg } from './graphql-support.js';

/** References, reverse relations, next entries, rich content, sections, authors, labels, lists, assets. */
let app: TestApp;
let o: GqlOrg;
/** An image uploaded through the management API (test/fixtures/images/goldfish.png, 3640×2400). */
let img: string;

const f = (alias: string, type: string, extra: Record<string, unknown> = {}) => ({ alias, type, ...extra });
const day = (d: number) => `2026-04-${String(d).padStart(2, '0')}T00:00:00.000Z`;

beforeAll(async () => {
  app = await startTestApp({ workers: false });
  o = await setupOrg(app);
  img = await uploadImage(app, o.manage);
  await o.m('PATCH', `/assets/${img}`, { tags: ['a', 'b'], focalPoint: { x: 0.25, y: 0.75 }, focalPoints: [{ ratio: '1:1', focalPoint: { x: 0.25, y: 0.75 } }] });
  // No video fixture file exists (uploads sniff the bytes), so the video is a database row.
  await insertAsset(app, o.orgId, { id: 'vid1', type: 'VIDEO', fileName: 'clip.mp4' });
  await o.m('PUT', '/models/person', { titleField: 'name', fields: [f('name', 'text')] });
  await o.m('PUT', '/models/article', {
    titleField: 'title',
    fields: [
      f('title', 'text'),
      f('views', 'number'),
      f('at', 'datetime'),
      f('author', 'reference', { allowedModels: ['person'] }),
      f('cover', 'reference', { allowedModels: ['person', 'article'] }),
      f('people', 'reference', { valueType: 'list', allowedModels: ['person'] }),
      f('related', 'reference', { valueType: 'list' }),
      f('body', 'richcontent'),
      f('hero', 'media'),
      f('gallery', 'media', { valueType: 'list' }),
      f('section', 'section'),
      f('writer', 'author'),
      f('writers', 'author', { valueType: 'list' }),
      f('place', 'location'),
      f('extra', 'json'),
      f('price', 'number', { numberFormat: 'decimal' }),
    ],
  });
  await o.m('POST', '/sections', { id: 'root', title: 'Root', slug: 'root' });
  await o.m('POST', '/sections', { id: 'child', title: 'Child', parentId: 'root' });
  await o.m('POST', '/sections', { id: 'grandchild', title: 'Grandchild', parentId: 'child' });
  await o.m('PUT', '/sections/root/media', [img, 'vid1']);
  await o.m('POST', '/authors', { id: 'w1', byline: 'Writer One', imageId: img, profession: ['editor'] });
  await o.m('POST', '/authors', { id: 'w2', byline: 'Writer Two' });
  await o.m('POST', '/labels', { id: 'l1', name: 'Breaking', color: 'red' });
  for (const [id, name] of [['p1', 'Ann'], ['p2', 'Bob']]) {
    await o.m('PUT', `/entries/${id}`, { model: 'person', siteId: o.siteId, fields: { name }, status: 'PUBLISHED', publishedAt: day(1) });
  }
  const article = (id: string, d: number, fields: Record<string, unknown>, extra: Record<string, unknown> = {}) =>
    o.m('PUT', `/entries/${id}`, { model: 'article', siteId: o.siteId, fields: { title: id.toUpperCase(), ...fields }, status: 'PUBLISHED', publishedAt: day(d), ...extra });
  await article('a2', 2, { views: 5, at: day(20), author: 'p2', section: 'root' });
  await article('a1', 3, {
    views: 10,
    at: day(10),
    author: 'p1',
    cover: 'p2',
    people: ['p2', 'p1'],
    related: ['p2', 'a2'],
    hero: img,
    gallery: [img, 'vid1'],
    section: 'grandchild',
    writer: 'w1',
    writers: ['w2', 'w1'],
    place: { address: 'Main St 1', latitude: '52.5', longitude: '13.4' },
    extra: { a: [1, 2] },
    price: '19.99',
    body: doc(
      heading(2, 'Intro <b>'),
      {
        type: 'paragraph',
        content: [
          { type: 'text', text: 'safe', marks: [{ type: 'link', attrs: { href: 'https://example.com/?a=1&b=2' } }] },
          { type: 'text', text: ' bad', marks: [{ type: 'link', attrs: { href: 'javascript:alert(1)' } }, { type: 'bold' }] },
        ],
      },
      { type: 'cms_reference', attrs: { id: 'p2' } },
      { type: 'cms_media', attrs: { id: img } },
      para('<script>alert(1)</script>'),
    ),
  }, { labels: ['l1'] });
  await article('a3', 4, { views: 20, at: day(5), author: 'p1', cover: 'a1', related: ['a1'], section: 'child' });
  await article('a4', 5, { views: 15, author: 'p1' }, { attrs: { origin: 'wire' } });
  await article('a5', 6, { views: 1, author: 'p1' }, { status: 'DRAFT', publishedAt: undefined });
  await o.m('POST', '/lists', { id: 'home', name: 'Home page' });
  await o.m('POST', '/lists', { id: 'side', name: 'Sidebar' });
  await o.m('PUT', '/lists/home/entries', [
    { entryId: 'a1' },
    { entryId: 'a2', startAt: '2026-05-01T00:00:00Z', endAt: '2026-06-01T00:00:00Z' },
    { entryId: 'a3', endAt: '2026-05-15T00:00:00Z' },
    { entryId: 'a5' },
    { entryId: 'p1', startAt: '2026-05-20T00:00:00Z' },
  ]);
});

afterAll(async () => {
  await app?.close();
});

/** One request's data and the SQL statements it cost; a fresh alias keeps the response cache out of it. */
let fresh = 0;
async function statements(query: string, variables: Record<string, unknown> = {}, token = o.delivery) {
  await o.d('{ __typename }', {}, token);
  const before = app.services.db.stats.queries;
  const data = await o.d(query.replace('{', `{ fresh${fresh++}: __typename `), variables, token);
  return { data, count: app.services.db.stats.queries - before };
}

/** Runs `f` while every statement's SQL (and whether it asked to be prepared) is written to `seen`. */
async function loggingStatements(f: (seen: Array<{ sql: string; prepare: boolean }>) => Promise<void>): Promise<void> {
  const db = app.services.db;
  const query = db.query;
  const seen: Array<{ sql: string; prepare: boolean }> = [];
  db.query = ((sql: string, params?: readonly unknown[], options?: { prepare?: boolean }) => {
    seen.push({ sql, prepare: options?.prepare === true });
    return query.call(db, sql, params, options);
  }) as typeof db.query;
  try {
    await f(seen);
  } finally {
    db.query = query;
  }
}

describe('references', () => {
  it('resolves single references as the concrete type or CmsEntry, and list references as collections in field order', async () => {
    const d = await o.d(`{ article(id: "a1") {
      author { id name }
      cover { __typename id ... on Person { name } }
      people(limit: 1) { total limit items { name } }
      all: people { total items { id } }
      related { total items { __typename id ... on Person { name } ... on Article { title } } }
      place { address latitude longitude }
      extra price
    } }`);
    expect(d.article.author).toEqual({ id: 'p1', name: 'Ann' });
    expect(d.article.cover).toEqual({ __typename: 'Person', id: 'p2', name: 'Bob' });
    expect(d.article.people).toEqual({ total: 2, limit: 1, items: [{ name: 'Bob' }] });
    expect(ids(d.article.all)).toEqual(['p2', 'p1']);
    expect(d.article.related.items).toEqual([{ __typename: 'Person', id: 'p2', name: 'Bob' }, { __typename: 'Article', id: 'a2', title: 'A2' }]);
    expect(d.article.place).toEqual({ address: 'Main St 1', latitude: '52.5', longitude: '13.4' });
    expect(d.article.extra).toEqual({ a: [1, 2] });
    expect(d.article.price).toBe('19.99');
  });

  it('drops references to entries the token may not see', async () => {
    const d = await o.d('{ article(id: "a3") { cover { id } related { total items { id } } } }');
    expect(d.article.cover).toEqual({ id: 'a1' });
    await o.m('PUT', '/entries/hidden', { model: 'article', siteId: o.siteId, fields: { title: 'H', related: ['a5'], cover: 'a5' }, status: 'PUBLISHED' });
    const h = await o.d('{ article(id: "hidden") { cover { id } related { total items { id } } } }');
    expect(h.article).toEqual({ cover: null, related: { total: 0, items: [] } });
    const p = await o.d('{ article(id: "hidden") { cover { id } related { total items { id } } } }', {}, o.preview);
    expect(p.article).toEqual({ cover: { id: 'a5' }, related: { total: 1, items: [{ id: 'a5' }] } });
    await o.m('DELETE', '/entries/hidden');
  });

  it('reads an entry and the targets of its selected single references in one statement', async () => {
    await o.m('PUT', '/entries/half', { model: 'article', siteId: o.siteId, fields: { title: 'Half', author: 'p2', cover: 'a5' }, status: 'PUBLISHED' });
    const both = await statements('{ article(id: "half") { title author { id name } cover { id } } }');
    expect(both.data.article).toMatchObject({ title: 'Half', author: { id: 'p2', name: 'Bob' }, cover: null }); // a5 is a draft
    expect(both.count).toBe(1);
    const preview = await statements('{ article(id: "half") { cover { __typename id ... on Article { title } } } }', {}, o.preview);
    expect(preview.data.article.cover).toEqual({ __typename: 'Article', id: 'a5', title: 'A5' });
    expect(preview.count).toBe(1);
    // Without a reference in the selection the read is the plain one; a missing entry is null.
    expect((await statements('{ article(id: "half") { title } }')).count).toBe(1);
    const missing = await statements('{ article(id: "nope") { author { id } } }');
    expect([missing.data.article, missing.count]).toEqual([null, 1]);
    // A reference of another model's type is not served through the wrong root field.
    expect((await statements('{ person(id: "half") { name } article(id: "p1") { author { id } } }')).data).toMatchObject({ person: null, article: null });
    await o.m('DELETE', '/entries/half');
  });

  it('asks to prepare the statements of unfiltered pages and lookups, not those of filtered or deeply offset pages', async () => {
    await loggingStatements(async (seen) => {
      const run = async (q: string) => {
        seen.length = 0;
        await statements(q);
        return seen.filter((s) => /\bentries\b/.test(s.sql));
      };
      const plain = await run(`{ articleCollection(order: {views: ASC}) { total items { id author { name } related { total items { id } } } }
        person(id: "p1") { relations { articleCollection { total items { id } } } } }`);
      expect(plain.length).toBeGreaterThanOrEqual(5);
      expect(plain.filter((s) => !s.prepare)).toEqual([]);
      const filtered = await run(`{ articleCollection(where: {views: {gt: 1}}) { total items { id } } }`);
      expect(filtered.length).toBe(2);
      expect(filtered.filter((s) => s.prepare)).toEqual([]);
      // a deep offset is planned with its value too
      const deep = await run(`{ articleCollection(offset: 1001) { items { id } } }`);
      expect(deep.map((s) => s.prepare)).toEqual([false]);
    });
  });

  it('reads the sort keys of a page only when its continuation token is asked for and can be given', async () => {
    await loggingStatements(async (seen) => {
      const keyed = async (q: string, variables: Record<string, unknown> = {}) => {
        seen.length = 0;
        const { data } = await statements(q, variables);
        const pages = seen.filter((s) => /\bFROM entries e\b.*\bORDER BY\b/s.test(s.sql));
        expect(pages.length).toBe(1);
        return { page: data.articleCollection ?? data.entryCollection, keys: /\b_k0\b/.test(pages[0].sql) };
      };
      const order = 'order: {views: DESC}, limit: 2';
      expect((await keyed(`{ articleCollection(${order}) { items { id } } }`)).keys).toBe(false);
      expect((await keyed(`{ entryCollection(limit: 2) { total items { id } } }`)).keys).toBe(false);
      // an offset past 0 gets no token, asked or not
      const offset = await keyed(`{ articleCollection(${order}, offset: 1) { continuationToken items { id } } }`);
      expect(offset).toEqual({ page: { continuationToken: null, items: [{ id: 'a4' }, { id: 'a1' }] }, keys: false });
      const first = await keyed(`{ articleCollection(${order}) { items { id } ... on ArticleCollection { continuationToken } } }`);
      expect(first.keys).toBe(true);
      const next = await keyed(`query($t: String) { articleCollection(${order}, continuationToken: $t) { continuationToken items { id } } }`, {
        t: first.page.continuationToken,
      });
      expect(next).toEqual({ page: { continuationToken: null, items: [{ id: 'a1' }, { id: 'a2' }] }, keys: true });
      // a token request that does not ask for the next token resumes from its own keys
      const resumed = await keyed(`query($t: String) { articleCollection(${order}, continuationToken: $t) { items { id } } }`, {
        t: first.page.continuationToken,
      });
      expect(resumed).toEqual({ page: { items: [{ id: 'a1' }, { id: 'a2' }] }, keys: false });
      // reverse relations and next entries never carry a token
      expect((await keyed('{ person(id: "p1") { relations { articleCollection(order: {views: DESC}) { total items { id } } } } }')).keys).toBe(false);
      expect((await keyed('{ article(id: "a3") { relations { nextArticleEntryCollection(order: {views: DESC}, limit: 1) { items { id } } } } }')).keys).toBe(false);
    });
  });

  it('reads a page with the targets of its selected single references, and a title search with its total, in one statement', async () => {
    const page = await statements('{ articleCollection(order: {views: DESC}) { items { id author { name } cover { id } } } }');
    expect(page.data.articleCollection.items).toEqual([
      { id: 'a3', author: { name: 'Ann' }, cover: { id: 'a1' } },
      { id: 'a4', author: { name: 'Ann' }, cover: null },
      { id: 'a1', author: { name: 'Ann' }, cover: { id: 'p2' } },
      { id: 'a2', author: { name: 'Bob' }, cover: null },
    ]);
    expect(page.count).toBe(1);

    const search = '{ articleCollection(where: {title: {contains: "a"}}, order: {views: DESC}, limit: 3) { total continuationToken items { id author { name } } } }';
    const first = await statements(search);
    expect(first.data.articleCollection).toMatchObject({ total: 4, items: [{ id: 'a3' }, { id: 'a4' }, { id: 'a1', author: { name: 'Ann' } }] });
    expect(first.count).toBe(1);
    // after a token, or past the end, the page cannot count all matches: `total` is its own statement
    const next = await statements(
      'query($t: String) { articleCollection(where: {title: {contains: "a"}}, order: {views: DESC}, limit: 3, continuationToken: $t) { total items { id author { name } } } }',
      { t: first.data.articleCollection.continuationToken },
    );
    expect(next.data.articleCollection).toEqual({ total: 4, items: [{ id: 'a2', author: { name: 'Bob' } }] });
    expect(next.count).toBe(2);
    const past = await statements('{ articleCollection(where: {title: {contains: "a"}}, offset: 10) { total items { id } } }');
    expect(past.data.articleCollection).toEqual({ total: 4, items: [] });
    expect(past.count).toBe(2);
  });
});

describe('relations', () => {
  it('lists referencing entries per model and across models, with filter, order and total', async () => {
    const d = await o.d(`{ person(id: "p1") { relations {
      articleCollection(order: {views: DESC}) { total items { id } }
      filtered: articleCollection(where: {views: {gt: 12}}) { total items { id } }
      entryCollection(limit: 2, order: {system: {publishedAt: ASC}}) { total items { id } }
    } } }`);
    expect(d.person.relations.articleCollection).toEqual({ total: 3, items: [{ id: 'a3' }, { id: 'a4' }, { id: 'a1' }] });
    expect(d.person.relations.filtered).toEqual({ total: 2, items: [{ id: 'a4' }, { id: 'a3' }] });
    expect(d.person.relations.entryCollection).toEqual({ total: 3, items: [{ id: 'a1' }, { id: 'a3' }] });
    const p2 = await o.d('{ person(id: "p2") { relations { entryCollection { total items { id } } } } }');
    // a1 references p2 through author? no: through cover, people, related and rich content — once
    expect(p2.person.relations.entryCollection).toEqual({ total: 2, items: [{ id: 'a1' }, { id: 'a2' }] });
    const preview = await o.d('{ person(id: "p1") { relations { articleCollection { total } } } }', {}, o.preview);
    expect(preview.person.relations.articleCollection.total).toBe(4);
  });

  it('a reverse relation page counts its total in its own statement; past the end, a count follows', async () => {
    const page = await statements('{ person(id: "p1") { relations { articleCollection(limit: 2) { total items { id } } } } }');
    expect(page.data.person.relations.articleCollection).toEqual({ total: 3, items: [{ id: 'a4' }, { id: 'a3' }] });
    expect(page.count).toBe(2);
    const past = await statements('{ person(id: "p1") { relations { articleCollection(offset: 10) { total items { id } } } } }');
    expect(past.data.person.relations.articleCollection).toEqual({ total: 3, items: [] });
    expect(past.count).toBe(3);
    const onlyTotal = await statements('{ person(id: "p1") { relations { articleCollection { total } } } }');
    expect([onlyTotal.data.person.relations.articleCollection.total, onlyTotal.count]).toEqual([3, 2]);
  });

  it('next entries follow the order key of the entry; other orders give null', async () => {
    const d = await o.d(`{ article(id: "a2") { relations {
      after: nextArticleEntryCollection(order: {system: {publishedAt: ASC}}, limit: 2) { total items { id } }
      before: nextArticleEntryCollection(order: {system: {publishedAt: DESC}}) { items { id } }
      byViews: nextArticleEntryCollection(order: {views: ASC}) { items { id } }
      byAt: nextArticleEntryCollection(order: {at: DESC}) { items { id } }
      filtered: nextArticleEntryCollection(order: {system: {publishedAt: ASC}}, where: {views: {gte: 15}}) { items { id } }
      byTitle: nextArticleEntryCollection(order: {title: ASC}) { items { id } }
      twoKeys: nextArticleEntryCollection(order: {views: ASC, thenBy: [{at: ASC}]}) { items { id } }
    } } }`);
    const r = d.article.relations;
    expect(r.after).toEqual({ total: 3, items: [{ id: 'a1' }, { id: 'a3' }] });
    expect(r.before.items).toEqual([]);
    expect(ids(r.byViews)).toEqual(['a1', 'a4', 'a3']);
    expect(ids(r.byAt)).toEqual(['a1', 'a3']);
    expect(ids(r.filtered)).toEqual(['a3', 'a4']);
    expect(r.byTitle).toBeNull();
    expect(r.twoKeys).toBeNull();
  });
});

describe('collection items read only the columns their selection needs', () => {
  const SYSTEM = `system { title slug clonedFrom modelAlias modelId externalId versionId siteId metrics { wordCount characterCount }
    labels { id } status publishedAt firstPublishedAt createdAt updatedAt unpublishedAt }`;
  /**
   * An article read by id from whole rows: selecting `relations` makes every read of the entry
   * and its references take whole rows, so this is the reference the narrowed reads must equal.
   */
  const wholeById = async (id: string, selection: string) => {
    const { relations: _, ...rest } = (await o.d(`{ article(id: "${id}") { ${selection} relations { __typename } } }`)).article;
    return rest;
  };
  /** Every article as a root collection lists it, and as `article(id)` reads it from whole rows. */
  const both = async (selection: string) => {
    const page = await o.d(`{ articleCollection(order: {views: ASC}) { items { id ${selection} } } }`);
    const items = page.articleCollection.items as Array<{ id: string }>;
    expect(items.length).toBeGreaterThan(2);
    const byId = await Promise.all(items.map((i) => wholeById(i.id, `id ${selection}`)));
    return { items, byId };
  };

  it('system fields, attrs and model fields match the entry read by id, selected in every combination', async () => {
    for (const selection of [SYSTEM, `attrs title views ${SYSTEM}`, 'system { publishedAt }', 'system { labels { name } status }', 'title at author { id }']) {
      const { items, byId } = await both(selection);
      expect(items).toEqual(byId);
    }
  });

  it('every model field, read from a narrowed `fields`, matches the entry read by id', async () => {
    const fields = `title views at author { id } cover { __typename id } people { items { id } } related { total items { id } }
      body { type text entries { items { id } } } body_v2 { blocks { type text contentHTML } entries { items { id } } media_v2 { items { id } } }
      hero { id } gallery { id } section { id path { id } } writer { id } writers { id } place { address latitude } extra price`;
    const { items, byId } = await both(fields);
    expect(items).toEqual(byId);
    expect((items as Array<Record<string, unknown>>).some((i) => i.body_v2 !== null && i.hero !== null)).toBe(true);
    // the generic collection, with model fields in fragments of two models, against entry(id)
    const page = await o.d(`{ entryCollection(limit: 50) { items { id ... on Article { title views body_v2 { blocks { type } } } ... on Person { name } } } }`);
    const generic = page.entryCollection.items as Array<{ id: string }>;
    expect(generic.length).toBeGreaterThan(4);
    for (const item of generic) {
      // `relations` makes the read by id take whole rows
      const byId = await o.d(`{ entry(id: "${item.id}") { id ... on Article { title views body_v2 { blocks { type } } relations { __typename } } ... on Person { name relations { __typename } } } }`);
      const { relations: _, ...whole } = byId.entry;
      expect(item).toEqual(whole);
    }
  });

  it('an entry by id and the targets of its references, read narrowed, match whole rows (which `relations` asks for)', async () => {
    const selection = `id attrs title views body_v2 { blocks { type } } ${SYSTEM}
      author { id name system { createdAt labels { id } } } cover { __typename id ... on Person { name } ... on Article { title views } }`;
    for (const id of ['a1', 'a2', 'a3']) {
      const narrow = await statements(`{ article(id: "${id}") { ${selection} } }`);
      const whole = await statements(`{ article(id: "${id}") { ${selection} relations { __typename } } }`);
      expect({ ...narrow.data.article, relations: whole.data.article.relations }).toEqual(whole.data.article);
      // the entry with its targets in one statement (plus the labels, where it has some)
      expect(narrow.count).toBe(whole.count);
      expect(narrow.count).toBeLessThanOrEqual(2);
    }
    const generic = await o.d(`{ entry(id: "a1") { id ... on Article { title author { name } } } }`);
    expect(generic.entry).toEqual({ id: 'a1', title: 'A1', author: { name: 'Ann' } });
  });

  it('the same reference selected twice with different fields, and a page with references, take one statement', async () => {
    const twice = await statements(`{ article(id: "a1") { a: author { name } b: author { id system { createdAt } } c: cover { id } } }`);
    expect(twice.data.article).toMatchObject({ a: { name: 'Ann' }, b: { id: 'p1' }, c: { id: 'p2' } });
    expect(typeof twice.data.article.b.system.createdAt).toBe('string');
    expect(twice.count).toBe(1);
    const items = `id title author { name system { publishedAt } } cover { id ... on Article { title } }`;
    const page = await statements(`{ articleCollection(order: {views: ASC}) { items { ${items} } } }`);
    const whole = await o.d(`{ articleCollection(order: {views: ASC}) { items { ${items} relations { __typename } } } }`);
    expect(page.data.articleCollection.items).toEqual(whole.articleCollection.items.map(({ relations: _, ...rest }: { relations: unknown }) => rest));
    expect(page.count).toBe(1);
  });

  it('a shaped entry loader takes a row already read in a shape that covers its own, and reads otherwise', async () => {
    const loaders = createLoaders(app.services.db, o.orgId, 'delivery', new ReadSet());
    const shape = (columns: EntryColumn[], keys: string[]) => ({ columns: new Set<EntryColumn>(['row_id', 'id', 'model_alias', 'fields', ...columns]), fieldKeys: new Set(keys) });
    const reads = async <T>(fn: () => Promise<T>) => {
      const before = app.services.db.stats.queries;
      const value = await fn();
      return { value, count: app.services.db.stats.queries - before };
    };
    const narrow = await reads(() => loaders.entryShaped(shape([], ['name'])).load('p1'));
    expect([narrow.value?.fields, narrow.value?.created_at, narrow.count]).toEqual([{ name: 'Ann' }, undefined, 1]);
    // wider than what was read: read again, in its own shape
    const wide = await reads(() => loaders.entryShaped(shape(['created_at'], ['name'])).load('p1'));
    expect([wide.value?.created_at instanceof Date, wide.count]).toEqual([true, 1]);
    // covered by the wide row, or by a whole one, or known not to be visible: no read
    const covered = await reads(() => Promise.all([loaders.entryShaped(shape(['created_at'], [])).load('p1'), loaders.entry.load('p2')]));
    expect(covered.count).toBe(1); // p2, whole
    const fromWhole = await reads(() => loaders.entryShaped(shape(['status'], ['name'])).load('p2'));
    expect([fromWhole.value?.fields, fromWhole.count]).toEqual([{ name: 'Bob' }, 0]);
    loaders.primeEntry(shape(['title'], []), 'ghost', null);
    expect(await reads(() => loaders.entryShaped(shape([], [])).load('ghost'))).toEqual({ value: null, count: 0 });
  });

  it('a narrowed row carries exactly the asked keys of `fields`, missing ones as null', async () => {
    const read = async (keys: string[]) => {
      const shape = { columns: new Set(['id', 'fields'] as const), fieldKeys: new Set(keys) };
      const sql = `SELECT ${entryColumns('e', shape)} FROM entries e WHERE e.org_id = $1 AND e.id = 'a1' AND e.in_delivery`;
      const [row] = assembleFields((await app.services.db.query<DeliveredEntryRow>(sql, [o.orgId])).rows, shape);
      return { id: row.id, fields: row.fields };
    };
    expect(await read(['views', 'price', 'nothing', "it's", 'a"b'])).toEqual({ id: 'a1', fields: { views: 10, price: '19.99', nothing: null, "it's": null, 'a"b': null } });
    expect(await read([])).toEqual({ id: 'a1', fields: {} });
    // beyond 50 keys, the whole value is read instead of a column per key
    const many = await read(Array.from({ length: 60 }, (_, i) => `k${i}`));
    expect(Object.keys(many.fields)).toContain('body');
  });

  it('so do the items of reverse relations and of reference lists', async () => {
    const selection = `id attrs title ${SYSTEM}`;
    const d = await o.d(`{
      person(id: "p1") { relations { articleCollection { items { ${selection} } } } }
      article(id: "a3") { related { items { ... on Article { ${selection} } } } }
    }`);
    const lists = [d.person.relations.articleCollection.items, d.article.related.items] as Array<Array<{ id: string }>>;
    expect(lists.map((l) => l.length)).toEqual([3, 1]);
    for (const list of lists) {
      for (const item of list) expect(item).toEqual(await wholeById(item.id, selection));
    }
  });

  it("a fragment's system fields count, and next entries (which read the row) still resolve", async () => {
    const page = await o.d(`query { articleCollection(order: {views: ASC}) { items { id ...A } } }
      fragment A on Article { system { ...S } relations { nextArticleEntryCollection(order: {system: {firstPublishedAt: ASC}}) { items { id } } } }
      fragment S on CmsSystem { publishedAt labels { id } }`);
    const items = page.articleCollection.items as Array<{ id: string; system: { publishedAt: string } }>;
    expect(items.every((i) => typeof i.system.publishedAt === 'string')).toBe(true);
    const first = await o.d(`{ article(id: "${items[0].id}") { relations { nextArticleEntryCollection(order: {system: {firstPublishedAt: ASC}}) { items { id } } } } }`);
    expect(first.article.relations.nextArticleEntryCollection.items.length).toBeGreaterThan(0);
    expect(page.articleCollection.items[0].relations).toEqual(first.article.relations);
  });
});

describe('rich content', () => {
  it('renders blocks, escaped HTML with safe links, and resolves entries and media', async () => {
    const d = await o.d(`{ article(id: "a1") {
      body_v2 {
        blocks { type text attrs marks { type } contentHTML }
        entries { total items { id ... on Person { name } } }
        media_v2 { total items { id type media { fileName width } } }
        media { total items { id fileName } }
      }
      body { type text entries { items { id } } media { items { id } } }
    } }`);
    const v2 = d.article.body_v2;
    expect(v2.blocks.map((b: { type: string }) => b.type)).toEqual(['heading', 'paragraph', 'cms_reference', 'cms_media', 'paragraph']);
    expect(v2.blocks[0]).toMatchObject({ text: 'Intro <b>', attrs: { level: 2 }, contentHTML: '<h2>Intro &lt;b&gt;</h2>' });
    expect(v2.blocks[1].contentHTML).toBe('<p><a href="https://example.com/?a=1&amp;b=2" rel="noopener noreferrer">safe</a><strong> bad</strong></p>');
    expect(v2.blocks[4].contentHTML).toBe('<p>&lt;script&gt;alert(1)&lt;/script&gt;</p>');
    expect(v2.entries).toEqual({ total: 1, items: [{ id: 'p2', name: 'Bob' }] });
    expect(v2.media_v2).toEqual({ total: 1, items: [{ id: img, type: 'IMAGE', media: { fileName: 'goldfish.png', width: 3640 } }] });
    expect(v2.media).toEqual({ total: 1, items: [{ id: img, fileName: 'goldfish.png' }] });
    expect(d.article.body[2]).toEqual({ type: 'cms_reference', text: '', entries: { items: [{ id: 'p2' }] }, media: { items: [] } });
    expect(d.article.body[3].media.items).toEqual([{ id: img }]);
  });

  it('marks the transition fields deprecated', async () => {
    const d = await o.d(`{
      article: __type(name: "Article") { fields(includeDeprecated: true) { name type { name kind ofType { name kind ofType { name } } } isDeprecated deprecationReason } }
      rich: __type(name: "CmsRichContent") { fields(includeDeprecated: true) { name isDeprecated } }
    }`);
    const body = d.article.fields.find((x: { name: string }) => x.name === 'body');
    expect(body).toMatchObject({ isDeprecated: true, deprecationReason: 'Use body_v2.', type: { kind: 'LIST', ofType: { kind: 'NON_NULL', ofType: { name: 'CmsContentBlock' } } } });
    expect(d.article.fields.find((x: { name: string }) => x.name === 'body_v2')).toMatchObject({ isDeprecated: false, type: { name: 'CmsRichContent' } });
    expect(d.rich.fields).toEqual([
      { name: 'blocks', isDeprecated: false },
      { name: 'entries', isDeprecated: false },
      { name: 'media', isDeprecated: true },
      { name: 'media_v2', isDeprecated: false },
    ]);
  });
});

describe('media and assets', () => {
  it('resolves media fields with URLs, focal points and the Media object', async () => {
    const d = await o.d(`{ article(id: "a1") {
      hero { id type url square: url(focalPointRatio: "1:1", transformation: {width: 100, height: 100, resize: FILL}) focalPoints { ratio focalPoint { x y } } media { id size tags contentType } }
      gallery { id type }
    } cmsAsset(id: "${img}") { id fileName size width height focalPoint { x y } url small: url(transformation: {width: 64}) focal: url(transformation: {width: 64, height: 64}, useFocalPoint: true) }
      video: cmsAsset(id: "vid1") { type embed: url(transformation: {format: HTML}) vertical: url(transformation: {format: JS, orientation: VERTICAL}) }
      cmsAssetCollection(where: {type: {eq: "VIDEO"}}) { total items { id } } }`);
    expect(d.article.hero).toMatchObject({ id: img, type: 'IMAGE', focalPoints: [{ ratio: '1:1', focalPoint: { x: 0.25, y: 0.75 } }], media: { id: img, size: 1891218, tags: ['a', 'b'], contentType: 'image/png' } });
    expect(d.article.hero.url).toContain('/files/');
    expect(d.article.hero.square).toContain('/img/');
    expect(d.article.gallery).toEqual([{ id: img, type: 'IMAGE' }, { id: 'vid1', type: 'VIDEO' }]);
    expect(d.cmsAsset).toMatchObject({ id: img, fileName: 'goldfish.png', size: 1891218, width: 3640, height: 2400, focalPoint: { x: 0.25, y: 0.75 } });
    expect(d.cmsAsset.url.startsWith(app.baseUrl)).toBe(true);
    expect(d.cmsAsset.small).toContain('/img/');
    expect(d.cmsAsset.focal).not.toBe(d.cmsAsset.small);
    expect(d.video.embed).toMatch(/\/embed\/.*vid1.*html/);
    expect(d.video.vertical).toMatch(/\/embed\/.*vid1.*js/);
    expect(d.cmsAssetCollection).toEqual({ total: 1, items: [{ id: 'vid1' }] });
    const bad = await o.q(`{ cmsAsset(id: "${img}") { url(transformation: {width: 0}) } }`);
    expect(bad.body.errors?.[0].extensions?.code).toBe('BAD_USER_INPUT');
    const browser = await o.d(`{ cmsAsset(id: "${img}") { retina: url(transformation: {width: 64, dpr: 2, imageFormat: WEBP}) avif: url(transformation: {imageFormat: AVIF}) auto: url(transformation: {width: 64, imageFormat: AUTO}) } }`);
    expect(browser.cmsAsset.retina).toMatch(/\/w_128\.webp$/);
    expect(browser.cmsAsset.avif).toMatch(/\/-\.avif$/);
    expect(browser.cmsAsset.auto).toMatch(/\/w_64,f_auto\.png$/);
    const srcSet = await o.d(`{ cmsAsset(id: "${img}") { placeholder srcSet(widths: [320, 640], transformation: {imageFormat: AUTO}) } }`);
    expect(srcSet.cmsAsset.placeholder).toMatch(/^data:image\/webp;base64,/);
    const entries = (srcSet.cmsAsset.srcSet as string).split(', ');
    expect(entries).toHaveLength(2);
    expect(entries[0]).toMatch(/^http:\/\/127\.0\.0\.1:\d+\/img\/\S+\/w_320,f_auto\.png 320w$/);
    expect(entries[1]).toMatch(/\/w_640,f_auto\.png 640w$/);
    const noWidths = await o.q(`{ cmsAsset(id: "${img}") { srcSet(widths: []) } }`);
    expect(noWidths.body.errors?.[0]).toMatchObject({ extensions: { code: 'BAD_USER_INPUT' }, message: expect.stringContaining('srcSet') });
    const tooDense = await o.q(`{ cmsAsset(id: "${img}") { url(transformation: {width: 64, dpr: 5}) } }`);
    expect(tooDense.body.errors?.[0]).toMatchObject({ extensions: { code: 'BAD_USER_INPUT' }, message: expect.stringContaining('transformation.dpr') });
    const notAFormat = await o.q(`{ cmsAsset(id: "${img}") { url(transformation: {imageFormat: GIFV}) } }`);
    expect(notAFormat.body.errors?.[0].extensions?.code).toBe('GRAPHQL_VALIDATION_FAILED');
    const edits = await o.d(`{ cmsAsset(id: "${img}") {
      smart: url(transformation: {width: 64, height: 128, resize: FILL, smartCrop: ENTROPY})
      edited: url(transformation: {width: 64, height: 64, resize: PAD, crop: {x: 0.5, y: 0, width: 0.5, height: 1}, rotate: 180, flip: BOTH, background: "#FFFFFF", grayscale: true})
    } }`);
    // the asset has a focal point: it wins over the smart crop
    expect(edits.cmsAsset.smart).toMatch(/\/w_64,h_128,r_fill,fp_0\.25_0\.75\.png$/);
    expect(edits.cmsAsset.edited).toMatch(/\/w_64,h_64,r_pad,c_0\.5_0_0\.5_1,ro_180,fl_hv,bg_ffffff,gs_1\.png$/);
    for (const [input, field] of [
      ['rotate: 45', 'transformation.rotate'],
      ['crop: {x: 0.6, y: 0, width: 0.5, height: 1}', 'transformation.crop'],
      ['background: "white"', 'transformation.background'],
    ]) {
      const refused = await o.q(`{ cmsAsset(id: "${img}") { url(transformation: {width: 64, ${input}}) } }`);
      expect(refused.body.errors?.[0], input).toMatchObject({ extensions: { code: 'BAD_USER_INPUT' }, message: expect.stringContaining(field) });
    }
    const overlaid = await o.d(`{ cmsAsset(id: "${img}") { url(transformation: {width: 64, overlay: {assetId: "${img}", gravity: NORTH, opacity: 0.5, scale: 0.5}}) } }`);
    expect(overlaid.cmsAsset.url).toMatch(new RegExp(`/w_64,o_n_0\\.5_0\\.5_${img}\\.[A-Za-z0-9_-]+\\.png$`));
    const offset = await o.d(`{ cmsAsset(id: "${img}") { url(transformation: {width: 64, overlay: {assetId: "${img}", gravity: NORTH, offsetX: 3, offsetY: 4}}) } }`);
    expect(offset.cmsAsset.url).toMatch(new RegExp(`/w_64,o_n_1_0\\.25_${img}\\.[A-Za-z0-9_-]+,ox_3,oy_4\\.png$`));
    for (const [input, field] of [
      ['{assetId: "not-here"}', 'transformation.overlay.assetId'],
      [`{assetId: "${img}", opacity: 2}`, 'transformation.overlay: opacity'],
      [`{assetId: "${img}", scale: 0}`, 'transformation.overlay: scale'],
      [`{assetId: "${img}", offsetY: 9000}`, 'transformation.overlay: offsetY'],
    ]) {
      const refused = await o.q(`{ cmsAsset(id: "${img}") { url(transformation: {width: 64, overlay: ${input}}) } }`);
      expect(refused.body.errors?.[0], input).toMatchObject({ extensions: { code: 'BAD_USER_INPUT' }, message: expect.stringContaining(field) });
    }
    const cut = await o.d(`{ cmsAsset(id: "${img}") { url(transformation: {width: 32, autoQuality: true, quality: 50, cropPixels: {x: 1, y: 2, width: 3, height: 4}, trim: 20}) } }`);
    expect(cut.cmsAsset.url).toMatch(/\/w_32,q_auto,cp_1_2_3_4,t_20\.png$/);
    for (const [input, field] of [
      ['trim: 101', 'transformation.trim'],
      ['cropPixels: {x: -1, y: 0, width: 3, height: 4}', 'transformation.cropPixels: x and y'],
      ['cropPixels: {x: 0, y: 0, width: 0, height: 4}', 'transformation.cropPixels: width and height'],
      ['crop: {x: 0, y: 0, width: 1, height: 1}, cropPixels: {x: 0, y: 0, width: 1, height: 1}', 'give the cut once'],
    ]) {
      const refused = await o.q(`{ cmsAsset(id: "${img}") { url(transformation: {width: 64, ${input}}) } }`);
      expect(refused.body.errors?.[0], input).toMatchObject({ extensions: { code: 'BAD_USER_INPUT' }, message: expect.stringContaining(field) });
    }
    const notAuto = await o.q(`{ cmsAsset(id: "${img}") { url(transformation: {autoQuality: "yes"}) } }`);
    expect(notAuto.body.errors?.[0].extensions?.code).toBe('GRAPHQL_VALIDATION_FAILED');
    const notACrop = await o.q(`{ cmsAsset(id: "${img}") { url(transformation: {smartCrop: FACES}) } }`);
    expect(notACrop.body.errors?.[0].extensions?.code).toBe('GRAPHQL_VALIDATION_FAILED');
  });
});

describe('sections', () => {
  it('resolves path, parent, children, media and references', async () => {
    const d = await o.d(`{
      g: cmsSection(id: "grandchild") { id title parentId path { id } parent { id parent { id } } references { total items { id } } }
      r: cmsSection(id: "root") { slug children { total items { id children { items { id } } } } media { total items { id type } } references { items { id } } }
      article(id: "a1") { section { id path { title } } }
      roots: cmsSectionCollection(where: {parentId: {exists: false}}) { total items { id } }
      all: cmsSectionCollection(limit: 2) { total items { id } }
    }`);
    expect(d.g).toEqual({ id: 'grandchild', title: 'Grandchild', parentId: 'child', path: [{ id: 'root' }, { id: 'child' }, { id: 'grandchild' }], parent: { id: 'child', parent: { id: 'root' } }, references: { total: 1, items: [{ id: 'a1' }] } });
    expect(d.r.children).toEqual({ total: 1, items: [{ id: 'child', children: { items: [{ id: 'grandchild' }] } }] });
    expect(d.r.media).toEqual({ total: 2, items: [{ id: img, type: 'IMAGE' }, { id: 'vid1', type: 'VIDEO' }] });
    expect(d.r.references.items).toEqual([{ id: 'a2' }]);
    expect(d.article.section.path.map((s: { title: string }) => s.title)).toEqual(['Root', 'Child', 'Grandchild']);
    expect(d.roots).toEqual({ total: 1, items: [{ id: 'root' }] });
    expect(d.all.total).toBe(3);
    expect(d.all.items).toHaveLength(2);
  });

  it('includeChildren filters entries by a whole subtree', async () => {
    const d = await o.d('{ articleCollection(where: {section: {eq: "child", includeChildren: true}}, order: {id: ASC}) { items { id } } }');
    expect(ids(d.articleCollection)).toEqual(['a1', 'a3']);
  });
});

describe('authors and labels', () => {
  it('resolves author fields, images, collections and labels', async () => {
    const d = await o.d(`{
      article(id: "a1") { writer { id byline profession image { id } } writers { id } system { labels { id name color } } }
      cmsAuthor(id: "w2") { byline image { id } }
      cmsAuthorCollection(where: {byline: {contains: "one"}}) { total items { id } }
      cmsLabelCollection { total items { id name } }
    }`);
    expect(d.article.writer).toEqual({ id: 'w1', byline: 'Writer One', profession: ['editor'], image: { id: img } });
    expect(d.article.writers).toEqual([{ id: 'w2' }, { id: 'w1' }]);
    expect(d.article.system.labels).toEqual([{ id: 'l1', name: 'Breaking', color: 'red' }]);
    expect(d.cmsAuthor).toEqual({ byline: 'Writer Two', image: null });
    expect(d.cmsAuthorCollection).toEqual({ total: 1, items: [{ id: 'w1' }] });
    expect(d.cmsLabelCollection).toEqual({ total: 1, items: [{ id: 'l1', name: 'Breaking' }] });
  });
});

describe('lists', () => {
  const LIST = `query($w: CmsListEntryFilter, $o: CmsListEntryOrder) { cmsList(id: "home") { id name entries(where: $w, order: $o) { total items { startAt endAt entry { id } } } } }`;
  const listIds = (d: { cmsList: { entries: { items: Array<{ entry: { id: string } }> } } }) => d.cmsList.entries.items.map((i) => i.entry.id);

  it('keeps list order and hides entries the token may not see', async () => {
    const d = await o.d(LIST);
    expect(listIds(d)).toEqual(['a1', 'a2', 'a3', 'p1']);
    expect(d.cmsList.entries.total).toBe(4);
    expect(d.cmsList.entries.items[1]).toMatchObject({ startAt: '2026-05-01T00:00:00.000Z', endAt: '2026-06-01T00:00:00.000Z' });
    expect(listIds(await o.d(LIST, {}, o.preview))).toEqual(['a1', 'a2', 'a3', 'a5', 'p1']);
  });

  it('filters by display window with displayedAt, startAt and endAt', async () => {
    expect(listIds(await o.d(LIST, { w: { displayedAt: '2026-04-15T00:00:00Z' } }))).toEqual(['a1', 'a3']);
    expect(listIds(await o.d(LIST, { w: { displayedAt: '2026-05-10T00:00:00Z' } }))).toEqual(['a1', 'a2', 'a3']);
    expect(listIds(await o.d(LIST, { w: { displayedAt: '2026-05-15T00:00:00Z' } }))).toEqual(['a1', 'a2']);
    expect(listIds(await o.d(LIST, { w: { displayedAt: '2026-05-25T00:00:00Z' } }))).toEqual(['a1', 'a2', 'p1']);
    expect(listIds(await o.d(LIST, { w: { displayedAt: '2026-06-01T00:00:00Z' } }))).toEqual(['a1', 'p1']);
    expect(listIds(await o.d(LIST, { w: { startAt: { exists: true } } }))).toEqual(['a2', 'p1']);
    expect(listIds(await o.d(LIST, { w: { or: [{ endAt: { lt: '2026-05-20T00:00:00Z' } }, { startAt: { gte: '2026-05-20T00:00:00Z' } }] } }))).toEqual(['a3', 'p1']);
  });

  it('orders by position, startAt or endAt (nulls last)', async () => {
    expect(listIds(await o.d(LIST, { o: { position: 'DESC' } }))).toEqual(['p1', 'a3', 'a2', 'a1']);
    expect(listIds(await o.d(LIST, { o: { endAt: 'ASC' } }))).toEqual(['a3', 'a2', 'a1', 'p1']);
    expect(listIds(await o.d(LIST, { o: { startAt: 'DESC' } }))).toEqual(['p1', 'a2', 'a1', 'a3']);
    const bad = await o.q(LIST, { o: { position: 'ASC', endAt: 'ASC' } });
    expect(bad.body.errors?.[0].extensions?.code).toBe('BAD_USER_INPUT');
  });

  it('lists the org lists with a name filter', async () => {
    const d = await o.d('{ cmsListCollection(where: {name: {contains: "SIDE"}}) { total items { id name } } all: cmsListCollection { total } }');
    expect(d.cmsListCollection).toEqual({ total: 1, items: [{ id: 'side', name: 'Sidebar' }] });
    expect(d.all.total).toBe(2);
  });
});
