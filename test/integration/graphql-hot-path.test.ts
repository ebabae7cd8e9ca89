import { pino } from 'pino';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { digestStats } from '../../api/graphql/persisted-query.js';
import { loaderStats } from '../../shared/delivery/loaders.js';
import { documentSha256 } from '../../shared/edge/persisted-document-repository.js';
import { batchedDestination, createLogger } from '../../shared/logger.js';
import { startTestApp, type TestApp } from '../support/harness.js';
import { setupOrg, type GqlOrg } from './graphql-support.js';

/**
 * Guards of the GraphQL delivery hot path: work that was done on every request and is now done
 * once per token, per document or per event-loop turn, or only when a request needs it, must stay
 * so (bench:graphql measures what it was worth).
 */
let app: TestApp;
let o: GqlOrg;

beforeAll(async () => {
  app = await startTestApp({ workers: false });
  o = await setupOrg(app);
  await o.m('PUT', '/models/story', { titleField: 'title', fields: [{ alias: 'title', type: 'text' }, { alias: 'views', type: 'number' }] });
  await o.m('PUT', '/entries/s1', { model: 'story', siteId: o.siteId, fields: { title: 'One', views: 1 }, status: 'PUBLISHED' });
});

afterAll(async () => {
  await app?.close();
});

const STORY = '{ story(id: "s1") { id title views } }';
const times = async (n: number, run: () => Promise<unknown>) => {
  for (let i = 0; i < n; i++) await run();
};

describe('the GraphQL hot path', () => {
  it('checks and hashes a token once, not on every request', async () => {
    await o.d(STORY);
    const before = app.services.auth.stats.hashed;
    await times(10, () => o.d(STORY));
    expect(app.services.auth.stats.hashed).toBe(before);
  });

  it("hashes a response-cache key once per document and scope without variables, a request's with variables each time", async () => {
    const query = '{ story(id: "s1") { id title } }';
    await o.d(query);
    const stats = app.graphql.responseCacheStats;
    const before = stats.keysHashed;
    await times(5, () => o.d(query));
    expect(stats.keysHashed).toBe(before);
    // the same document in another scope is another key
    await o.d(query, undefined, o.preview);
    expect(stats.keysHashed).toBe(before + 1);
    const withVariables = 'query ($id: String!) { story(id: $id) { id views } }';
    const start = stats.keysHashed;
    await times(3, () => o.d(withVariables, { id: 's1' }));
    expect(stats.keysHashed).toBe(start + 3);
  });

  it('makes no DataLoader for an answer from the response cache, and only those it reads through otherwise', async () => {
    const query = '{ story(id: "s1") { title } }';
    // cached from its second occurrence on, answered from the cache at the third
    await times(3, () => o.d(query));
    const before = loaderStats.made;
    await times(5, () => o.d(query));
    expect(loaderStats.made).toBe(before);
    // executing, with a variable each time (never cached): one entry read, one loader
    const executing = loaderStats.made;
    await o.d('query ($id: String!) { story(id: $id) { id } }', { id: `s1` });
    expect(loaderStats.made - executing).toBeLessThanOrEqual(2);
    expect(loaderStats.made - executing).toBeGreaterThan(0);
  });

  it('hashes a query text only when a hash comes with it, and then once per text', async () => {
    const before = digestStats.hashed;
    await times(3, () => o.d('{ story(id: "s1") { views } }'));
    expect(digestStats.hashed).toBe(before);
    const query = '{ story(id: "s1") { id views } }';
    const extensions = { persistedQuery: { version: 1, sha256Hash: documentSha256(query) } };
    await times(3, async () => {
      const res = await app.json('/graphql', { token: o.delivery, body: { query, extensions } });
      expect(res.body.errors).toBeUndefined();
    });
    expect(digestStats.hashed).toBe(before + 1);
  });
});

describe('the log destination of stdout', () => {
  it("writes one turn's lines together, after the turn, in their order", async () => {
    const writes: string[] = [];
    const destination = batchedDestination({ write: (text: string) => writes.push(text) });
    const logger = pino({ base: null, timestamp: false }, destination);
    for (let i = 0; i < 50; i++) logger.info({ i }, 'request completed');
    expect(writes).toEqual([]);
    await new Promise((resolve) => setImmediate(resolve));
    expect(writes).toHaveLength(1);
    const lines = writes[0].trim().split('\n').map((l) => JSON.parse(l) as { i: number; msg: string });
    expect(lines.map((l) => l.i)).toEqual(Array.from({ length: 50 }, (_, i) => i));
    logger.info({ i: 50 }, 'later');
    destination.flushSync();
    expect(writes).toHaveLength(2);
    expect(destination.stats.writes).toBe(2);
  });

  it('is what a logger without a destination writes to', () => {
    const logger = createLogger('silent');
    const stream = (logger as unknown as Record<symbol, unknown>)[pino.symbols.streamSym] as { stats?: { writes: number } };
    expect(stream.stats).toEqual({ writes: 0 });
  });
});
