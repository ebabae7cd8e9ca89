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
});
