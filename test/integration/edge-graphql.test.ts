import { createHash } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestApp, type TestApp, type TestOrg } from '../support/harness.js';

/**
 * GraphQL at the edge: publishable keys in the URL, HTTP caching of GETs (Cache-Control, ETag,
 * 304, Vary, surrogate keys), automatic persisted queries and trusted documents.
 */
const sha256 = (text: string) => createHash('sha256').update(text).digest('hex');
const qs = (params: Record<string, unknown>) =>
  new URLSearchParams(Object.entries(params).map(([k, v]) => [k, typeof v === 'string' ? v : JSON.stringify(v)])).toString();
const apq = (query: string) => ({ persistedQuery: { version: 1, sha256Hash: sha256(query) } });

describe('GraphQL at the edge', () => {
  let t: TestApp;
  let org: TestOrg;
  let other: TestOrg;
  let delivery: string;
  let preview: string;
  let publishable: string;
  let storyId: string;
  const m = (p: string, o: { method?: string; body?: unknown } = {}, token = org.manageToken) => t.json(`/management/v1${p}`, { token, ...o });

  async function publishStory(site: string, title: string, slug: string): Promise<string> {
    const created = await m('/entries', { body: { model: 'story', siteId: site, slug, fields: { title } } });
    expect(created.status, JSON.stringify(created.body)).toBe(201);
    expect((await m(`/entries/${created.body.result.id}/publish`, { method: 'POST' })).status).toBe(200);
    return created.body.result.id as string;
  }

  beforeAll(async () => {
    t = await startTestApp();
    [org, other] = await Promise.all([t.createOrg(), t.createOrg()]);
    [delivery, preview] = await Promise.all([t.createToken(org.manageToken, ['delivery']), t.createToken(org.manageToken, ['preview'])]);
    const key = await m('/tokens', { body: { name: 'site', scopes: ['delivery'], publishable: true } });
    expect(key.status).toBe(201);
    publishable = key.body.result.token;
    expect((await m('/models/story', { method: 'PUT', body: { titleField: 'title', fields: [{ alias: 'title', type: 'text', required: true }] } })).status).toBe(201);
    const site = (await m('/sites', { body: { name: 'Web' } })).body.result.id as string;
    storyId = await publishStory(site, 'First', 'first');
  });
  afterAll(async () => t?.close());

  const get = (params: Record<string, unknown>, o: { token?: string; headers?: Record<string, string> } = {}) => t.fetch(`/graphql?${qs(params)}`, o);

  describe('publishable keys', () => {
    it('are made for delivery only, start folio_pk_ and read published content from the URL', async () => {
      expect(publishable).toMatch(/^folio_pk_[0-9A-Za-z]{46}$/);
      const listed = await m('/tokens');
      expect(listed.body.result.find((k: { name: string }) => k.name === 'site')).toMatchObject({ publishable: true, scopes: ['delivery'] });
      for (const scopes of [['preview'], ['delivery', 'manage']]) {
        const refused = await m('/tokens', { body: { name: 'x', scopes, publishable: true } });
        expect(refused.status).toBe(400);
        expect(refused.body.errors.join(' ')).toContain('publishable key has the "delivery" scope');
      }
      const res = await get({ query: '{ storyCollection { items { title } } }', access_token: publishable });
      expect(res.status).toBe(200);
      expect(((await res.json()) as { data: unknown }).data).toEqual({ storyCollection: { items: [{ title: 'First' }] } });
    });

    it('a secret token in the URL is refused, and a publishable key opens no REST endpoint', async () => {
      const secret = await get({ query: '{ __typename }', access_token: delivery });
      expect(secret.status).toBe(401);
      const body = (await secret.json()) as { errors: { message: string; extensions: { code: string } }[] };
      expect(body.errors[0].extensions.code).toBe('UNAUTHENTICATED');
      expect(body.errors[0].message).toContain('Only a publishable key');
      expect((await m('/models', {}, publishable)).status).toBe(403);
      // another org's publishable key reads its own org
      const theirs = (await m('/tokens', { body: { name: 'k', scopes: ['delivery'], publishable: true } }, other.manageToken)).body.result.token;
      const res = await get({ query: '{ storyCollection { items { title } } }', access_token: theirs });
      expect(((await res.json()) as { errors: { extensions: { code: string } }[] }).errors[0].extensions.code).toBe('GRAPHQL_VALIDATION_FAILED');
    });
  });

  describe('HTTP caching of GET', () => {
    const query = '{ storyCollection { items { title } } }';

    it('marks a publishable key answer public, a header token private, preview no-store, errors no-store', async () => {
      const pub = await get({ query, access_token: publishable });
      expect(pub.headers.get('cache-control')).toBe('public, max-age=60, stale-while-revalidate=300');
      // any origin may read it: one stored copy for every page
      expect(pub.headers.get('vary')).toBe('Accept');
      expect(pub.headers.get('access-control-allow-origin')).toBe('*');
      // a CDN serves this copy to pages too: they may read its validator and the request id
      expect(pub.headers.get('access-control-expose-headers')).toContain('X-Origin-Request-Id');
      const fromPage = await get({ query, access_token: publishable }, { headers: { origin: 'https://www.example.com' } });
      expect([fromPage.headers.get('x-origin-request-id') !== null, fromPage.headers.get('access-control-expose-headers')]).toEqual([
        true,
        expect.stringMatching(/\bETag\b.*\bX-Origin-Request-Id\b/),
      ]);
      expect(pub.headers.get('etag')).toMatch(/^"[A-Za-z0-9_-]{43}"$/);
      const header = await get({ query }, { token: delivery });
      expect(header.headers.get('cache-control')).toBe('private, max-age=60, stale-while-revalidate=300');
      expect(header.headers.get('vary')).toBe('Accept, Origin, Authorization');
      expect(header.headers.get('etag')).toBe(pub.headers.get('etag'));
      expect((await get({ query }, { token: preview })).headers.get('cache-control')).toBe('private, no-store');
      const failed = await get({ query: '{ nope }', access_token: publishable });
      expect(failed.headers.get('cache-control')).toBe('no-store');
      expect(((await failed.json()) as { errors: { extensions: { code: string } }[] }).errors[0].extensions.code).toBe('GRAPHQL_VALIDATION_FAILED');
      expect(failed.headers.get('etag')).toBeNull();
      // POST stays uncached
      expect((await t.fetch('/graphql', { token: delivery, body: { query } })).headers.get('etag')).toBeNull();
    });

    it('negotiates Accept as a media-type list: clients\' default headers get the same caching headers and 304', async () => {
      const exact = await get({ query, access_token: publishable }, { headers: { accept: 'application/json' } });
      const etag = exact.headers.get('etag')!;
      const clients: [string, string][] = [
        ['application/graphql-response+json, application/graphql+json, application/json, text/event-stream, multipart/mixed', 'application/graphql-response+json'], // urql
        ['application/json, text/plain, */*', 'application/json'], // axios
        ['application/json, */*', 'application/json'],
        ['application/graphql-response+json,application/json;q=0.9', 'application/graphql-response+json'], // Apollo Client
        ['application/json;q=0.5, application/graphql-response+json', 'application/graphql-response+json'],
        ['text/plain;q=0.1, */*;q=0.8', 'application/json'],
      ];
      for (const [accept, type] of clients) {
        const res = await get({ query, access_token: publishable }, { headers: { accept } });
        expect(
          [res.status, res.headers.get('content-type'), res.headers.get('cache-control'), res.headers.get('etag'), res.headers.get('vary'), res.headers.get('surrogate-key') !== null],
          accept,
        ).toEqual([200, `${type}; charset=utf-8`, 'public, max-age=60, stale-while-revalidate=300', etag, 'Accept', true]);
        const again = await get({ query, access_token: publishable }, { headers: { accept, 'if-none-match': etag } });
        expect(again.status, accept).toBe(304);
      }
      // neither JSON type acceptable: yoga answers (it reads no q-values), uncached
      const refused = await get({ query, access_token: publishable }, { headers: { accept: 'application/json;q=0, text/plain' } });
      expect([refused.headers.get('cache-control'), refused.headers.get('etag')]).toEqual(['no-store', null]);
    });

    it('answers If-None-Match with 304 while the content is the same, and 200 with a new ETag once it changed', async () => {
      const first = await get({ query, access_token: publishable });
      const etag = first.headers.get('etag')!;
      const again = await get({ query, access_token: publishable }, { headers: { 'if-none-match': etag } });
      expect(again.status).toBe(304);
      expect(await again.text()).toBe('');
      expect(again.headers.get('etag')).toBe(etag);
      expect(again.headers.get('cache-control')).toBe('public, max-age=60, stale-while-revalidate=300');
      // the surrogate keys came with the stored 200
      expect([first.headers.get('surrogate-key') !== null, again.headers.get('surrogate-key')]).toEqual([true, null]);
      expect((await get({ query, access_token: publishable }, { headers: { 'if-none-match': `"other", W/${etag}` } })).status).toBe(304);
      expect((await get({ query, access_token: publishable }, { headers: { 'if-none-match': '"other"' } })).status).toBe(200);

      const site = (await m('/sites', { body: { name: 'Second' } })).body.result.id as string;
      await publishStory(site, 'Second', 'second');
      const changed = await get({ query, access_token: publishable }, { headers: { 'if-none-match': etag } });
      expect(changed.status).toBe(200);
      expect(changed.headers.get('etag')).not.toBe(etag);
      expect(((await changed.json()) as { data: { storyCollection: { items: unknown[] } } }).data.storyCollection.items).toHaveLength(2);
    });

    it('takes max-age and stale-while-revalidate from the organization, refusing bad values', async () => {
      expect((await m('/delivery-settings')).body.result).toEqual({ cacheMaxAge: 60, cacheStaleWhileRevalidate: 300, trustedDocuments: false, publishableImageSizes: null, publishableImagePresets: null, imageWatermark: null });
      for (const body of [{ cacheMaxAge: -1 }, { cacheMaxAge: 86_401 }, { cacheStaleWhileRevalidate: 'x' }, {}, { other: 1 }]) {
        const res = await m('/delivery-settings', { method: 'PATCH', body });
        expect(res.status, JSON.stringify(body)).toBe(400);
        expect(res.body.success).toBe(false);
      }
      const changed = await m('/delivery-settings', { method: 'PATCH', body: { cacheMaxAge: 600, cacheStaleWhileRevalidate: 30 } });
      expect(changed.body.result).toEqual({ cacheMaxAge: 600, cacheStaleWhileRevalidate: 30, trustedDocuments: false, publishableImageSizes: null, publishableImagePresets: null, imageWatermark: null });
      // keys verified before are cached up to TOKEN_CACHE_TTL_MS; a new one sees the change at once
      const fresh = (await m('/tokens', { body: { name: 'fresh', scopes: ['delivery'], publishable: true } })).body.result.token;
      expect((await get({ query, access_token: fresh })).headers.get('cache-control')).toBe('public, max-age=600, stale-while-revalidate=30');
      expect((await m('/delivery-settings', {}, other.manageToken)).body.result.cacheMaxAge).toBe(60);
      expect((await m('/delivery-settings', {}, delivery)).status).toBe(403);
      await m('/delivery-settings', { method: 'PATCH', body: { cacheMaxAge: 60, cacheStaleWhileRevalidate: 300 } });
    });

    it('lists what the answer read as surrogate keys, from the response cache too', async () => {
      const keysOf = (res: Response) => res.headers.get('surrogate-key')!.split(' ');
      const byId = await get({ query: `{ story(id: "${storyId}") { title } }`, access_token: publishable });
      expect(keysOf(byId)).toEqual([`o.${org.orgId}`, `o.${org.orgId}.e.${storyId}`]);
      expect(byId.headers.get('cache-tag')).toBe(keysOf(byId).join(','));
      const list = await get({ query, access_token: publishable });
      expect(keysOf(list)).toContain(`o.${org.orgId}.m.story`);
      // the third request is a response-cache hit (cached from the second on): same keys
      const hit = await get({ query, access_token: publishable });
      expect(keysOf(hit)).toEqual(keysOf(list));
      const across = await get({ query: '{ entryCollection { total } }', access_token: publishable });
      expect(keysOf(across)).toContain(`o.${org.orgId}.entries`);
      // preview answers are never stored: no keys
      expect((await get({ query }, { token: preview })).headers.get('surrogate-key')).toBeNull();
    });
  });

  describe('automatic persisted queries', () => {
    const query = '{ storyCollection(limit: 1) { items { title } } }';

    it('a hash alone is PERSISTED_QUERY_NOT_FOUND until the text comes with it; then GET by hash works', async () => {
      const unknown = await get({ extensions: apq(query) }, { token: delivery });
      expect(unknown.status).toBe(200);
      expect(unknown.headers.get('cache-control')).toBe('no-store');
      expect(await unknown.json()).toMatchObject({ errors: [{ message: 'PersistedQueryNotFound', extensions: { code: 'PERSISTED_QUERY_NOT_FOUND' } }] });
      const registered = await t.json('/graphql', { token: delivery, body: { query, extensions: apq(query) } });
      expect(registered.body.data).toEqual({ storyCollection: { items: [{ title: expect.any(String) }] } });
      const byHash = await get({ extensions: apq(query), access_token: publishable });
      expect(byHash.status).toBe(200);
      expect(await byHash.json()).toEqual(registered.body);
      expect(byHash.headers.get('cache-control')).toContain('public');
      // POST by hash too
      expect((await t.json('/graphql', { token: delivery, body: { extensions: apq(query) } })).body).toEqual(registered.body);
      // another organization does not see it
      const theirs = await t.createToken(other.manageToken, ['delivery']);
      expect((await t.json('/graphql', { token: theirs, body: { extensions: apq(query) } })).body.errors[0].extensions.code).toBe('PERSISTED_QUERY_NOT_FOUND');
    });

    it('refuses a hash that is not the text\'s, another version and malformed extensions', async () => {
      const mismatch = await t.json('/graphql', { token: delivery, body: { query, extensions: apq('{ __typename }') } });
      expect([mismatch.status, mismatch.body.errors[0].extensions.code]).toEqual([400, 'BAD_USER_INPUT']);
      const v2 = await t.json('/graphql', { token: delivery, body: { extensions: { persistedQuery: { version: 2, sha256Hash: sha256(query) } } } });
      expect([v2.status, v2.body.errors[0].extensions.code]).toEqual([400, 'PERSISTED_QUERY_NOT_SUPPORTED']);
      const bad = await get({ extensions: { persistedQuery: { version: 1, sha256Hash: 'nope' } } }, { token: delivery });
      expect(bad.status).toBe(400);
      const notJson = await t.fetch('/graphql?extensions=%7Bnope', { token: delivery });
      expect(notJson.status).toBe(400);
      expect(await notJson.json()).toMatchObject({ errors: [{ message: 'The "extensions" parameter must be JSON.', extensions: { code: 'BAD_REQUEST' } }] });
      expect(notJson.headers.get('cache-control')).toBe('no-store');
    });
  });

  describe('trusted documents', () => {
    const listQuery = '{ storyCollection { total } }';
    const titleQuery = 'query Titles { storyCollection { items { title } } }';

    it('registers manifests all or none and runs only registered documents for delivery once enabled', async () => {
      const codegen = await m('/persisted-documents', { method: 'POST', body: { [sha256(listQuery)]: listQuery } });
      expect(codegen.status, JSON.stringify(codegen.body)).toBe(201);
      expect(codegen.body.result).toEqual({ added: 1, total: 1 });
      const apollo = await m('/persisted-documents', {
        method: 'POST',
        body: { format: 'apollo-persisted-query-manifest', version: 1, operations: [{ id: 'titles-v1', name: 'Titles', type: 'query', body: titleQuery }] },
      });
      expect(apollo.body.result).toEqual({ added: 1, total: 2 });
      // again: nothing new
      expect((await m('/persisted-documents', { method: 'POST', body: { [sha256(listQuery)]: listQuery } })).body.result).toEqual({ added: 0, total: 2 });
      // an id means one text for good; a parse error or a hash that is not the text's: nothing registered
      const conflict = await m('/persisted-documents', { method: 'POST', body: { documents: [{ id: 'titles-v1', document: '{ __typename }' }, { document: '{ a: __typename }' }] } });
      expect([conflict.status, conflict.body.success]).toEqual([409, false]);
      expect(conflict.body.errors[0]).toContain('titles-v1');
      const broken = await m('/persisted-documents', { method: 'POST', body: { documents: [{ document: '{ unclosed' }, { id: sha256('x'), document: '{ __typename }' }] } });
      expect(broken.status).toBe(422);
      expect(broken.body.errors.join(' ')).toContain('not the SHA-256');
      expect((await m('/persisted-documents', { method: 'POST', body: { documents: [] } })).status).toBe(400);
      // GraphQL Code Generator's `sha256:<hex>` ids are checked against their text as well
      const prefixed = await m('/persisted-documents', { method: 'POST', body: { [`sha256:${sha256('{ __typename }')}`]: '{ a: __typename }' } });
      expect([prefixed.status, prefixed.body.errors?.join(' ')]).toEqual([422, expect.stringContaining('not the SHA-256')]);
      expect((await m('/persisted-documents')).body.resultInfo.totalCount).toBe(2);

      expect((await m('/delivery-settings', { method: 'PATCH', body: { trustedDocuments: true } })).body.result.trustedDocuments).toBe(true);
      const [key, token, previewToken] = await Promise.all([
        m('/tokens', { body: { name: 'trusted', scopes: ['delivery'], publishable: true } }).then((r) => r.body.result.token as string),
        t.createToken(org.manageToken, ['delivery']),
        t.createToken(org.manageToken, ['preview']),
      ]);
      const arbitrary = await t.json('/graphql', { token, body: { query: '{ storyCollection { items { title slug } } }' } });
      expect([arbitrary.status, arbitrary.body.errors[0].extensions.code]).toEqual([403, 'PERSISTED_QUERY_ONLY']);
      // automatic registration is off: the hash stays unknown
      const apqTry = await t.json('/graphql', { token, body: { query: '{ __typename }', extensions: apq('{ __typename }') } });
      expect(apqTry.body.errors[0].extensions.code).toBe('PERSISTED_QUERY_ONLY');
      // an unknown documentId is refused as the README says, not "not found"
      const unknownId = await get({ documentId: 'titles-v2', access_token: key });
      expect([unknownId.status, ((await unknownId.json()) as { errors: { extensions: { code: string } }[] }).errors[0].extensions.code]).toEqual([403, 'PERSISTED_QUERY_ONLY']);
      const byId = await get({ documentId: 'titles-v1', access_token: key });
      expect(byId.status).toBe(200);
      expect(((await byId.json()) as { data: { storyCollection: { items: unknown[] } } }).data.storyCollection.items.length).toBeGreaterThan(0);
      expect((await get({ extensions: apq(listQuery), access_token: key })).status).toBe(200);
      // the text of a registered document runs as well
      expect((await t.json('/graphql', { token, body: { query: listQuery } })).body.data.storyCollection.total).toBeGreaterThan(0);
      // preview (editors' tools) runs anything
      expect((await t.json('/graphql', { token: previewToken, body: { query: '{ __typename }' } })).body.data).toEqual({ __typename: 'Query' });

      // another org cannot list or delete them; deleting makes the id unknown (within the 5-s cache)
      expect((await m('/persisted-documents/titles-v1', { method: 'DELETE' }, other.manageToken)).status).toBe(404);
      expect((await m('/persisted-documents/titles-v1', { method: 'DELETE' })).status).toBe(200);
      expect((await m('/persisted-documents/titles-v1', { method: 'DELETE' })).status).toBe(404);
      expect((await m('/persisted-documents', {}, other.manageToken)).body.resultInfo.totalCount).toBe(0);
      await m('/delivery-settings', { method: 'PATCH', body: { trustedDocuments: false } });
    });
  });
});
