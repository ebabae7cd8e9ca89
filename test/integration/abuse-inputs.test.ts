import { brotliCompressSync, gzipSync } from 'node:zlib';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { MAX_EVENT_LOOP_BLOCK_MS, measureEventLoopBlock } from '../support/event-loop-guard.js';
import { startTestApp, type TestApp } from '../support/harness.js';
import { setupOrg, type GqlOrg } from './graphql-support.js';
import { createAnalyticsOrg, createDistribution, type AnalyticsOrg } from './ingest-support.js';

/**
 * Inputs that used to answer 500 (a masked bug) and are the caller's fault: each is a 400 in the
 * documented shape — the REST envelope, or GraphQL BAD_USER_INPUT — and writes nothing.
 */
let app: TestApp;
let o: GqlOrg;
let analytics: AnalyticsOrg;
const JSON_TYPE = { 'content-type': 'application/json' };
const nest = (levels: number, open: string, inner: string, close: string) => open.repeat(levels) + inner + close.repeat(levels);
const envelope400 = (message: RegExp) => ({ success: false, errors: [expect.stringMatching(message)], messages: [], result: null, resultInfo: null });

beforeAll(async () => {
  app = await startTestApp({ workers: false });
  o = await setupOrg(app);
  await o.m('PUT', '/models/story', { titleField: 'title', fields: [{ alias: 'title', type: 'text' }, { alias: 'data', type: 'json' }] });
  await o.m('PUT', '/entries/s1', { model: 'story', siteId: o.siteId, fields: { title: 'One' }, status: 'PUBLISHED' });
  analytics = await createAnalyticsOrg(app);
  await createDistribution(app, analytics, 'edge');
});
afterAll(async () => app?.close());

describe('the NUL character', () => {
  it.each([
    ['an entry id in the path', 'GET', '/management/v1/entries/a%00b', undefined],
    ['a model alias in the path', 'GET', '/management/v1/models/st%00ry', undefined],
    ['a site name', 'POST', '/management/v1/sites', { name: 'a\u0000b' }],
    ['a text field', 'POST', '/management/v1/entries', { model: 'story', fields: { title: 'a\u0000b' } }],
    ['a json field', 'POST', '/management/v1/entries', { model: 'story', fields: { title: 't', data: { k: 'a\u0000b' } } }],
  ])('REST, %s: 400 in the envelope, nothing written', async (_what, method, path, body) => {
    const withSite = body && 'model' in body ? { ...body, siteId: o.siteId } : body;
    const res = await app.json(path, { method, token: o.manage, body: withSite });
    expect(res.status, JSON.stringify(res.body)).toBe(400);
    expect(res.body).toEqual(envelope400(/NUL character/));
    const entries = await o.d('{ storyCollection { total } }', undefined, o.preview);
    expect(entries.storyCollection.total).toBe(1);
  });

  it.each([
    ['an id argument', 'query($v: String!) { story(id: $v) { id } }'],
    ['a filter value', 'query($v: String!) { storyCollection(where: { title: { eq: $v } }) { total } }'],
    ['a list filter value', 'query($v: String!) { storyCollection(where: { title: { startsWithAny: ["x", $v] } }) { total } }'],
  ])('GraphQL, %s: BAD_USER_INPUT', async (_what, query) => {
    const res = await o.q(query, { v: 'a\u0000b' });
    expect(res.body.errors?.[0]?.extensions?.code, JSON.stringify(res.body)).toBe('BAD_USER_INPUT');
    expect(res.body.errors![0].message).toMatch(/NUL character/);
  });
});

describe('paths, bodies and encodings', () => {
  it.each(['/management/v1/entries/%', '/management/v1/models/%zz', `/api/v1/projects/%/distributions/edge/analytics`])('a path that is not percent-encoding (%s): 400', async (path) => {
    const res = await app.json(path, { token: o.manage });
    expect(res.status).toBe(400);
    expect(res.body).toEqual(envelope400(/percent-encoding/));
  });

  it('a JSON body nested 5,000 deep: 400, without blocking the event loop', async () => {
    const rawBody = `{"model":"story","siteId":"${o.siteId}","fields":{"title":"t","data":${nest(5000, '{"a":', '1', '}')}}}`;
    const { result: res, maxBlockedMs } = await measureEventLoopBlock(() => app.json('/management/v1/entries/deep', { method: 'PUT', token: o.manage, headers: JSON_TYPE, rawBody }));
    expect(res.status).toBe(400);
    expect(res.body).toEqual(envelope400(/^Request body: nested deeper than 128 levels\.$/));
    expect(maxBlockedMs).toBeLessThan(MAX_EVENT_LOOP_BLOCK_MS);
    expect((await app.json('/management/v1/entries/deep', { token: o.manage })).status).toBe(404);
  });

  it('a json field nested 100 deep is stored and read back', async () => {
    const rawBody = `{"model":"story","siteId":"${o.siteId}","fields":{"title":"t","data":${nest(100, '{"a":', '1', '}')}}}`;
    expect((await app.json('/management/v1/entries/deep100', { method: 'PUT', token: o.manage, headers: JSON_TYPE, rawBody })).status).toBe(201);
    expect((await app.json('/management/v1/entries/deep100', { method: 'DELETE', token: o.manage })).status).toBe(200);
  });

  it('Content-Encoding: gzip on a JSON route is decoded', async () => {
    const res = await app.json('/management/v1/sites', { token: o.manage, headers: { ...JSON_TYPE, 'content-encoding': 'gzip' }, rawBody: new Uint8Array(gzipSync(JSON.stringify({ name: 'Zipped' }))) });
    expect(res.status).toBe(201);
    expect(res.body.result.name).toBe('Zipped');
  });

  it.each([
    ['gzip', () => gzipSync(Buffer.alloc(256 * 1024 * 1024, 0x20))],
    ['br', () => brotliCompressSync(Buffer.alloc(256 * 1024 * 1024, 0x20))],
  ])('a %s bomb on a JSON route: 413 as soon as the decoded bytes pass the limit, without blocking the event loop', async (encoding, make) => {
    const bomb = make();
    const { result: res, maxBlockedMs } = await measureEventLoopBlock(() =>
      app.json('/management/v1/sites', { token: o.manage, headers: { ...JSON_TYPE, 'content-encoding': encoding }, rawBody: new Uint8Array(bomb) }),
    );
    expect(res.status).toBe(413);
    expect(res.body.success).toBe(false);
    expect(maxBlockedMs).toBeLessThan(MAX_EVENT_LOOP_BLOCK_MS);
  });

  it('Content-Encoding: compress (unsupported) on a JSON route: 415', async () => {
    const res = await app.json('/management/v1/sites', { token: o.manage, headers: { ...JSON_TYPE, 'content-encoding': 'compress' }, rawBody: '{"name":"x"}' });
    expect(res.status).toBe(415);
    expect(res.body.success).toBe(false);
  });

  it.each([
    ['1960', 'from=1960-01-01T00:00:00Z&to=1960-01-02T00:00:00Z'],
    ['year 0', 'from=0000-01-01&to=0000-01-02'],
    ['straddling 1970', 'from=1969-12-31T00:00:00Z&to=1970-01-02T00:00:00Z'],
  ])('analytics from before 1970 (%s): 400', async (_what, query) => {
    const res = await app.json(`/api/v1/projects/${analytics.projectId}/distributions/edge/analytics?${query}`, { token: analytics.analyticsToken });
    expect(res.status).toBe(400);
    expect(res.body).toEqual(envelope400(/between 1970-01-01 and 2106-01-01/));
  });
});

describe('GraphQL filters and variables', () => {
  const filtered = (where: string) =>
    app.json('/graphql', { token: o.delivery, headers: JSON_TYPE, rawBody: `{"query":"query($w: StoryFilter) { storyCollection(where: $w) { total } }","variables":{"w":${where}}}` });

  it('variables nested 1,500 deep: BAD_USER_INPUT before they are read (was a stack overflow)', async () => {
    const res = await filtered(nest(1500, '{"and":[', '{"title":{"eq":"x"}}', ']}'));
    expect(res.status).toBe(400);
    expect(res.body.errors[0]).toMatchObject({ message: 'Variables: nested deeper than 128 levels.', extensions: { code: 'BAD_USER_INPUT' } });
  });

  it('a filter nested past 16 levels: BAD_USER_INPUT naming the limit, before any SQL', async () => {
    const res = await filtered(nest(20, '{"and":[', '{"title":{"eq":"x"}}', ']}'));
    expect(res.body.errors[0]).toMatchObject({ message: 'where: nested deeper than 16 levels (the limit).', extensions: { code: 'BAD_USER_INPUT' } });
    const within = await filtered(nest(10, '{"and":[', '{"title":{"eq":"One"}}', ']}'));
    expect(within.body).toEqual({ data: { storyCollection: { total: 1 } }, extensions: expect.anything() });
  });

  it('a list of 50,000 values: BAD_USER_INPUT without blocking the event loop', async () => {
    const values = JSON.stringify(Array.from({ length: 50_000 }, (_, i) => `v${i}`));
    const { result: res, maxBlockedMs } = await measureEventLoopBlock(() => filtered(`{"title":{"startsWithAny":${values}}}`));
    expect(res.status).toBe(400);
    expect(res.body.errors[0]).toMatchObject({ message: 'Variables: a list of 50000 items; the limit is 1000.', extensions: { code: 'BAD_USER_INPUT' } });
    expect(maxBlockedMs).toBeLessThan(MAX_EVENT_LOOP_BLOCK_MS);
  });

  it('a list over the limit written into the document: BAD_USER_INPUT from the filter limits', async () => {
    const values = JSON.stringify(Array.from({ length: 1001 }, (_, i) => `v${i}`));
    const res = await o.q(`{ storyCollection(where: { title: { in: ${values} } }) { total } }`);
    expect(res.body.errors?.[0]).toMatchObject({ message: 'where: a list of 1001 items; the limit is 1000.', extensions: { code: 'BAD_USER_INPUT' } });
  });

  it('more than 5,000 values in one filter: BAD_USER_INPUT', async () => {
    const list = JSON.stringify(Array.from({ length: 1000 }, (_, i) => `v${i}`));
    const res = await filtered(`{"or":[${Array.from({ length: 6 }, () => `{"title":{"in":${list}}}`).join(',')}]}`);
    expect(res.body.errors[0]).toMatchObject({ message: 'where: more than 5000 values in one filter (the limit).', extensions: { code: 'BAD_USER_INPUT' } });
  });

  it('a body that is not JSON: 400 without echoing the parser error', async () => {
    for (const accept of ['application/json', 'application/graphql-response+json']) {
      const res = await app.json('/graphql', { token: o.delivery, headers: { ...JSON_TYPE, accept }, rawBody: '{"query": "{' });
      expect(res.status).toBe(400);
      expect(res.body).toEqual({ errors: [{ message: 'POST body sent invalid JSON.', extensions: { code: 'BAD_REQUEST' } }] });
    }
  });

  it('the schema says offset is ignored once a continuationToken is given', async () => {
    const data = await o.d('{ __type(name: "Query") { fields { name args { name description } } } }');
    const collection = data.__type.fields.find((f: { name: string }) => f.name === 'storyCollection');
    const token = collection.args.find((a: { name: string }) => a.name === 'continuationToken');
    expect(token.description).toMatch(/`offset` is ignored/);
  });
});
