import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { bumpContentVersion } from '../../shared/tenancy/organization-repository.js';
import { startTestApp, type TestApp } from '../support/harness.js';
import { setupOrg, type GqlOrg } from './graphql-support.js';

/**
 * The response cache's content versions, kept in memory from the organizations' NOTIFY: a cached
 * answer costs no statement, and no write is missed — the writing process's own, another
 * writer's (heard through Postgres), or, on the production stack, another instance's.
 */
let app: TestApp;
let o: GqlOrg;
const Q = '{ noteCollection(order: {id: ASC}) { total items { id text } } }';

beforeAll(async () => {
  app = await startTestApp({ workers: false });
  o = await setupOrg(app);
  await o.m('PUT', '/models/note', { fields: [{ alias: 'text', type: 'text' }] });
  await o.m('PUT', '/entries/n1', { model: 'note', siteId: o.siteId, fields: { text: 'one' }, status: 'PUBLISHED' });
});

afterAll(async () => {
  await app?.close();
});

/** Statements `app` ran for one read of `query`, and its answer. */
async function measured(on: TestApp, org: GqlOrg, query: string) {
  const before = on.services.db.stats.queries;
  const res = await org.q(query);
  return { statements: on.services.db.stats.queries - before, body: res.body };
}

/** Reads `query` until its repeat costs no statement (listener in place, version kept). */
async function warm(on: TestApp, org: GqlOrg, query: string) {
  await expect.poll(async () => (await measured(on, org, query)).statements, { timeout: 5000 }).toBe(0);
}

describe('content versions in memory', () => {
  it('a cached answer costs no statement, and the writing process sees its write at the very next read', async () => {
    await warm(app, o, Q);
    const fromMemory = app.services.contentVersions.stats.fromMemory;
    expect((await measured(app, o, Q)).statements).toBe(0);
    expect(app.services.contentVersions.stats.fromMemory).toBe(fromMemory + 1);
    for (const text of ['two', 'three', 'four']) {
      await o.m('PATCH', '/entries/n1', { fields: { text } });
      await o.m('POST', '/entries/n1/publish');
      // no wait: the write's own transaction told this process as it committed
      expect((await measured(app, o, Q)).body.data.noteCollection.items).toEqual([{ id: 'n1', text }]);
    }
  });

  it('the writing process knows its bump as its transaction returns, before Postgres tells it', async () => {
    await warm(app, o, Q);
    for (let i = 0; i < 5; i++) {
      const v = await app.services.db.transaction((tx) => bumpContentVersion(tx, o.orgId));
      // no turn of the event loop since the COMMIT: only the transaction's own echo can have said it
      expect(app.services.contentVersions.known(o.orgId)).toBe(v);
    }
  });

  it("another writer's bump (no echo: a statement outside the product's writes) is heard through NOTIFY", async () => {
    await warm(app, o, Q);
    const known = app.services.contentVersions.known(o.orgId);
    expect(known).toBeGreaterThan(0);
    // what another process's write does to this table; this process is told only by Postgres
    await app.services.db.query('UPDATE organizations SET content_version = content_version + 1 WHERE id = $1', [o.orgId]);
    await expect.poll(() => app.services.contentVersions.known(o.orgId), { timeout: 2000 }).toBe(known! + 1);
    // the new version is a new key: executed again (and right)
    expect((await measured(app, o, Q)).statements).toBeGreaterThan(0);
  });

  it('a rolled-back write tells nobody', async () => {
    await warm(app, o, Q);
    const known = app.services.contentVersions.known(o.orgId);
    await expect(
      app.services.db.transaction(async (tx) => {
        await tx.query('UPDATE organizations SET content_version = content_version + 1 WHERE id = $1', [o.orgId]);
        tx.echoOnCommit('folio_content_versions', `${o.orgId}:${known! + 1}`);
        throw new Error('rolled back');
      }),
    ).rejects.toThrow('rolled back');
    await new Promise((r) => setTimeout(r, 200));
    expect(app.services.contentVersions.known(o.orgId)).toBe(known);
    expect((await measured(app, o, Q)).statements).toBe(0);
  });

  it('two instances: a write through one reaches the cached answers of the other', async (ctx) => {
    if (app.stack !== 'production') return ctx.skip(); // embedded instances each hold their own database
    const second = await startTestApp({ workers: false });
    try {
      const on2: GqlOrg = { ...o, q: (query, variables, token = o.delivery) => second.json('/graphql', { token, body: { query, variables } }) };
      await warm(second, on2, Q);
      await o.m('PATCH', '/entries/n1', { fields: { text: 'from the first instance' } });
      await o.m('POST', '/entries/n1/publish');
      const started = Date.now();
      await expect.poll(async () => (await measured(second, on2, Q)).body.data.noteCollection.items[0].text, { timeout: 2000, interval: 5 }).toBe('from the first instance');
      expect(Date.now() - started).toBeLessThan(1000);
    } finally {
      await second.close();
    }
  });
});

describe('answers kept as bytes (the fast lane, POST)', () => {
  const B = '{ noteCollection { total items { text } } }';
  /** A POST of `query` with its body written as `spacing` says (one document, two body texts). */
  const post = async (query: string, o2: { spacing?: string; token?: string; accept?: string } = {}) => {
    const res = await app.fetch('/graphql', {
      token: o2.token ?? o.delivery,
      rawBody: `{${o2.spacing ?? ''}"query":${JSON.stringify(query)}}`,
      headers: { 'content-type': 'application/json', ...(o2.accept ? { accept: o2.accept } : {}) },
    });
    return { status: res.status, type: res.headers.get('content-type'), text: await res.text() };
  };
  const fromMemory = () => app.graphql.fastLaneStats.fromMemory;

  it("a repeat is answered from the bytes of the response cache's answer: the same bytes and headers", async () => {
    await warm(app, o, B); // cached by the response cache under the body `{"query":…}` that `o.q` sends
    let before = fromMemory();
    const plugin = await post(B, { spacing: ' ' }); // another body text: the response cache answers
    expect(fromMemory()).toBe(before);
    before = fromMemory();
    const memory = await post(B, { spacing: ' ' });
    expect(fromMemory()).toBe(before + 1);
    expect(memory).toEqual(plugin);
    expect(JSON.parse(memory.text).data.noteCollection.total).toBe(1);
  });

  it('a write, another scope, another media type and a model change each get their own answer', async () => {
    // seen, then cached by the response cache, then its answer kept as bytes
    for (let i = 0; i < 3; i++) await post(B, { spacing: '  ' });
    let before = fromMemory();
    await post(B, { spacing: '  ' });
    expect(fromMemory()).toBe(before + 1);

    await o.m('PUT', '/entries/n2', { model: 'note', siteId: o.siteId, fields: { text: 'a draft' }, status: 'DRAFT' });
    // another scope: the preview token sees the draft, never the delivery token's bytes
    expect(JSON.parse((await post(B, { spacing: '  ', token: o.preview })).text).data.noteCollection.total).toBe(2);
    expect(JSON.parse((await post(B, { spacing: '  ', token: o.preview })).text).data.noteCollection.total).toBe(2);
    // a write: the delivery answer executes again (published: now two)
    await o.m('POST', '/entries/n2/publish');
    before = fromMemory();
    expect(JSON.parse((await post(B, { spacing: '  ' })).text).data.noteCollection.total).toBe(2);
    expect(fromMemory()).toBe(before);

    // another media type has its own bytes, with its own Content-Type
    const GQL = 'application/graphql-response+json';
    for (let i = 0; i < 3; i++) await post(B, { spacing: '  ', accept: GQL });
    before = fromMemory();
    const other = await post(B, { spacing: '  ', accept: GQL });
    expect(fromMemory()).toBe(before + 1);
    expect(other.type).toBe(`${GQL}; charset=utf-8`);
    expect((await post(B, { spacing: '  ' })).type).toBe('application/json; charset=utf-8');

    // a model change: a new schema, new answers
    await o.m('PUT', '/models/note', { fields: [{ alias: 'text', type: 'text' }, { alias: 'extra', type: 'text' }] });
    before = fromMemory();
    expect((await post(B, { spacing: '  ' })).status).toBe(200);
    expect(fromMemory()).toBe(before);
  });
});

describe('answers kept as bytes (the fast lane, GET)', () => {
  const G = '{ noteCollection(order: {id: DESC}) { total items { id } } }';
  const HEADERS = ['content-type', 'cache-control', 'etag', 'vary', 'surrogate-key', 'surrogate-control', 'cdn-cache-control', 'access-control-allow-origin'];
  const fromMemory = () => app.graphql.fastLaneStats.fromMemory;

  it('a GET with a publishable key is answered from memory with the same headers, a 304 for its ETag, and its URL recorded', async () => {
    const key = (await app.json('/management/v1/tokens', { token: o.manage, body: { name: 'site', scopes: ['delivery'], publishable: true } })).body.result.token as string;
    const url = `/graphql?query=${encodeURIComponent(G)}&access_token=${key}`;
    const get = async (headers: Record<string, string> = {}) => {
      const res = await app.fetch(url, { headers });
      return { status: res.status, headers: Object.fromEntries(HEADERS.map((h) => [h, res.headers.get(h)])), text: await res.text() };
    };
    // seen, cached by the response cache, then its bytes kept
    await get();
    await get();
    let before = fromMemory();
    const plugin = await get();
    expect(fromMemory()).toBe(before);
    expect(plugin.headers['surrogate-key']).not.toBeNull();
    before = fromMemory();
    const memory = await get();
    expect(fromMemory()).toBe(before + 1);
    expect(memory).toEqual(plugin);
    // revalidation from memory: a 304 with the same caching headers and no body
    before = fromMemory();
    const revalidated = await get({ 'if-none-match': plugin.headers.etag! });
    expect(fromMemory()).toBe(before + 1);
    expect([revalidated.status, revalidated.text, revalidated.headers.etag, revalidated.headers['cache-control']]).toEqual([304, '', plugin.headers.etag, plugin.headers['cache-control']]);
    // the URL a CDN may keep is recorded for purging, from memory too
    await app.services.edgeUrls.flush();
    const { rows } = await app.services.db.query<{ n: number }>('SELECT count(*)::int AS n FROM edge_urls WHERE org_id = $1 AND url = $2', [o.orgId, url]);
    expect(rows[0].n).toBe(1);
    // and a write: executed again, the new answer and ETag
    await o.m('PUT', '/entries/n9', { model: 'note', siteId: o.siteId, fields: { text: 'nine' }, status: 'PUBLISHED' });
    before = fromMemory();
    const after = await get({ 'if-none-match': plugin.headers.etag! });
    expect(fromMemory()).toBe(before);
    expect(after.status).toBe(200);
    expect(JSON.parse(after.text).data.noteCollection.items[0].id).toBe('n9');
  });
});
