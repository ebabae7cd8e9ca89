import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { freePort } from '../support/free-port.js';
import { startTestApp, type TestApp, type TestOrg } from '../support/harness.js';
import { createPostgresCluster, type PostgresCluster } from '../support/postgres-cluster.js';
import { createRedisProcess, type RedisProcess } from '../support/redis-process.js';
import { createAnalyticsOrg, createDistribution, pushLogs } from './ingest-support.js';

/**
 * A dependency that goes away answers 503 with Retry-After (REST envelope, GraphQL
 * SERVICE_UNAVAILABLE), never 500, and what does not need it keeps working. The production
 * adapters on a Postgres and a Redis of this test's own, stopped for real.
 */
const production = Boolean(process.env.DATABASE_URL && process.env.REDIS_URL);

describe.runIf(production)('Postgres stopped', () => {
  let cluster: PostgresCluster;
  let app: TestApp;
  let org: TestOrg;
  let delivery: string;
  let analytics: string;

  beforeAll(async () => {
    cluster = createPostgresCluster(await freePort());
    app = await startTestApp({ env: { DATABASE_URL: cluster.url, TOKEN_CACHE_TTL_MS: '0' } });
    org = await app.createOrg();
    delivery = await app.createToken(org.manageToken, ['delivery']);
    analytics = await app.createToken(org.manageToken, ['analytics']);
    for (const code of ['en', 'de']) expect((await app.json('/management/v1/locales', { method: 'POST', token: org.manageToken, body: { code } })).status).toBe(201);
  }, 120_000);
  afterAll(async () => {
    await app?.close().catch(() => undefined);
    cluster?.destroy();
  });

  it('REST and GraphQL answer 503 with Retry-After while it is down, and work again once it is back', async () => {
    cluster.stopFast();
    try {
      const rest = await app.json('/management/v1/models', { token: org.manageToken });
      expect(rest.status).toBe(503);
      expect(rest.headers.get('retry-after')).toMatch(/^\d+$/);
      expect(rest.body).toEqual({ success: false, errors: [expect.stringMatching(/unavailable/)], messages: [], result: null, resultInfo: null });
      const gql = await app.json('/graphql', { token: delivery, body: { query: '{ entryCollection { total } }' } });
      expect(gql.status).toBe(503);
      expect(gql.headers.get('retry-after')).toMatch(/^\d+$/);
      expect(gql.body.errors[0].extensions.code).toBe('SERVICE_UNAVAILABLE');
      expect(JSON.stringify(gql.body)).not.toContain('"http"');
      const localized = await app.json('/graphql', { token: delivery, body: { query: '{ entryCollection(locale: "de") { total } }' } });
      expect(localized.status).toBe(503);
      expect(localized.body.errors[0].extensions.code).toBe('SERVICE_UNAVAILABLE');
      // the locale routes and the listing in a locale
      for (const [method, path, body] of [
        ['GET', '/locales', undefined],
        ['POST', '/locales', { code: 'fr' }],
        ['GET', '/locales/de', undefined],
        ['PATCH', '/locales/de', { name: 'Deutsch' }],
        ['DELETE', '/locales/de', undefined],
        ['GET', '/entries?locale=de', undefined],
        ['GET', '/analytics-settings', undefined],
        ['PUT', '/analytics-settings', { clientIps: 'none' }],
        ['GET', '/sites/any/url-patterns', undefined],
        ['PUT', '/sites/any/url-patterns', { patterns: [{ pattern: '/a/{slug}' }] }],
      ] as const) {
        const res = await app.json(`/management/v1${path}`, { method, token: org.manageToken, body });
        expect(res.status, `${method} ${path}`).toBe(503);
        expect(res.body, `${method} ${path}`).toMatchObject({ success: false, errors: [expect.stringMatching(/unavailable/)] });
      }
      // the projects an analytics token reports on (the dashboard's choice)
      const projects = await app.json('/api/v1/projects', { token: analytics });
      expect(projects.status).toBe(503);
      expect(projects.body).toMatchObject({ success: false, errors: [expect.stringMatching(/unavailable/)] });
      // the streamed routes answer the same before they stream
      const exported = await app.json('/management/v1/export', { token: org.manageToken });
      expect(exported.status).toBe(503);
      expect(exported.body).toMatchObject({ success: false, errors: [expect.stringMatching(/unavailable/)] });
      const imported = await app.json('/management/v1/import', {
        method: 'POST',
        token: org.manageToken,
        rawBody: '{"type": "site", "name": "Down"}\n',
        headers: { 'content-type': 'application/x-ndjson' },
      });
      expect(imported.status).toBe(503);
      expect(imported.body).toMatchObject({ success: false, errors: [expect.stringMatching(/unavailable/)] });
    } finally {
      cluster.start();
    }
    let back = 0;
    for (let i = 0; i < 40 && back !== 200; i++) {
      back = (await app.json('/management/v1/models', { token: org.manageToken })).status;
      if (back !== 200) await new Promise((r) => setTimeout(r, 100));
    }
    expect(back).toBe(200);
  }, 60_000);
});

describe.runIf(production)('Redis stopped', () => {
  let redis: RedisProcess;
  let app: TestApp;

  beforeAll(async () => {
    redis = createRedisProcess(await freePort());
    await redis.start();
    // The harness's generous limits would never consult the bucket's edge; a real one here.
    app = await startTestApp({ env: { REDIS_URL: redis.url, RATE_LIMIT_PER_SECOND: '50', RATE_LIMIT_BURST: '200' } });
  }, 60_000);
  afterAll(async () => {
    // Closing while Redis is away is bounded: each step of the queue's close waits at most 2 s.
    await app?.close();
    await redis?.stop();
  });

  it('tokens from the cache, the rate limit (from memory, counted) and ingest keep working', async () => {
    const org = await createAnalyticsOrg(app);
    await createDistribution(app, org, 'edge');
    const delivery = await app.createToken(org.manageToken, ['delivery']);
    // each token is looked up once while Redis is up, so it is in this instance's cache
    expect((await app.json('/management/v1/models', { token: org.manageToken })).status).toBe(200);
    expect((await app.json('/graphql', { token: delivery, body: { query: '{ __typename }' } })).status).toBe(200);
    expect((await pushLogs(app, org.ingestToken, 'edge', '')).status).toBe(400);
    await redis.stop();

    const rest = await app.json('/management/v1/models', { token: org.manageToken });
    expect(rest.status).toBe(200);
    expect(rest.headers.get('ratelimit-limit')).toBe('200');
    const gql = await app.json('/graphql', { token: delivery, body: { query: '{ __typename }' } });
    expect(gql.status).toBe(200);
    const line = JSON.stringify({ timestamp: new Date().toISOString(), clientIp: '203.0.113.1', method: 'GET', host: 'h', path: '/x', status: 200, bytes: 1, serveTimeMs: 1 });
    const ingest = await pushLogs(app, org.ingestToken, 'edge', line);
    expect(ingest.status).toBe(200);
    expect(ingest.body.result.accepted).toBe(1);
    const metrics = await app.services.metrics.registry.getSingleMetric('folio_rate_limit_fail_open_total')!.get();
    expect(metrics.values[0].value).toBeGreaterThanOrEqual(3);
  }, 60_000);
});
