import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestApp, type TestApp } from '../support/harness.js';
import { doc, heading, para, setupOrg, uploadImage, type GqlOrg } from './graphql-support.js';

/**
 * Every operator of every filter input against a fixture with edge cases: missing
 * values, lists, case, Unicode, LIKE wildcards. Filters run in SQL; each case names the entries
 * it must return, in id order.
 */
let app: TestApp;
let o: GqlOrg;
let image: string;

const f = (alias: string, type: string, extra: Record<string, unknown> = {}) => ({ alias, type, ...extra });

beforeAll(async () => {
  app = await startTestApp({ workers: false });
  o = await setupOrg(app);
  image = await uploadImage(app, o.manage);
  await o.m('PUT', '/models/person', { titleField: 'name', fields: [f('name', 'text')] });
  await o.m('PUT', '/models/page', { titleField: 'heading', fields: [f('heading', 'text'), f('views', 'number')] });
  await o.m('PUT', '/models/article', {
    titleField: 'title',
    fields: [
      f('title', 'text'),
      f('subtitle', 'text'),
      f('views', 'number'),
      f('rating', 'number', { numberFormat: 'decimal' }),
      f('scores', 'number', { valueType: 'list' }),
      f('weights', 'number', { valueType: 'list', numberFormat: 'decimal' }),
      f('releaseAt', 'datetime'),
      f('featured', 'boolean'),
      f('tags', 'tag', { valueType: 'list' }),
      f('kind', 'tag'),
      f('link', 'url'),
      f('summary', 'richtext'),
      f('body', 'richcontent'),
      f('author', 'reference', { allowedModels: ['person'] }),
      f('related', 'reference', { valueType: 'list' }),
      f('hero', 'media'),
      f('gallery', 'media', { valueType: 'list' }),
      f('section', 'section'),
      f('sections', 'section', { valueType: 'list' }),
      f('writer', 'author'),
      f('writers', 'author', { valueType: 'list' }),
    ],
  });
  for (const [id, name] of [['p1', 'Ann'], ['p2', 'Bob']]) await o.m('PUT', `/entries/${id}`, { model: 'person', siteId: o.siteId, fields: { name }, status: 'PUBLISHED' });
  await o.m('PUT', '/entries/pg1', { model: 'page', siteId: o.siteId, fields: { heading: 'Alpha page', views: 10 }, status: 'PUBLISHED' });
  await o.m('POST', '/sections', { id: 'root', title: 'Root' });
  await o.m('POST', '/sections', { id: 'child', title: 'Child', parentId: 'root' });
  await o.m('POST', '/sections', { id: 'grandchild', title: 'Grandchild', parentId: 'child' });
  await o.m('POST', '/sections', { id: 'other', title: 'Other' });
  await o.m('POST', '/authors', { id: 'w1', byline: 'Writer One' });
  await o.m('POST', '/authors', { id: 'w2', byline: 'Writer Two' });
  await o.m('POST', '/labels', { id: 'l1', name: 'Breaking' });
  await o.m('POST', '/labels', { id: 'l2', name: 'Opinion' });

  const article = (id: string, fields: Record<string, unknown>, extra: Record<string, unknown> = {}) =>
    o.m('PUT', `/entries/${id}`, { model: 'article', siteId: o.siteId, fields, status: 'PUBLISHED', ...extra });
  await article(
    'a1',
    {
      title: 'Alpha Über',
      subtitle: 'first',
      views: 10,
      rating: '1.50',
      scores: [1, 2, 3],
      weights: ['0.5', '1.25'],
      releaseAt: '2026-01-01T00:00:00.000Z',
      featured: true,
      tags: ['News', 'Tech'],
      kind: 'story',
      link: 'https://example.com/a',
      summary: '<p>Short</p>',
      body: doc(heading(2, 'Intro'), para('Hello wörld'), { type: 'cms_reference', attrs: { id: 'p1' } }, { type: 'cms_media', attrs: { id: image } }),
      author: 'p1',
      related: ['p1', 'pg1'],
      hero: image,
      gallery: [image],
      section: 'grandchild',
      sections: ['root', 'other'],
      writer: 'w1',
      writers: ['w1', 'w2'],
    },
    { slug: 'alpha', labels: ['l1'], externalId: 'ext-1' },
  );
  await article(
    'a2',
    {
      title: 'beta',
      subtitle: 'second',
      views: 20,
      rating: '2.25',
      scores: [3],
      weights: ['2'],
      releaseAt: '2026-02-01T00:00:00.000Z',
      featured: false,
      tags: ['news'],
      kind: 'Report',
      link: 'http://example.org/b',
      body: doc(heading(3, 'Other'), para('Plain text')),
      author: 'p2',
      related: ['p2'],
      section: 'root',
      sections: ['child'],
      writer: 'w2',
      writers: ['w2'],
    },
    { slug: 'beta', labels: ['l1', 'l2'] },
  );
  await article('a3', { title: 'Gamma 100%_done', views: 30 }, { slug: 'gamma' });
  await article('a4', { title: 'Delta draft', views: 40 }, { status: 'DRAFT' });
});

afterAll(async () => {
  await app?.close();
});

/** Article ids matching `where`, sorted. */
async function articles(where: unknown, token?: string): Promise<string[]> {
  const data = await o.d<{ articleCollection: { items: Array<{ id: string }>; total: number } }>(
    'query($w: ArticleFilter) { articleCollection(where: $w, limit: 100) { total items { id } } }',
    { w: where },
    token,
  );
  const got = data.articleCollection.items.map((i) => i.id).sort();
  expect(data.articleCollection.total).toBe(got.length);
  return got;
}

describe('CmsStringFilter (case-insensitive)', () => {
  it.each([
    [{ title: { eq: 'ALPHA über' } }, ['a1']],
    [{ title: { ne: 'beta' } }, ['a1', 'a3']],
    [{ title: { contains: 'ÜB' } }, ['a1']],
    [{ title: { contains: '%_' } }, ['a3']],
    [{ title: { contains: '_' } }, ['a3']],
    [{ title: { notContains: 'a' } }, []],
    [{ title: { startsWith: 'be' } }, ['a2']],
    [{ title: { endsWith: 'DONE' } }, ['a3']],
    [{ title: { in: ['BETA', 'gamma 100%_done'] } }, ['a2', 'a3']],
    [{ title: { notIn: ['beta'] } }, ['a1', 'a3']],
    [{ title: { startsWithAny: ['al', 'GA'] } }, ['a1', 'a3']],
    [{ title: { endsWithAny: ['ER', 'ta'] } }, ['a1', 'a2']],
    [{ subtitle: { exists: true } }, ['a1', 'a2']],
    [{ subtitle: { exists: false } }, ['a3']],
    [{ subtitle: { ne: 'first' } }, ['a2', 'a3']],
    [{ subtitle: { notIn: ['first'] } }, ['a2', 'a3']],
    [{ subtitle: { notContains: 'sec' } }, ['a1', 'a3']],
    [{ title: { and: [{ contains: 'a' }, { contains: 'l' }] } }, ['a1']],
    [{ title: { or: [{ eq: 'beta' }, { startsWith: 'gam' }] } }, ['a2', 'a3']],
    [{ kind: { eq: 'report' } }, ['a2']],
    [{ link: { startsWith: 'HTTPS://' } }, ['a1']],
    [{ summary: { contains: 'short' } }, ['a1']],
  ])('%j → %j', async (where, expected) => {
    expect(await articles(where)).toEqual(expected);
  });
});

describe('number, date and boolean filters', () => {
  it.each([
    [{ views: { eq: 10 } }, ['a1']],
    [{ views: { ne: 10 } }, ['a2', 'a3']],
    [{ views: { lt: 20 } }, ['a1']],
    [{ views: { lte: 20 } }, ['a1', 'a2']],
    [{ views: { gt: 10 } }, ['a2', 'a3']],
    [{ views: { gte: 30 } }, ['a3']],
    [{ views: { in: [10, 30] } }, ['a1', 'a3']],
    [{ views: { notIn: [10, 30] } }, ['a2']],
    [{ views: { exists: true } }, ['a1', 'a2', 'a3']],
    [{ views: { or: [{ lt: 15 }, { gt: 25 }] } }, ['a1', 'a3']],
    [{ views: { and: [{ gt: 5 }, { lt: 25 }] } }, ['a1', 'a2']],
    [{ rating: { gt: 1.5 } }, ['a2']],
    [{ rating: { eq: 1.5 } }, ['a1']],
    [{ rating: { exists: false } }, ['a3']],
    [{ rating: { in: [2.25] } }, ['a2']],
    [{ releaseAt: { gt: '2026-01-15T00:00:00Z' } }, ['a2']],
    [{ releaseAt: { eq: '2026-01-01T00:00:00Z' } }, ['a1']],
    [{ releaseAt: { ne: '2026-01-01T00:00:00Z' } }, ['a2', 'a3']],
    [{ releaseAt: { lte: '2026-02-01T00:00:00Z', gte: '2026-01-01T00:00:00Z' } }, ['a1', 'a2']],
    [{ releaseAt: { lt: '2026-01-01T00:00:00Z' } }, []],
    [{ releaseAt: { exists: false } }, ['a3']],
    [{ releaseAt: { or: [{ lt: '2026-01-02T00:00:00Z' }, { exists: false }] } }, ['a1', 'a3']],
    [{ featured: { eq: true } }, ['a1']],
    [{ featured: { eq: false } }, ['a2']],
    [{ featured: { ne: true } }, ['a2', 'a3']],
  ])('%j → %j', async (where, expected) => {
    expect(await articles(where)).toEqual(expected);
  });
});

describe('list filters (all / some / none)', () => {
  it.each([
    [{ tags: { some: ['NEWS'] } }, ['a1', 'a2']],
    [{ tags: { all: ['news', 'tech'] } }, ['a1']],
    [{ tags: { none: ['tech'] } }, ['a2', 'a3']],
    [{ tags: { some: 'tech' } }, ['a1']],
    [{ scores: { some: [3] } }, ['a1', 'a2']],
    [{ scores: { all: [1, 3] } }, ['a1']],
    [{ scores: { none: [1] } }, ['a2', 'a3']],
    [{ weights: { some: [1.25] } }, ['a1']],
    [{ weights: { all: [2] } }, ['a2']],
    [{ weights: { none: [0.5, 2] } }, ['a3']],
  ])('%j → %j', async (where, expected) => {
    expect(await articles(where)).toEqual(expected);
  });
});

describe('reference, media, section and author filters', () => {
  it.each([
    [{ author: { exists: true } }, ['a1', 'a2']],
    [{ author: { exists: false } }, ['a3']],
    [{ author: { entryId: { eq: 'p2' } } }, ['a2']],
    [{ author: { model: { eq: 'PERSON' } } }, ['a1', 'a2']],
    [{ related: { entryId: { some: ['pg1', 'p2'] } } }, ['a1', 'a2']],
    [{ related: { entryId: { all: ['p1', 'pg1'] } } }, ['a1']],
    [{ related: { entryId: { none: ['p1'] } } }, ['a2', 'a3']],
    [{ related: { model: { some: ['page'] } } }, ['a1']],
    [{ related: { model: { all: ['person'] } } }, ['a1', 'a2']],
    [{ related: { model: { none: ['person'] } } }, ['a3']],
    [{ hero: { exists: true } }, ['a1']],
    [{ hero: { id: { exists: false } } }, ['a2', 'a3']],
    [{ hero: { type: { in: ['IMAGE'] } } }, ['a1']],
    [{ hero: { type: { notIn: ['IMAGE'] } } }, ['a2', 'a3']],
    [{ hero: { type: { exists: true } } }, ['a1']],
    [{ gallery: { type: { some: ['IMAGE'] } } }, ['a1']],
    [{ gallery: { type: { none: ['IMAGE'] } } }, ['a2', 'a3']],
    [{ gallery: { type: { all: ['VIDEO'] } } }, []],
    [{ section: { eq: 'root' } }, ['a2']],
    [{ section: { eq: 'root', includeChildren: true } }, ['a1', 'a2']],
    [{ section: { in: ['child'], includeChildren: true } }, ['a1']],
    [{ section: { ne: 'root', includeChildren: true } }, ['a3']],
    [{ section: { notIn: ['grandchild'] } }, ['a2', 'a3']],
    [{ sections: { some: ['root'] } }, ['a1']],
    [{ sections: { some: ['root'], includeChildren: true } }, ['a1', 'a2']],
    [{ sections: { all: ['root', 'other'] } }, ['a1']],
    [{ sections: { none: ['child'] } }, ['a1', 'a3']],
    [{ sections: { none: ['root'], includeChildren: true } }, ['a3']],
    [{ writer: { eq: 'w1' } }, ['a1']],
    [{ writer: { ne: 'w1' } }, ['a2', 'a3']],
    [{ writer: { in: ['w1', 'w2'] } }, ['a1', 'a2']],
    [{ writer: { notIn: ['w2'] } }, ['a1', 'a3']],
    [{ writers: { some: ['w2'] } }, ['a1', 'a2']],
    [{ writers: { all: ['w1', 'w2'] } }, ['a1']],
    [{ writers: { none: ['w1'] } }, ['a2', 'a3']],
  ])('%j → %j', async (where, expected) => {
    expect(await articles(where)).toEqual(expected);
  });
});

describe('rich-content filters', () => {
  it.each([
    [{ body: { exists: true } }, ['a1', 'a2']],
    [{ body: { exists: false } }, ['a3']],
    [{ body: { blocks: { type: { eq: 'heading' }, attrs: { properties: [{ key: 'level', value: { eq: '2' } }] } } } }, ['a1']],
    [{ body: { blocks: { type: { eq: 'heading' }, value: { eq: 'other' } } } }, ['a2']],
    // one block must satisfy both: the level-2 heading is not the one saying "Other"
    [{ body: { blocks: { attrs: { properties: [{ key: 'level', value: { eq: '2' } }] }, value: { eq: 'other' } } } }, []],
    [{ body: { blocks: { value: { contains: 'WÖRLD' } } } }, ['a1']],
    [{ body: { blocks: { type: { eq: 'cms_reference' }, value: { eq: 'p1' } } } }, ['a1']],
    [{ body: { blocks: { type: { eq: 'cms_media' } } } }, ['a1']],
    [{ body: { blocks: { or: [{ value: { eq: 'intro' } }, { value: { eq: 'plain text' } }] } } }, ['a1', 'a2']],
    [{ body: { charCount: { gt: 15 } } }, ['a1']],
    [{ body: { charCount: { lte: 15 } } }, ['a2']],
    [{ body: { or: [{ charCount: { gt: 100 } }, { blocks: { value: { eq: 'plain text' } } }] } }, ['a2']],
  ])('%j → %j', async (where, expected) => {
    expect(await articles(where)).toEqual(expected);
  });
});

describe('system filters', () => {
  it.each([
    [{ id: { eq: 'a2' } }, ['a2']],
    [{ id: { ne: 'a2' } }, ['a1', 'a3']],
    [{ id: { in: ['a1', 'a3', 'nope'] } }, ['a1', 'a3']],
    [{ id: { notIn: ['a1'] } }, ['a2', 'a3']],
    [{ id: { or: [{ eq: 'a1' }, { eq: 'a2' }] } }, ['a1', 'a2']],
    [{ id: { eq: 'A1' } }, []],
    [{ system: { title: { contains: 'GAMMA' } } }, ['a3']],
    [{ system: { slug: { in: ['ALPHA', 'beta'] } } }, ['a1', 'a2']],
    [{ system: { externalId: { exists: true } } }, ['a1']],
    [{ system: { labels: { some: ['l2'] } } }, ['a2']],
    [{ system: { labels: { some: ['breaking'] } } }, ['a1', 'a2']],
    [{ system: { labels: { all: ['Breaking', 'OPINION'] } } }, ['a2']],
    [{ system: { labels: { none: ['l1'] } } }, ['a3']],
    [{ system: { status: { in: ['PUBLISHED'] } } }, ['a1', 'a2', 'a3']],
    [{ system: { status: { notIn: ['PUBLISHED'] } } }, []],
    [{ system: { publishedAt: { exists: true } } }, ['a1', 'a2', 'a3']],
    [{ system: { publishedAt: { gt: '2000-01-01T00:00:00Z' }, createdAt: { lt: '2999-01-01T00:00:00Z' } } }, ['a1', 'a2', 'a3']],
    [{ system: { updatedAt: { lt: '2000-01-01T00:00:00Z' } } }, []],
    [{ system: { unpublishedAt: { exists: false } } }, ['a1', 'a2', 'a3']],
    [{ system: { or: [{ slug: { eq: 'alpha' } }, { slug: { eq: 'gamma' } }] } }, ['a1', 'a3']],
    [{ system: { and: [{ slug: { startsWith: 'a' } }, { title: { contains: 'b' } }] } }, ['a1']],
    [{ system: { siteId: { exists: true } } }, ['a1', 'a2', 'a3']],
  ])('%j → %j', async (where, expected) => {
    expect(await articles(where)).toEqual(expected);
  });

  it('system.siteId matches the site the entries were written to', async () => {
    expect(await articles({ system: { siteId: { eq: o.siteId } } })).toEqual(['a1', 'a2', 'a3']);
    expect(await articles({ system: { siteId: { ne: o.siteId } } })).toEqual([]);
  });

  it('combines fields with AND and nests and/or', async () => {
    expect(await articles({ views: { gt: 5 }, title: { contains: 'a' }, and: [{ featured: { eq: false } }] })).toEqual(['a2']);
    expect(await articles({ or: [{ views: { eq: 10 } }, { and: [{ views: { gt: 15 } }, { slug: undefined, title: { endsWith: 'done' } }] }] })).toEqual(['a1', 'a3']);
  });

  it('preview sees the draft; a status filter selects it', async () => {
    expect(await articles({ title: { contains: 'draft' } })).toEqual([]);
    expect(await articles({ title: { contains: 'draft' } }, o.preview)).toEqual(['a4']);
    expect(await articles({ system: { status: { in: ['DRAFT'] } } }, o.preview)).toEqual(['a4']);
    expect(await articles({ system: { status: { exists: true } } }, o.preview)).toEqual(['a1', 'a2', 'a3', 'a4']);
  });
});

describe('generic CmsEntryFilter', () => {
  const entries = async (where: unknown) => {
    const data = await o.d('query($w: CmsEntryFilter) { entryCollection(where: $w, limit: 100) { total items { id } } }', { w: where });
    return (data.entryCollection.items as Array<{ id: string }>).map((i) => i.id).sort();
  };

  it('a model member implies membership of that model', async () => {
    expect(await entries({ article: { views: { eq: 10 } } })).toEqual(['a1']);
    expect(await entries({ page: {} })).toEqual(['pg1']);
    expect(await entries({ article: { views: { eq: 10 } }, page: { views: { eq: 10 } } })).toEqual([]);
  });

  it('and of two models is empty; or combines them', async () => {
    expect(await entries({ and: [{ article: { views: { eq: 10 } } }, { page: { views: { eq: 10 } } }] })).toEqual([]);
    expect(await entries({ or: [{ article: { views: { eq: 10 } } }, { page: { views: { eq: 10 } } }] })).toEqual(['a1', 'pg1']);
  });

  it('system.title contains works across models', async () => {
    expect(await entries({ system: { title: { contains: 'alpha' } } })).toEqual(['a1', 'pg1']);
    expect(await entries({ id: { in: ['p1', 'a2'] } })).toEqual(['a2', 'p1']);
  });
});

describe('invalid filter input', () => {
  it('a wrong operator type is a validation error; a bad DateTime is BAD_USER_INPUT', async () => {
    const bad = await o.q('{ articleCollection(where: {views: {eq: "ten"}}) { total } }');
    expect(bad.body.errors?.[0].extensions?.code).toBe('GRAPHQL_VALIDATION_FAILED');
    const date = await o.q('query($w: ArticleFilter) { articleCollection(where: $w) { total } }', { w: { releaseAt: { gt: 'yesterday' } } });
    expect(date.body.errors?.[0].extensions?.code).toBe('BAD_USER_INPUT');
  });
});
