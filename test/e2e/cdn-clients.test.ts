import { createHash } from 'node:crypto';
import { readFile } from 'node:fs/promises';
import { ApolloClient, ApolloLink, HttpLink, InMemoryCache, gql } from '@apollo/client';
import { PersistedQueryLink } from '@apollo/client/link/persisted-queries';
import { Client as UrqlClient, fetchExchange } from '@urql/core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestApp, type TestApp, type TestOrg } from '../support/harness.js';
import { hasPurgeModule, NGINX, PURGE_MODULE, purgeableCache, startNginx, type Nginx } from '../support/nginx.js';

/**
 * The edge end to end with the clients sites use, behind nginx configured as the README says
 * (cache key with the Accept class and Origin, purge module, a `{path}` purge target): Apollo
 * Client (automatic persisted queries over GET), urql (GET) and a plain `fetch` of a registered
 * document. Each client's GET is a MISS, then a HIT; then 20 changes in a row — the same entry
 * published again and again, the asset changed, and last deleted — and after each, every client's
 * next requests show the change within 2 s (and the deleted image's AVIF and WebP copies are gone).
 */
if (!hasPurgeModule) console.warn(`skipping the CDN clients test: no ${NGINX} or ${PURGE_MODULE}`);

const FRESH_WITHIN_MS = 2000;
const ROUNDS = 20;
/** The whole loop's bound: 20 rounds of at most a few seconds each. */
const LOOP_BOUND_MS = 120_000;

const sha256 = (text: string) => createHash('sha256').update(text).digest('hex');

interface Seen {
  url: string;
  method: string;
  cache: string | null;
}

describe.runIf(hasPurgeModule)('Apollo Client, urql and fetch behind nginx', () => {
  let app: TestApp;
  let org: TestOrg;
  let nginx: Nginx;
  const m = (p: string, o: { method?: string; body?: unknown } = {}) => app.json(`/management/v1${p}`, { token: org.manageToken, ...o });

  beforeAll(async () => {
    app = await startTestApp({ ownDatabase: true, env: { WEBHOOK_DISPATCH: 'true', WEBHOOK_ALLOW_PRIVATE_TARGETS: 'true', WEBHOOK_RETRY_SCHEDULE: '0.2,0.5,1' } });
    org = await app.createOrg();
    nginx = await startNginx({ modules: [PURGE_MODULE], ...purgeableCache(app.baseUrl) });
  }, 180_000);

  afterAll(async () => {
    await nginx?.stop();
    await app?.close();
  });

  /** A fetch that notes each request's URL, method and nginx's cache status, for `client`. */
  function observed(seen: Seen[]): typeof fetch {
    return async (input, init) => {
      const res = await fetch(input, init);
      seen.push({ url: String(input), method: init?.method ?? 'GET', cache: res.headers.get('x-cdn-cache') });
      return res;
    };
  }

  it('each client\'s GET is a HIT the second time, and after each of 20 changes every client sees it within 2 s', async () => {
    expect((await m('/models/story', { method: 'PUT', body: { titleField: 'title', fields: [{ alias: 'title', type: 'text', required: true }] } })).status).toBe(201);
    const site = (await m('/sites', { body: { name: 'Web' } })).body.result.id as string;
    const story = (await m('/entries', { body: { model: 'story', siteId: site, slug: 'front', fields: { title: 'Entry 0' } } })).body.result.id as string;
    expect((await m(`/entries/${story}/publish`, { method: 'POST' })).status).toBe(200);
    const image = await readFile(new URL('../fixtures/images/goldfish.png', import.meta.url));
    const uploaded = await app.json('/management/v1/assets?fileName=f.png', { method: 'POST', token: org.manageToken, rawBody: new Uint8Array(image), headers: { 'content-type': 'image/png' } });
    const asset = uploaded.body.result.id as string;
    expect((await m(`/assets/${asset}`, { method: 'PATCH', body: { title: 'Asset 0' } })).status).toBe(200);
    const key = (await m('/tokens', { body: { name: 'site', scopes: ['delivery'], publishable: true } })).body.result.token as string;
    const target = await m('/purge-targets', { body: { provider: 'http', method: 'PURGE', url: `${nginx.url}/purge{path}` } });
    expect(target.status, JSON.stringify(target.body)).toBe(201);

    const text = `query Front { story(id: "${story}") { title } cmsAsset(id: "${asset}") { title } }`;
    const endpoint = `${nginx.url}/graphql?access_token=${key}`;
    const seen: Record<'apollo' | 'urql' | 'fetch', Seen[]> = { apollo: [], urql: [], fetch: [] };

    // Apollo Client: automatic persisted queries, hashed queries over GET
    const apolloOf = (uri: string, fetchFn: typeof fetch) =>
      new ApolloClient({
        cache: new InMemoryCache(),
        link: ApolloLink.from([new PersistedQueryLink({ sha256, useGETForHashedQueries: true }), new HttpLink({ uri, fetch: fetchFn })]),
      });
    const apollo = apolloOf(endpoint, observed(seen.apollo));
    const document = gql(text);
    // Another visitor's Apollo (to the origin) registered the hash: the protocol's first round trip.
    await apolloOf(`${app.baseUrl}/graphql?access_token=${key}`, fetch).query({ query: document, fetchPolicy: 'network-only' });
    // urql: the query over GET
    const urql = new UrqlClient({ url: endpoint, exchanges: [fetchExchange], preferGetMethod: 'force', requestPolicy: 'network-only', fetch: observed(seen.urql) });
    // fetch: a registered document by id, with fetch's default Accept
    expect((await m('/persisted-documents', { method: 'POST', body: { [sha256(text)]: text } })).status).toBe(201);
    const fetchUrl = `${nginx.url}/graphql?documentId=${sha256(text)}&access_token=${key}`;
    const plainFetch = observed(seen.fetch);

    type Front = { story: { title: string } | null; cmsAsset: { title: string } | null };
    const clients: Record<keyof typeof seen, () => Promise<Front>> = {
      apollo: async () => {
        const r = await apollo.query<Front>({ query: document, fetchPolicy: 'network-only' });
        if (!r.data) throw new Error(`Apollo: ${JSON.stringify(r.error)}`);
        return r.data;
      },
      urql: async () => {
        const r = await urql.query<Front>(text, {}).toPromise();
        if (!r.data) throw new Error(`urql: ${r.error?.message}`);
        return r.data;
      },
      fetch: async () => ((await (await plainFetch(fetchUrl)).json()) as { data: Front }).data,
    };

    // Each client's GET: MISS, then HIT, with the same URL and method.
    for (const [name, query] of Object.entries(clients) as [keyof typeof seen, () => Promise<Front>][]) {
      expect(await query()).toMatchObject({ story: { title: 'Entry 0' }, cmsAsset: { title: 'Asset 0' } });
      expect(await query()).toMatchObject({ story: { title: 'Entry 0' }, cmsAsset: { title: 'Asset 0' } });
      const [first, second] = seen[name].slice(-2);
      expect([first.method, second.method, second.url === first.url, first.cache, second.cache], name).toEqual(['GET', 'GET', true, 'MISS', 'HIT']);
    }
    expect(new URL(seen.apollo[0].url).searchParams.get('extensions')).toContain('sha256Hash');
    expect(new URL(seen.apollo[0].url).searchParams.get('query')).toBeNull();

    // the image of the asset, as browsers ask for it: AVIF and WebP copies
    const imageUrl = (await app.json('/graphql', { token: key, body: { query: `{ cmsAsset(id: "${asset}") { url(transformation: {width: 40, imageFormat: AUTO}) } }` } })).body.data.cmsAsset.url as string;
    const imagePath = new URL(imageUrl).pathname;
    const browsers = ['image/avif,image/webp,image/apng,image/svg+xml,image/*,*/*;q=0.8', 'image/webp,*/*'];
    for (const accept of browsers) {
      for (const expected of ['MISS', 'HIT']) {
        const res = await fetch(nginx.url + imagePath, { headers: { accept } });
        await res.arrayBuffer();
        expect([res.status, res.headers.get('x-cdn-cache')], accept).toEqual([200, expected]);
      }
    }

    const loopStarted = Date.now();
    const slowest: Record<string, number> = { apollo: 0, urql: 0, fetch: 0, image: 0 };
    let expected: Front = { story: { title: 'Entry 0' }, cmsAsset: { title: 'Asset 0' } };
    for (let round = 1; round <= ROUNDS; round++) {
      expect(Date.now() - loopStarted, 'the loop is bounded').toBeLessThan(LOOP_BOUND_MS);
      if (round === ROUNDS) {
        expect((await m(`/assets/${asset}`, { method: 'DELETE' })).status).toBe(200);
        expected = { ...expected, cmsAsset: null };
      } else if (round % 2 === 1) {
        expect((await m(`/entries/${story}`, { method: 'PATCH', body: { fields: { title: `Entry ${round}` } } })).status).toBe(200);
        expect((await m(`/entries/${story}/publish`, { method: 'POST' })).status).toBe(200);
        expected = { ...expected, story: { title: `Entry ${round}` } };
      } else {
        expect((await m(`/assets/${asset}`, { method: 'PATCH', body: { title: `Asset ${round}` } })).status).toBe(200);
        expected = { ...expected, cmsAsset: { title: `Asset ${round}` } };
      }
      const changed = Date.now();
      const waits = Object.entries(clients).map(async ([name, query]) => {
        for (;;) {
          const got = await query();
          const ms = Date.now() - changed;
          if (got.story?.title === expected.story?.title && (got.cmsAsset?.title ?? null) === (expected.cmsAsset?.title ?? null)) return [name, ms] as const;
          if (ms > FRESH_WITHIN_MS) throw new Error(`round ${round}: ${name} still answers ${JSON.stringify(got)} after ${ms} ms`);
          await new Promise((r) => setTimeout(r, 50));
        }
      });
      if (round === ROUNDS) {
        for (const accept of browsers) {
          waits.push(
            (async () => {
              for (;;) {
                const res = await fetch(nginx.url + imagePath, { headers: { accept } });
                await res.arrayBuffer();
                const ms = Date.now() - changed;
                if (res.status === 404) return ['image', ms] as const;
                if (ms > FRESH_WITHIN_MS) throw new Error(`the deleted image (${accept}) still answers ${res.status} ${res.headers.get('x-cdn-cache')} after ${ms} ms`);
                await new Promise((r) => setTimeout(r, 50));
              }
            })(),
          );
        }
      }
      for (const [name, ms] of await Promise.all(waits)) slowest[name] = Math.max(slowest[name], ms);
    }
    process.stdout.write(
      `\nCDN clients: ${ROUNDS} changes (entry publishes, asset updates, a delete) in ${Date.now() - loopStarted} ms; slowest fresh answer per client: ${JSON.stringify(slowest)} (bound ${FRESH_WITHIN_MS} ms)\n`,
    );
  }, 240_000);
});
