import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestApp, type TestApp } from '../support/harness.js';
import { doc, ids, para, setupOrg, uploadImage, type GqlOrg } from './graphql-support.js';

/**
 * Who sees what: authentication and scopes, DRAFT / EDITED / DELETED visibility for delivery and
 * preview tokens everywhere, other organizations' ids, and the limits and error codes of
 * (checked before any SQL).
 */
let app: TestApp;
let o: GqlOrg;
let other: GqlOrg;
let foreignImage: string;

beforeAll(async () => {
  app = await startTestApp({ workers: false });
  [o, other] = await Promise.all([setupOrg(app), setupOrg(app)]);
  const model = {
    titleField: 'title',
    fields: [
      { alias: 'title', type: 'text' },
      { alias: 'views', type: 'number' },
      { alias: 'link', type: 'reference', allowedModels: ['story'] },
      { alias: 'links', type: 'reference', valueType: 'list' },
      { alias: 'body', type: 'richcontent' },
      { alias: 'section', type: 'section' },
    ],
  };
  await o.m('PUT', '/models/story', model);
  await other.m('PUT', '/models/story', model);
  await o.m('POST', '/sections', { id: 's1', title: 'S1' });
  const story = (org: GqlOrg, id: string, fields: Record<string, unknown>, extra: Record<string, unknown> = {}) =>
    org.m('PUT', `/entries/${id}`, { model: 'story', siteId: org.siteId, fields, status: 'PUBLISHED', ...extra });
  await story(o, 'pub', { title: 'Published', views: 1, section: 's1' });
  await story(o, 'draft', { title: 'Draft', views: 2, link: 'pub', section: 's1' }, { status: 'DRAFT' });
  await story(o, 'refs', { title: 'Refs', views: 3, link: 'draft', links: ['draft', 'pub'], body: doc(para('x'), { type: 'cms_reference', attrs: { id: 'draft' } }) });
  await story(o, 'edited', { title: 'Old title', views: 4 });
  await o.m('PATCH', '/entries/edited', { fields: { title: 'New title' } });
  await story(o, 'gone', { title: 'Gone', views: 5 });
  await o.m('DELETE', '/entries/gone');
  await story(other, 'foreign', { title: 'Foreign', views: 9 });
  await other.m('POST', '/sections', { id: 'fs1', title: 'Foreign section' });
  await other.m('POST', '/authors', { id: 'fa1', byline: 'Foreign author' });
  await other.m('POST', '/lists', { id: 'fl1', name: 'Foreign list' });
  foreignImage = await uploadImage(app, other.manage);
});

afterAll(async () => {
  await app?.close();
});

describe('authentication and scopes', () => {
  it('401 without or with a bad token, 403 without delivery/preview scope', async () => {
    const none = await app.json('/graphql', { body: { query: '{ __typename }' } });
    expect(none.status).toBe(401);
    expect(none.headers.get('www-authenticate')).toMatch(/^Bearer/);
    expect(none.body.errors[0].extensions.code).toBe('UNAUTHENTICATED');
    const bad = await app.json('/graphql', { token: 'folio_nope', body: { query: '{ __typename }' } });
    expect(bad.status).toBe(401);
    expect(bad.body.errors[0].extensions.code).toBe('UNAUTHENTICATED');
    const wrong = await app.json('/graphql', { token: o.manage, body: { query: '{ __typename }' } });
    expect(wrong.status).toBe(403);
    expect(wrong.body.errors[0].extensions.code).toBe('FORBIDDEN');
  });

  it('a revoked token stops working at once', async () => {
    const res = await app.json('/management/v1/tokens', { token: o.manage, body: { name: 'tmp', scopes: ['delivery'] } });
    const { id, token } = res.body.result;
    expect((await o.q('{ __typename }', {}, token)).status).toBe(200);
    expect((await app.json(`/management/v1/tokens/${id}`, { method: 'DELETE', token: o.manage })).status).toBeLessThan(300);
    expect((await o.q('{ __typename }', {}, token)).status).toBe(401);
  });
});

describe('visibility', () => {
  const ALL = '{ storyCollection(order: {id: ASC}) { total items { id title system { status } } } entryCollection(order: {id: ASC}) { total items { id } } }';

  it('delivery sees only published versions; preview every status but DELETED', async () => {
    const d = await o.d(ALL);
    expect(d.storyCollection.items).toEqual([
      { id: 'edited', title: 'Old title', system: { status: 'PUBLISHED' } },
      { id: 'pub', title: 'Published', system: { status: 'PUBLISHED' } },
      { id: 'refs', title: 'Refs', system: { status: 'PUBLISHED' } },
    ]);
    expect(d.storyCollection.total).toBe(3);
    expect(d.entryCollection.total).toBe(3);
    const p = await o.d(ALL, {}, o.preview);
    expect(p.storyCollection.items.map((i: { id: string; title: string; system: { status: string } }) => [i.id, i.title, i.system.status])).toEqual([
      ['draft', 'Draft', 'DRAFT'],
      ['edited', 'New title', 'EDITED'],
      ['pub', 'Published', 'PUBLISHED'],
      ['refs', 'Refs', 'PUBLISHED'],
    ]);
    expect(p.entryCollection.total).toBe(4);
  });

  it('DELETED appears only when a status filter asks for it', async () => {
    const asked = await o.d('{ storyCollection(where: {system: {status: {in: [DELETED]}}}) { items { id system { status } } } }', {}, o.preview);
    expect(asked.storyCollection.items).toEqual([{ id: 'gone', system: { status: 'DELETED' } }]);
    const delivery = await o.d('{ storyCollection(where: {system: {status: {in: [DELETED]}}}) { total } }');
    expect(delivery.storyCollection.total).toBe(0);
    expect((await o.d('{ story(id: "gone") { id } }', {}, o.preview)).story).toBeNull();
  });

  it('drafts are invisible to delivery by id, in references, relations, rich content, sections and next entries', async () => {
    const Q = `{ story(id: "draft") { id } entry(id: "draft") { id }
      refs: story(id: "refs") { link { id } links { total items { id } } body_v2 { entries { total items { id } } } body { entries { items { id } } } }
      pub: story(id: "pub") { relations { storyCollection { total items { id } } entryCollection { total } nextStoryEntryCollection(order: {views: ASC}) { items { id } } } }
      cmsSection(id: "s1") { references { total items { id } } } }`;
    const d = await o.d(Q);
    expect(d.story).toBeNull();
    expect(d.entry).toBeNull();
    expect(d.refs.link).toBeNull();
    expect(d.refs.links).toEqual({ total: 1, items: [{ id: 'pub' }] });
    expect(d.refs.body_v2.entries).toEqual({ total: 0, items: [] });
    expect(d.refs.body[1].entries.items).toEqual([]);
    expect(d.pub.relations.storyCollection).toEqual({ total: 1, items: [{ id: 'refs' }] });
    expect(d.pub.relations.entryCollection.total).toBe(1);
    expect(ids(d.pub.relations.nextStoryEntryCollection)).toEqual(['refs', 'edited']);
    expect(d.cmsSection.references).toEqual({ total: 1, items: [{ id: 'pub' }] });

    const p = await o.d(Q, {}, o.preview);
    expect(p.story).toEqual({ id: 'draft' });
    expect(p.entry).toEqual({ id: 'draft' });
    expect(p.refs.link).toEqual({ id: 'draft' });
    expect(p.refs.links.total).toBe(2);
    expect(p.refs.body_v2.entries.items).toEqual([{ id: 'draft' }]);
    expect(p.pub.relations.storyCollection.total).toBe(2);
    expect(ids(p.pub.relations.nextStoryEntryCollection)).toEqual(['draft', 'refs', 'edited']);
    expect(p.cmsSection.references.total).toBe(2);
  });
});

describe('organizations stay apart', () => {
  it("another organization's ids never resolve", async () => {
    const d = await o.d(`{ story(id: "foreign") { id } entry(id: "foreign") { id } storyCollection(where: {id: {eq: "foreign"}}) { total }
      cmsSection(id: "fs1") { id } cmsAuthor(id: "fa1") { id } cmsList(id: "fl1") { id } cmsAsset(id: "${foreignImage}") { id }
      entryCollection(where: {system: {title: {eq: "Foreign"}}}) { total } }`);
    expect(d).toEqual({ story: null, entry: null, storyCollection: { total: 0 }, cmsSection: null, cmsAuthor: null, cmsList: null, cmsAsset: null, entryCollection: { total: 0 } });
    expect((await other.d('{ story(id: "foreign") { id } }')).story).toEqual({ id: 'foreign' });
    expect((await other.d(`{ cmsAsset(id: "${foreignImage}") { id } }`)).cmsAsset).toEqual({ id: foreignImage });
    expect((await other.d('{ story(id: "pub") { id } }')).story).toBeNull();
  });
});

describe('rate limit', () => {
  it('answers 429 RATE_LIMITED with Retry-After once a token has spent its burst', async () => {
    const limited = await startTestApp({ workers: false, env: { RATE_LIMIT_BURST: '30', RATE_LIMIT_PER_SECOND: '1' } });
    try {
      const org = await setupOrg(limited);
      const results = await Promise.all(Array.from({ length: 45 }, () => org.q('{ __typename }')));
      const refused = results.filter((r) => r.status === 429);
      expect(results.filter((r) => r.status === 200).length).toBeGreaterThan(0);
      expect(refused.length).toBeGreaterThanOrEqual(10);
      expect(refused[0].body.errors?.[0].extensions?.code).toBe('RATE_LIMITED');
      const res = await limited.fetch('/graphql', { token: org.delivery, body: { query: '{ __typename }' } });
      expect(res.status).toBe(429);
      expect(Number(res.headers.get('retry-after'))).toBeGreaterThanOrEqual(1);
      expect(res.headers.get('ratelimit-limit')).toBe('30');
    } finally {
      await limited.close();
    }
  });

  it('sends RateLimit headers on normal responses', async () => {
    const res = await app.fetch('/graphql', { token: o.delivery, body: { query: '{ __typename }' } });
    expect(res.status).toBe(200);
    expect(res.headers.get('ratelimit-remaining')).toMatch(/^\d+$/);
  });
});

describe('limits and error codes', () => {
  /**
   * Runs `query` right after a warm-up and returns the response and the SQL statements it cost.
   * It runs twice and counts the fewer: the token cache (at most 5 s) may expire between the
   * warm-up and the request and cost one lookup, but not twice in a row; a query that reaches
   * the database does so both times.
   */
  async function measured(query: string, variables?: Record<string, unknown>) {
    const once = async () => {
      await o.q('{ storyCollection(limit: 1) { total } }');
      const before = app.services.db.stats.queries;
      const res = await o.q(query, variables);
      return { res, queries: app.services.db.stats.queries - before };
    };
    const [a, b] = [await once(), await once()];
    return { res: a.res, queries: Math.min(a.queries, b.queries) };
  }

  it.each([
    ['depth', `{ story(id: "pub") { relations { storyCollection { items { relations { storyCollection { items { relations { storyCollection { items { relations { storyCollection { items { id } } } } } } } } } } } } } }`, 'DEPTH_LIMIT_EXCEEDED'],
    ['aliases', `{ ${Array.from({ length: 31 }, (_, i) => `a${i}: storyCollection(limit: 1) { total }`).join(' ')} }`, 'ALIAS_LIMIT_EXCEEDED'],
    ['directives', `{ __typename ${'@include(if: true) '.repeat(51)} }`, 'DIRECTIVE_LIMIT_EXCEEDED'],
    ['tokens', `{ ${'a '.repeat(3001)} }`, 'TOKEN_LIMIT_EXCEEDED'],
    ['document size', `{ __typename }${' '.repeat(17 * 1024)}`, 'DOCUMENT_TOO_LARGE'],
    ['cost', '{ storyCollection(limit: 500) { items { relations { storyCollection(limit: 500) { total } } } } }', 'COMPLEXITY_LIMIT_EXCEEDED'],
    ['limit', '{ storyCollection(limit: 501) { total } }', 'BAD_USER_INPUT'],
    ['nested limit', '{ storyCollection(limit: 1) { items { links(limit: 1000) { total } } } }', 'BAD_USER_INPUT'],
    ['order', '{ storyCollection(order: {views: ASC, title: ASC}) { total } }', 'BAD_USER_INPUT'],
    ['parse', '{ storyCollection { total ', 'GRAPHQL_PARSE_FAILED'],
    ['validation', '{ storyCollection { nope } }', 'GRAPHQL_VALIDATION_FAILED'],
  ])('%s is refused before any SQL', async (_name, query, code) => {
    const { res, queries } = await measured(query);
    expect(res.body.errors?.[0].extensions?.code).toBe(code);
    expect(res.body.data?.storyCollection ?? null).toBeNull();
    expect(queries).toBe(0);
  });

  it("applies each org's own token limit to a document another org sent first", async () => {
    const tight = await setupOrg(app);
    await tight.m('PUT', '/models/story', { titleField: 'title', fields: [{ alias: 'title', type: 'text' }] });
    await app.services.db.query(`UPDATE organizations SET limits = '{"maxTokens": 10}' WHERE id = $1`, [tight.orgId]);
    // 13 tokens: under the default limit, over the tight one.
    const first = '{ tokenCheckA: storyCollection(limit: 1) { total } }';
    const second = '{ tokenCheckB: storyCollection(limit: 1) { total } }';
    // Parsed for `o` first: `tight` must still be refused it.
    expect((await o.q(first)).body.data.tokenCheckA.total).toBeGreaterThan(0);
    const refused = await tight.q(first);
    expect(refused.status).toBe(400);
    expect(refused.body.errors?.[0].extensions?.code).toBe('TOKEN_LIMIT_EXCEEDED');
    // Refused for `tight` first: `o` must still get its answer.
    expect((await tight.q(second)).body.errors?.[0].extensions?.code).toBe('TOKEN_LIMIT_EXCEEDED');
    const answered = await o.q(second);
    expect(answered.body.errors).toBeUndefined();
    expect(answered.body.data.tokenCheckB.total).toBeGreaterThan(0);
  });

  it('returns the computed cost in extensions.cost', async () => {
    const ok = await o.q('{ storyCollection(limit: 10) { items { links(limit: 5) { total } } } }');
    expect(ok.body.extensions?.cost).toBe(10 * (1 + 5));
    const over = await o.q('{ storyCollection(limit: 500) { items { relations { storyCollection(limit: 500) { total } } } } }');
    expect(over.body.errors?.[0].extensions).toMatchObject({ code: 'COMPLEXITY_LIMIT_EXCEEDED', cost: 500 * 501 });
  });

  it('computes each cost for its variables and operation, also when the same document repeats', async () => {
    const cost = async (body: Record<string, unknown>) => (await app.json('/graphql', { token: o.delivery, body })).body;
    const withVariable = 'query($l: Int) { storyCollection(limit: $l) { total } }';
    expect((await cost({ query: withVariable, variables: { l: 3 } })).extensions?.cost).toBe(3);
    expect((await cost({ query: withVariable, variables: { l: 7 } })).extensions?.cost).toBe(7);
    const two = 'query A { storyCollection(limit: 2) { total } } query B { storyCollection(limit: 4) { total } }';
    for (const [operationName, expected] of [['A', 2], ['B', 4], ['A', 2], ['B', 4]] as const) {
      expect((await cost({ query: two, operationName })).extensions?.cost).toBe(expected);
    }
    const fixed = '{ storyCollection(limit: 6) { total } }';
    for (let i = 0; i < 3; i++) expect((await cost({ query: fixed })).extensions?.cost).toBe(6);
    const bad = '{ storyCollection(limit: 501) { total } }';
    for (let i = 0; i < 2; i++) expect((await cost({ query: bad })).errors?.[0].extensions?.code).toBe('BAD_USER_INPUT');
  });

  it('refuses batched requests', async () => {
    const res = await app.json('/graphql', { token: o.delivery, body: [{ query: '{ __typename }' }, { query: '{ __typename }' }] });
    expect(res.status).toBeGreaterThanOrEqual(400);
  });

  it('masks unexpected errors as INTERNAL_SERVER_ERROR with the request id', async () => {
    // A real fault: a stored value that cannot be cast in SQL (a corrupt row written past the API).
    await app.services.db.query(`UPDATE entries SET fields = jsonb_set(fields, '{views}', '"not a number"') WHERE org_id = $1 AND id = 'pub'`, [o.orgId]);
    try {
      const res = await app.json('/graphql', { token: o.delivery, headers: { 'x-request-id': 'req-graphql-test-1' }, body: { query: '{ storyCollection(where: {views: {gt: 0}}) { total } }' } });
      expect(res.body.errors[0]).toMatchObject({ message: 'Unexpected error.', extensions: { code: 'INTERNAL_SERVER_ERROR', requestId: 'req-graphql-test-1' } });
      expect(JSON.stringify(res.body)).not.toMatch(/numeric|SELECT|syntax/i);
    } finally {
      await app.services.db.query(`UPDATE entries SET fields = jsonb_set(fields, '{views}', '1') WHERE org_id = $1 AND id = 'pub'`, [o.orgId]);
    }
  });

  it('masks a fault met while resolving the token\'s schema, with the request id', async () => {
    const broken = await setupOrg(app);
    await broken.m('PUT', '/models/story', { titleField: 'title', fields: [{ alias: 'title', type: 'text' }] });
    // A real fault: a model definition corrupted past the API, met when the schema is built.
    await app.services.db.query(`UPDATE models SET fields = '"not a list"' WHERE org_id = $1`, [broken.orgId]);
    const res = await app.json('/graphql', { token: broken.delivery, headers: { 'x-request-id': 'req-graphql-test-2' }, body: { query: '{ __typename }' } });
    expect(res.status).toBe(500);
    expect(res.body.errors).toHaveLength(1);
    expect(res.body.errors[0]).toEqual({ message: 'Unexpected error.', extensions: { code: 'INTERNAL_SERVER_ERROR', requestId: 'req-graphql-test-2' } });
    expect(JSON.stringify(res.body)).not.toMatch(/not a list|is not a function|fields/i);
  });
});
