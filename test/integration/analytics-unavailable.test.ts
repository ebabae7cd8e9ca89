import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startClickHouseStub } from '../support/clickhouse-stub.js';
import { freePort } from '../support/free-port.js';
import { startTestApp, type TestApp } from '../support/harness.js';
import { setupOrg, type GqlOrg } from './graphql-support.js';
import { createAnalyticsOrg, createDistribution, ENDPOINTS, pushLogs, type AnalyticsOrg } from './ingest-support.js';

/**
 * Content delivery does not depend on analytics: with CLICKHOUSE_URL pointing at nothing (and
 * then at a server too old) the app starts and serves, reports analytics down, answers the
 * analytics endpoints 503 in the envelope and keeps spooling logs.
 */
let app: TestApp;
let port: number;
let content: GqlOrg;
let analytics: AnalyticsOrg;
const logs: string[] = [];

beforeAll(async () => {
  port = await freePort();
  app = await startTestApp({
    workers: false,
    env: { CLICKHOUSE_URL: `http://127.0.0.1:${port}`, LOG_LEVEL: 'info' },
    logDestination: { write: (line: string) => void logs.push(line) },
  });
  content = await setupOrg(app);
  await content.m('PUT', '/models/story', { titleField: 'title', fields: [{ alias: 'title', type: 'text' }] });
  await content.m('PUT', '/entries/s1', { model: 'story', siteId: content.siteId, fields: { title: 'One' }, status: 'PUBLISHED' });
  analytics = await createAnalyticsOrg(app);
  await createDistribution(app, analytics, 'edge');
}, 60_000);
afterAll(async () => app?.close());

const unavailableLines = () => logs.filter((l) => l.includes('analytics unavailable')).map((l) => JSON.parse(l).msg as string);

describe('ClickHouse unreachable', () => {
  it('GraphQL and REST serve; /readyz is 200 "degraded" naming analytics down', async () => {
    expect(await content.d('{ storyCollection { items { title } } }')).toEqual({ storyCollection: { items: [{ title: 'One' }] } });
    expect((await app.json('/management/v1/models', { token: content.manage })).status).toBe(200);
    const ready = await app.json('/readyz');
    expect(ready.status).toBe(200);
    expect(ready.body.status).toBe('degraded');
    const down = Object.entries(ready.body.dependencies).filter(([, d]) => (d as { state: string }).state === 'down').map(([name]) => name);
    expect(down).toEqual(['analytics (clickhouse)']);
  });

  it('analytics answers 503 with Retry-After in the envelope; ingest keeps spooling', async () => {
    for (const suffix of ENDPOINTS) {
      const res = await app.json(`/api/v1/projects/${analytics.projectId}/distributions/edge/analytics${suffix}`, { token: analytics.analyticsToken });
      expect(res.status, suffix).toBe(503);
      expect(res.headers.get('retry-after')).toBe('5');
      expect(res.body).toEqual({ success: false, errors: [expect.stringMatching(new RegExp(`^Analytics is unavailable: ClickHouse at 127\\.0\\.0\\.1:${port}: .*ECONNREFUSED`))], messages: [], result: null, resultInfo: null });
    }
    const line = JSON.stringify({ timestamp: new Date().toISOString(), clientIp: '203.0.113.1', method: 'GET', host: 'h', path: '/x', status: 200, bytes: 1, serveTimeMs: 1 });
    const pushed = await pushLogs(app, analytics.ingestToken, 'edge', line);
    expect(pushed.status).toBe(200);
    expect(pushed.body.result.accepted).toBe(1);
  });

  it('GraphQL traffic figures fail alone with SERVICE_UNAVAILABLE; the content is served to the same token', async () => {
    const token = await app.createToken(content.manage, ['delivery', 'analytics']);
    const field = await content.q('{ storyCollection { items { title system { traffic(from: "2026-01-01T00:00:00Z", to: "2026-01-02T00:00:00Z") { requests } } } } }', {}, token);
    expect(field.body.errors?.[0]).toMatchObject({ path: ['storyCollection', 'items', 0, 'system', 'traffic'], extensions: { code: 'SERVICE_UNAVAILABLE' } });
    expect(field.body.errors?.[0].message).toMatch(/^Analytics is unavailable: /);
    const order = await content.q('{ storyCollection(order: { system: { traffic: DESC } }) { items { title } } }', {}, token);
    expect(order.body.errors?.[0]).toMatchObject({ extensions: { code: 'SERVICE_UNAVAILABLE' } });
    expect(await content.d('{ storyCollection { items { title } } }', {}, token)).toEqual({ storyCollection: { items: [{ title: 'One' }] } });
  });

  it('logs the reason once, as one line', () => {
    expect(unavailableLines()).toEqual([expect.stringMatching(/^analytics unavailable: ClickHouse at 127\.0\.0\.1:\d+: .*ECONNREFUSED.* \(retrying with backoff; content delivery is not affected\)$/)]);
  });

  it('a server older than 22.8 is refused with one clear line, and analytics stays 503 saying why', async () => {
    const stub = await startClickHouseStub('21.8.15.7', port);
    try {
      const deadline = Date.now() + 20_000;
      while (unavailableLines().length < 2 && Date.now() < deadline) await new Promise((r) => setTimeout(r, 100));
      expect(unavailableLines()[1]).toMatch(/^analytics unavailable: ClickHouse at 127\.0\.0\.1:\d+: server version 21\.8\.15\.7 is older than 22\.8, the oldest Folio supports: upgrade it/);
      // nothing was created on it
      expect(stub.queries.some((q) => /CREATE/.test(q))).toBe(false);
      const res = await app.json(`/api/v1/projects/${analytics.projectId}/distributions/edge/analytics`, { token: analytics.analyticsToken });
      expect(res.status).toBe(503);
      expect(res.body.errors[0]).toContain('older than 22.8');
    } finally {
      await stub.close();
    }
  }, 30_000);
});
