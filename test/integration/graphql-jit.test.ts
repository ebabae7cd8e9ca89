import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestApp, type TestApp } from '../support/harness.js';
import { doc, para, setupOrg, type GqlOrg, startReferenceServer } from './graphql-support.js';

/**
 * A repeated document without variables runs as a function graphql-jit compiled
 * (api/graphql/use-jit.ts). Its answers must be graphql-js's: each document goes to a server
 * that never compiles, then twice to the app (interpreted, then compiled), and all three
 * answers must be identical; the app's counters show the second one ran compiled.
 */
let app: TestApp;
let o: GqlOrg;
let reference: Awaited<ReturnType<typeof startReferenceServer>>;

beforeAll(async () => {
  app = await startTestApp({ workers: false });
  o = await setupOrg(app);
  await o.m('PUT', '/models/story', {
    titleField: 'title',
    fields: [
      { alias: 'title', type: 'text' },
      { alias: 'views', type: 'number' },
      { alias: 'link', type: 'reference', allowedModels: ['story'] },
      { alias: 'body', type: 'richcontent' },
    ],
  });
  const story = (id: string, fields: Record<string, unknown>) => o.m('PUT', `/entries/${id}`, { model: 'story', siteId: o.siteId, fields, status: 'PUBLISHED' });
  await story('s1', { title: 'Alpha', views: 3, body: doc(para('Hello <world>')) });
  await story('s2', { title: 'Beta', views: 1, link: 's1' });
  await story('s3', { title: 'Gamma', views: 2, link: 's2' });
  reference = await startReferenceServer(app, { fastLane: false, jitAfter: Number.POSITIVE_INFINITY });
});

afterAll(async () => {
  await reference?.close();
  await app?.close();
});

const documents: Array<[string, string]> = [
  ['one entry with its reference', '{ story(id: "s3") { id title views link { id title link { id } } } }'],
  ['a filtered, ordered page with total', '{ storyCollection(where: {title: {contains: "a"}}, order: {views: DESC}, limit: 2) { total continuationToken items { id title } } }'],
  ['the generic collection with fragments', '{ entryCollection(limit: 5) { total items { __typename id system { modelAlias publishedAt } ... on Story { title views } } } }'],
  ['reverse relations', '{ story(id: "s1") { id relations { storyCollection { total items { id } } } } }'],
  ['rich content', '{ story(id: "s1") { body { type text } body_v2 { blocks { type text contentHTML } } } }'],
  ['aliases and directives', '{ a: story(id: "s1") { t: title v: views @skip(if: true) } b: story(id: "nope") { id } }'],
  ['an error from a resolver', '{ storyCollection(continuationToken: "tampered") { items { id } } }'],
  ['introspection', '{ __type(name: "Story") { name fields { name type { name kind } } } }'],
];

async function post(base: string, query: string, id: string) {
  const res = await fetch(`${base}/graphql`, {
    method: 'POST',
    headers: { 'content-type': 'application/json', authorization: `Bearer ${o.delivery}`, 'x-request-id': id },
    body: JSON.stringify({ query }),
  });
  return { status: res.status, body: await res.text() };
}

describe('compiled execution (graphql-jit)', () => {
  it.each(documents)('%s: the compiled answer is the interpreted one', async (_name, query) => {
    const stats = app.graphql.jitStats;
    const id = `jit-${Math.random().toString(36).slice(2)}`;
    const expected = await post(reference.url, query, id);
    const before = stats.executed;
    const interpreted = await post(app.baseUrl, query, id);
    expect(stats.executed).toBe(before);
    const compiled = await post(app.baseUrl, query, id);
    expect(stats.executed).toBe(before + 1);
    expect(interpreted).toEqual(expected);
    expect(compiled).toEqual(expected);
  });

  it('never compiles a document that declares variables', async () => {
    const stats = app.graphql.jitStats;
    const before = { ...stats };
    for (let i = 0; i < 3; i++) expect(await o.d('query($id: String) { story(id: $id) { id } }', { id: 's1' })).toEqual({ story: { id: 's1' } });
    expect(stats).toEqual(before);
  });
});
