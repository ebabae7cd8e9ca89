import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestApp, type TestApp } from '../support/harness.js';
import { setupOrg, type GqlOrg, startReferenceServer } from './graphql-support.js';

/**
 * The fast lane (api/graphql/fast-lane.ts) must answer exactly as yoga does. Every request here
 * goes both to the app (fast lane on) and to a yoga-only server over the same services; status,
 * headers and body must match, and the lane's counters show which requests it answered itself,
 * which it handed to yoga after reading them, and which it never took.
 */
let app: TestApp;
let o: GqlOrg;
let other: GqlOrg;
let reference: Awaited<ReturnType<typeof startReferenceServer>>;

beforeAll(async () => {
  app = await startTestApp({ workers: false });
  [o, other] = await Promise.all([setupOrg(app), setupOrg(app)]);
  const model = { titleField: 'title', fields: [{ alias: 'title', type: 'text' }, { alias: 'views', type: 'number' }] };
  await Promise.all([o.m('PUT', '/models/story', model), other.m('PUT', '/models/story', model)]);
  await o.m('PUT', '/entries/pub', { model: 'story', siteId: o.siteId, fields: { title: 'Published', views: 1 }, status: 'PUBLISHED' });
  reference = await startReferenceServer(app, { fastLane: false });
});

afterAll(async () => {
  await reference?.close();
  await app?.close();
});

type Lane = 'answered' | 'handedOver' | 'not taken';

interface Case {
  name: string;
  body: string;
  headers?: Record<string, string>;
  method?: string;
  token?: 'delivery' | 'other' | 'manage' | 'bogus' | 'none';
  lane: Lane;
  status: number;
}

const json = (v: unknown) => JSON.stringify(v);
const ok = (query: string, extra: Record<string, unknown> = {}) => json({ query, ...extra });
const STORY = '{ story(id: "pub") { id title views } }';

const cases: Case[] = [
  { name: 'a query, no Accept', body: ok(STORY), lane: 'answered', status: 200 },
  { name: 'Accept */*', body: ok(STORY), headers: { accept: '*/*' }, lane: 'answered', status: 200 },
  { name: 'Accept application/json', body: ok(STORY), headers: { accept: 'application/json' }, lane: 'answered', status: 200 },
  { name: 'Accept graphql-response+json', body: ok(STORY), headers: { accept: 'application/graphql-response+json' }, lane: 'answered', status: 200 },
  { name: "graphql-request's Accept", body: ok(STORY), headers: { accept: 'application/graphql-response+json, application/json' }, lane: 'answered', status: 200 },
  { name: "Apollo Client's Accept", body: ok(STORY), headers: { accept: 'application/graphql-response+json,application/json;q=0.9' }, lane: 'answered', status: 200 },
  { name: 'Accept application/json with charset', body: ok(STORY), headers: { accept: 'application/json; charset=utf-8' }, lane: 'answered', status: 200 },
  { name: 'Accept graphql-response+json with charset', body: ok(STORY), headers: { accept: 'application/graphql-response+json; charset=utf-8' }, lane: 'answered', status: 200 },
  {
    name: 'both JSON types with charsets',
    body: ok(STORY),
    headers: { accept: 'application/graphql-response+json; charset=utf-8, application/json; charset=utf-8' },
    lane: 'answered',
    status: 200,
  },
  { name: 'both JSON types, JSON first (negotiated)', body: ok(STORY), headers: { accept: 'application/json, application/graphql-response+json' }, lane: 'answered', status: 200 },
  { name: 'an Accept the lane leaves to yoga (a stream)', body: ok(STORY), headers: { accept: 'text/event-stream' }, lane: 'not taken', status: 200 },
  { name: 'charset in Content-Type', body: ok(STORY), headers: { 'content-type': 'application/json; charset=utf-8' }, lane: 'answered', status: 200 },
  {
    name: 'variables and operationName',
    body: ok('query A($id: String) { story(id: $id) { id } } query B { storyCollection { total } }', { variables: { id: 'pub' }, operationName: 'A' }),
    lane: 'answered',
    status: 200,
  },
  { name: "another org's token", body: ok(STORY), token: 'other', lane: 'answered', status: 200 },
  { name: 'a missing variable (execution error), JSON', body: ok('query($id: String!) { story(id: $id) { id } }'), lane: 'answered', status: 400 },
  {
    name: 'a missing variable (execution error), graphql-response+json',
    body: ok('query($id: String!) { story(id: $id) { id } }'),
    headers: { accept: 'application/graphql-response+json' },
    lane: 'answered',
    status: 400,
  },
  { name: 'a limit over the maximum', body: ok('{ storyCollection(limit: 100000) { total } }'), lane: 'answered', status: 200 },
  { name: 'a parse error', body: ok('{ story('), lane: 'handedOver', status: 200 },
  { name: 'a parse error, graphql-response+json', body: ok('{ story('), headers: { accept: 'application/graphql-response+json' }, lane: 'handedOver', status: 400 },
  { name: 'a validation error', body: ok('{ nope }'), lane: 'handedOver', status: 200 },
  { name: 'a validation error, graphql-response+json', body: ok('{ nope }'), headers: { accept: 'application/graphql-response+json' }, lane: 'handedOver', status: 400 },
  { name: 'an unknown operationName', body: ok(STORY, { operationName: 'Nope' }), lane: 'handedOver', status: 400 },
  { name: 'a bogus token', body: ok(STORY), token: 'bogus', lane: 'handedOver', status: 401 },
  { name: 'no token', body: ok(STORY), token: 'none', lane: 'handedOver', status: 401 },
  { name: 'a token without a delivery scope', body: ok(STORY), token: 'manage', lane: 'handedOver', status: 403 },
  { name: 'an unknown parameter', body: ok(STORY, { foo: 1 }), lane: 'handedOver', status: 400 },
  { name: 'extensions without a persisted query', body: ok(STORY, { extensions: { a: 1 } }), lane: 'answered', status: 200 },
  { name: 'an unknown persisted-query hash', body: json({ extensions: { persistedQuery: { version: 1, sha256Hash: '0'.repeat(64) } } }), lane: 'answered', status: 200 },
  { name: 'a persisted-query hash that is not the text\'s', body: ok(STORY, { extensions: { persistedQuery: { version: 1, sha256Hash: '0'.repeat(64) } } }), lane: 'answered', status: 400 },
  { name: 'a persisted query of an unknown version', body: json({ extensions: { persistedQuery: { version: 3, sha256Hash: '0'.repeat(64) } } }), lane: 'answered', status: 400 },
  { name: 'malformed JSON', body: '{"query": ', lane: 'handedOver', status: 400 },
  { name: 'variables as a list', body: ok(STORY, { variables: [1] }), lane: 'handedOver', status: 400 },
  { name: 'query not a string', body: json({ query: 42 }), lane: 'handedOver', status: 400 },
  { name: 'a JSON array body', body: json([{ query: STORY }]), lane: 'handedOver', status: 400 },
  { name: 'text/plain', body: ok(STORY), headers: { 'content-type': 'text/plain' }, lane: 'not taken', status: 415 },
];

// Headers that differ between any two answers.
const VOLATILE = new Set(['date', 'connection', 'keep-alive', 'x-request-id', 'ratelimit-remaining', 'ratelimit-reset', 'transfer-encoding']);

async function call(base: string, c: Case, requestId: string) {
  const tokens = { delivery: o.delivery, other: other.delivery, manage: o.manage, bogus: 'folio_bogus_token_0000000000', none: '' };
  const token = tokens[c.token ?? 'delivery'];
  const res = await fetch(`${base}/graphql`, {
    method: c.method ?? 'POST',
    headers: { 'content-type': 'application/json', 'x-request-id': requestId, ...(token ? { authorization: `Bearer ${token}` } : {}), ...c.headers },
    body: c.body,
  });
  const headers = Object.fromEntries([...res.headers].filter(([k]) => !VOLATILE.has(k)));
  return { status: res.status, headers, body: await res.text() };
}

describe('the GraphQL fast lane', () => {
  it.each(cases)('$name: answered as yoga answers it', async (c) => {
    const stats = app.graphql.fastLaneStats;
    const before = { ...stats };
    const id = `fast-lane-${Math.random().toString(36).slice(2)}`;
    const fast = await call(app.baseUrl, c, id);
    const lane: Lane = stats.answered > before.answered ? 'answered' : stats.handedOver > before.handedOver ? 'handedOver' : 'not taken';
    const viaYoga = await call(reference.url, c, id);
    expect({ lane, status: fast.status }).toEqual({ lane: c.lane, status: c.status });
    expect(fast.headers).toEqual(viaYoga.headers);
    expect(fast.body).toEqual(viaYoga.body);
  });

  it("answers another org's id as absent, and the org's own id in full", async () => {
    const stats = app.graphql.fastLaneStats;
    const answered = stats.answered;
    expect(await other.q(STORY)).toMatchObject({ status: 200, body: { data: { story: null } } });
    expect(await o.q(STORY)).toMatchObject({ status: 200, body: { data: { story: { id: 'pub', title: 'Published', views: 1 } } } });
    expect(stats.answered).toBe(answered + 2);
  });

  it('takes no body over the limit: yoga refuses it with 413', async () => {
    const stats = app.graphql.fastLaneStats;
    const before = { ...stats };
    const big = ok(STORY, { variables: { pad: 'x'.repeat(app.services.config.limits.bodyBytes) } });
    const res = await fetch(`${app.baseUrl}/graphql`, { method: 'POST', headers: { 'content-type': 'application/json', authorization: `Bearer ${o.delivery}` }, body: big });
    expect(res.status).toBe(413);
    expect(stats).toEqual(before);
  });
});
