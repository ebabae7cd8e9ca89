import { get } from 'node:http';
import { brotliDecompressSync, gunzipSync } from 'node:zlib';
import { serverAudits } from 'graphql-http';
import { GraphQLClient } from 'graphql-request';
import type { TypedDocumentNode } from '@graphql-typed-document-node/core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { parse } from 'graphql';
import { startTestApp, type TestApp } from '../support/harness.js';
import { setupOrg, type GqlOrg } from './graphql-support.js';

/** GraphQL over HTTP conformance (graphql-http audits) and a real client running a typed query. */
let app: TestApp;
let o: GqlOrg;

beforeAll(async () => {
  app = await startTestApp({ workers: false });
  o = await setupOrg(app);
  await o.m('PUT', '/models/post', { titleField: 'title', fields: [{ alias: 'title', type: 'text' }, { alias: 'views', type: 'number' }] });
  await o.m('PUT', '/entries/p1', { model: 'post', siteId: o.siteId, fields: { title: 'Hello', views: 7 }, status: 'PUBLISHED' });
});

afterAll(async () => {
  await app?.close();
});

describe('graphql-http audits', () => {
  const audits = serverAudits({
    url: () => `${app.baseUrl}/graphql`,
    fetchFn: (input: RequestInfo | URL, init?: RequestInit) => {
      const headers = new Headers(init?.headers);
      headers.set('authorization', `Bearer ${o.delivery}`);
      return fetch(input, { ...init, headers });
    },
  });
  for (const audit of audits) {
    it(`${audit.id} ${audit.name}`, async () => {
      const result = await audit.fn();
      // MUST audits must pass; SHOULD/MAY audits may warn but never error.
      expect(result.status === 'error' ? `${result.status}: ${result.reason}` : 'ok').toBe('ok');
      if (audit.name.startsWith('MUST')) expect(result.status, result.status === 'ok' ? '' : result.reason).toBe('ok');
    });
  }
});

describe('a real client', () => {
  interface PostsQuery {
    postCollection: { total: number; items: Array<{ id: string; title: string; views: number }> };
  }
  interface PostsVariables {
    min: number;
  }
  const POSTS = parse(`
    query Posts($min: Int!) {
      postCollection(where: { views: { gte: $min } }) {
        total
        items {
          id
          title
          views
        }
      }
    }
  `) as TypedDocumentNode<PostsQuery, PostsVariables>;

  it('graphql-request runs a typed query with a bearer token', async () => {
    const client = new GraphQLClient(`${app.baseUrl}/graphql`, { headers: { authorization: `Bearer ${o.delivery}` } });
    const data = await client.request(POSTS, { min: 5 });
    expect(data.postCollection).toEqual({ total: 1, items: [{ id: 'p1', title: 'Hello', views: 7 }] });
    const none = await client.request(POSTS, { min: 8 });
    expect(none.postCollection.total).toBe(0);
  });

  it('graphql-request surfaces error codes', async () => {
    const client = new GraphQLClient(`${app.baseUrl}/graphql`, { headers: { authorization: 'Bearer folio_bad' } });
    await expect(client.request(POSTS, { min: 1 })).rejects.toMatchObject({ response: { status: 401 } });
  });

  it('serves GraphiQL from bundled assets to browsers', async () => {
    const res = await app.fetch('/graphql', { headers: { accept: 'text/html' } });
    expect(res.status).toBe(200);
    const html = await res.text();
    expect(html).toMatch(/graphiql/i);
    expect(html).not.toMatch(/<script[^>]+src="https?:/);
    expect(html).not.toMatch(/<link[^>]+href="https?:/);
  });

  it('GraphiQL says where the token goes, and is sent compressed (9 MB of HTML otherwise)', async () => {
    const plain = await app.fetch('/graphql', { headers: { accept: 'text/html', 'accept-encoding': 'identity' } });
    const html = await plain.text();
    expect(html.length).toBeGreaterThan(5_000_000);
    expect(html).toContain('replace <delivery or preview token> with a token');
    for (const encoding of ['br', 'gzip']) {
      // node's fetch would decode the body: read the raw bytes over http
      const raw = await new Promise<{ headers: Record<string, unknown>; bytes: Buffer }>((resolve, reject) => {
        get(`${app.baseUrl}/graphql`, { headers: { accept: 'text/html', 'accept-encoding': `${encoding}, deflate` } }, (res) => {
          const chunks: Buffer[] = [];
          res.on('data', (c: Buffer) => chunks.push(c));
          res.on('end', () => resolve({ headers: res.headers, bytes: Buffer.concat(chunks) }));
        }).on('error', reject);
      });
      expect(raw.headers['content-encoding']).toBe(encoding);
      expect(raw.headers.vary).toMatch(/Accept-Encoding/i);
      expect(raw.bytes.length).toBeLessThan(html.length / 3);
      const decoded = encoding === 'br' ? brotliDecompressSync(raw.bytes) : gunzipSync(raw.bytes);
      expect(decoded.toString()).toBe(html);
    }
  }, 60_000);
});

describe('request body limit (BODY_LIMIT_BYTES)', () => {
  // 1 MiB by default, as for REST bodies; read from the Content-Length header when there is one,
  // counted while streaming when there is none.
  const limit = 1_048_576;
  const post = (body: BodyInit, headers: Record<string, string> = {}) =>
    fetch(`${app.baseUrl}/graphql`, {
      method: 'POST',
      headers: { 'content-type': 'application/json', authorization: `Bearer ${o.delivery}`, ...headers },
      body,
      duplex: 'half',
    } as RequestInit & { duplex: 'half' });
  // a valid request padded with an unused variable to the wanted size
  const padded = (size: number) => {
    const head = '{"query":"{ postCollection { total } }","variables":{"pad":"';
    const tail = '"}}';
    return head + 'x'.repeat(size - head.length - tail.length) + tail;
  };
  const chunked = (text: string) => {
    const bytes = new TextEncoder().encode(text);
    return new ReadableStream<Uint8Array>({
      start(controller) {
        for (let i = 0; i < bytes.length; i += 16_384) controller.enqueue(bytes.subarray(i, i + 16_384));
        controller.close();
      },
    });
  };

  it('answers a body at the limit, with Content-Length or chunked', async () => {
    for (const body of [padded(limit), chunked(padded(limit))]) {
      const res = await post(body);
      expect(res.status).toBe(200);
      expect(await res.json()).toMatchObject({ data: { postCollection: { total: 1 } } });
    }
  });

  it('refuses a larger body with 413 and REQUEST_ENTITY_TOO_LARGE, announced or streamed', async () => {
    for (const body of [padded(limit + 1), chunked(padded(limit + 50_000))]) {
      const res = await post(body);
      expect(res.status).toBe(413);
      const json = (await res.json()) as { errors: Array<{ message: string; extensions: { code: string } }> };
      expect(json.errors[0].extensions.code).toBe('REQUEST_ENTITY_TOO_LARGE');
      expect(json.errors[0].message).toContain(String(limit));
    }
  });
});
