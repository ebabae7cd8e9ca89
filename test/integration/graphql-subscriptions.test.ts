import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestApp, type TestApp } from '../support/harness.js';
import { openSse, type SseStream } from '../support/sse.js';
import { setupOrg, type GqlOrg } from './graphql-support.js';

// Live preview: GraphQL subscriptions over server-sent events at /graphql, for preview tokens,
// fed by the events Folio commits — answered after each saved change, on any instance.

let t: TestApp;
let o: GqlOrg;
let other: GqlOrg;
const open: SseStream[] = [];

const ENTRY = 'subscription { entryChanged(id: "home") { id system { status } ... on Page { title } } }';

async function subscribe(query: string, token: string, options: { app?: TestApp; accept?: string; get?: boolean } = {}): Promise<SseStream> {
  const base = (options.app ?? t).baseUrl;
  const headers = { authorization: `Bearer ${token}`, ...(options.accept ? { accept: options.accept } : {}) };
  const stream = options.get
    ? await openSse(`${base}/graphql?query=${encodeURIComponent(query)}`, { method: 'GET', headers })
    : await openSse(`${base}/graphql`, { headers, body: { query } });
  open.push(stream);
  return stream;
}

beforeAll(async () => {
  t = await startTestApp({ workers: false });
  [o, other] = await Promise.all([setupOrg(t), setupOrg(t)]);
  for (const org of [o, other]) {
    await org.m('PUT', '/models/page', { titleField: 'title', fields: [{ alias: 'title', type: 'text' }], previewUrl: 'https://site.example/{id}?preview={token}' });
    await org.m('PUT', '/entries/home', { model: 'page', siteId: org.siteId, fields: { title: 'First' } });
  }
});
afterAll(async () => {
  for (const s of open) s.close();
  await t?.close();
});

describe('entryChanged', () => {
  it('sends the entry as the preview token reads it after each saved change, and nothing of other entries or organizations', async () => {
    const mine = await subscribe(ENTRY, o.preview);
    expect(mine.status).toBe(200);
    expect(mine.headers.get('content-type')).toMatch(/^text\/event-stream/);
    expect(mine.headers.get('cache-control')).not.toMatch(/public|max-age=[1-9]/);
    const theirs = await subscribe(ENTRY, other.preview);

    await o.m('PUT', '/entries/elsewhere', { model: 'page', siteId: o.siteId, fields: { title: 'Not this one' } });
    const started = Date.now();
    await o.m('PATCH', '/entries/home', { fields: { title: 'Second' } });
    const first = await mine.next(2000);
    expect(Date.now() - started).toBeLessThan(1000);
    expect(first).toEqual({ event: 'next', data: { data: { entryChanged: { id: 'home', system: { status: 'DRAFT' }, title: 'Second' } } } });

    // a published change, then the entry deleted: null, since the token no longer reads it
    await o.m('POST', '/entries/home/publish');
    expect((await mine.next(2000))?.data).toEqual({ data: { entryChanged: { id: 'home', system: { status: 'PUBLISHED' }, title: 'Second' } } });
    await o.m('PATCH', '/entries/home', { fields: { title: 'Third' } });
    expect((await mine.next(2000))?.data.data.entryChanged).toEqual({ id: 'home', system: { status: 'EDITED' }, title: 'Third' });

    // a bulk import's batched event names the entry too
    const imported = await t.fetch('/management/v1/import', {
      method: 'POST',
      token: o.manage,
      rawBody: JSON.stringify({ type: 'entry', id: 'home', model: 'page', siteId: o.siteId, fields: { title: 'Imported' } }) + '\n',
      headers: { 'content-type': 'application/x-ndjson' },
    });
    expect(imported.status).toBeLessThan(300);
    await imported.text();
    expect((await mine.next(2000))?.data.data.entryChanged.title).toBe('Imported');

    // the other organization's subscriber to the same id heard none of it; its own change reaches it
    await other.m('PATCH', '/entries/home', { fields: { title: 'Theirs changed' } });
    expect((await theirs.next(2000))?.data.data.entryChanged.title).toBe('Theirs changed');
    mine.close();
    theirs.close();
  });

  it('is the same through GET, and through the fast lane when the Accept also takes JSON', async () => {
    const viaGet = await subscribe(ENTRY, o.preview, { get: true });
    const viaLane = await subscribe(ENTRY, o.preview, { accept: 'application/json, text/event-stream' });
    const viaLaneGet = await subscribe(ENTRY, o.preview, { accept: 'application/json, text/event-stream', get: true });
    for (const s of [viaGet, viaLane, viaLaneGet]) {
      expect(s.headers.get('content-type')).toMatch(/^text\/event-stream/);
      expect(s.headers.get('cache-control') ?? '').not.toMatch(/public|max-age=[1-9]/);
    }
    await o.m('PATCH', '/entries/home', { fields: { title: 'Fourth' } });
    for (const s of [viaGet, viaLane, viaLaneGet]) {
      expect((await s.next(2000))?.data.data.entryChanged.title).toBe('Fourth');
      s.close();
    }
    // the queries of the same client still take the fast lane and answer JSON
    const before = t.graphql.fastLaneStats.answered;
    expect((await o.d('{ page(id: "home") { title } }', {}, o.preview)).page.title).toBe('Fourth');
    expect(t.graphql.fastLaneStats.answered).toBe(before + 1);
  });

  it('refuses delivery tokens, bad tokens, unknown models and documents over the cost limit', async () => {
    const delivery = await subscribe(ENTRY, o.delivery);
    const refused = await delivery.next(2000);
    expect(refused?.data.errors[0].extensions.code).toBe('FORBIDDEN');
    expect(refused?.data.errors[0].message).toContain('preview scope');

    const bad = await openSse(`${t.baseUrl}/graphql`, { headers: { authorization: 'Bearer folio_sk_nope' }, body: { query: ENTRY } });
    open.push(bad);
    expect(bad.status).toBe(401);

    const unknown = await subscribe('subscription { collectionChanged(model: "nope") { total } }', o.preview);
    expect((await unknown.next(2000))?.data.errors[0].extensions.code).toBe('BAD_USER_INPUT');

    // over server-sent events, a refused document is the stream's one message
    const invalid = await subscribe('subscription { entryChanged { id } }', o.preview);
    expect((await invalid.next(2000))?.data.errors[0].extensions.code).toBe('GRAPHQL_VALIDATION_FAILED');

    // the cost check (which bounds `limit`) runs when the subscription starts, before any change
    const costly = await subscribe('subscription { collectionChanged(model: "page", limit: 100000) { items { id } } }', o.preview);
    const costlyAnswer = (await costly.next(2000))?.data;
    expect(costlyAnswer.errors[0], JSON.stringify(costlyAnswer)).toMatchObject({ message: 'limit must be between 0 and 500 (got 100000).', extensions: { code: 'BAD_USER_INPUT' } });
  });
});

describe('a preview link’s token', () => {
  it('subscribes, and its stream ends at the first change after the token is revoked or expired', async () => {
    for (const end of ['revoke', 'expire'] as const) {
      const link = (await t.json('/management/v1/entries/home/preview-link', { method: 'POST', token: o.manage })).body.result;
      const stream = await subscribe(ENTRY, link.token);
      await o.m('PATCH', '/entries/home', { fields: { title: `Before ${end}` } });
      expect((await stream.next(2000))?.data.data.entryChanged.title).toBe(`Before ${end}`);
      if (end === 'revoke') await o.m('DELETE', `/tokens/${link.tokenId}`);
      else await t.services.db.query(`UPDATE tokens SET expires_at = now() - interval '1 second' WHERE id = $1`, [link.tokenId]);
      await o.m('PATCH', '/entries/home', { fields: { title: `After ${end}` } });
      const last = await stream.next(2000);
      expect(last?.event, JSON.stringify(last)).toBe('complete');
      expect(await stream.next(2000)).toBeNull();
    }
  });
});

describe('collectionChanged', () => {
  it("sends the model's entries again after a change of one of them", async () => {
    const stream = await subscribe('subscription { collectionChanged(model: "page", limit: 10) { total items { id } } }', o.preview);
    await o.m('PUT', '/entries/new-one', { model: 'page', siteId: o.siteId, fields: { title: 'New' } });
    const got = (await stream.next(2000))?.data.data.collectionChanged;
    expect(got.items.map((i: { id: string }) => i.id)).toContain('new-one');
    expect(got.total).toBe(3);
    stream.close();
  });
});

describe('two API instances', () => {
  it('a change written through one instance reaches a subscriber of the other within a second', async (ctx) => {
    if (t.stack !== 'production') return ctx.skip(); // embedded instances each hold their own database
    const second = await startTestApp({ workers: false });
    try {
      const stream = await subscribe(ENTRY, o.preview, { app: second });
      const started = Date.now();
      await o.m('PATCH', '/entries/home', { fields: { title: 'From the first instance' } });
      const got = await stream.next(2000);
      expect(Date.now() - started).toBeLessThan(1000);
      expect(got?.data.data.entryChanged.title).toBe('From the first instance');
      stream.close();
    } finally {
      await second.close();
    }
  });
});
