import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { generateTraffic, ndjson, toCanonical } from '../fixtures/cdn-logs/traffic.js';
import { startTestApp, type TestApp } from '../support/harness.js';
import { createAnalyticsOrg, createDistribution, ENDPOINTS, pushLogs, waitForSpool, type AnalyticsOrg } from './ingest-support.js';

// Access rules and parameter validation of the five analytics endpoints.
describe('analytics endpoints: access and parameters', () => {
  let app: TestApp;
  let org: AnalyticsOrg;
  let other: AnalyticsOrg;
  let secondProject: string;
  const url = (projectId: string, distributionId: string, suffix = '', query = '') =>
    `/api/v1/projects/${projectId}/distributions/${distributionId}/analytics${suffix}${query}`;

  beforeAll(async () => {
    app = await startTestApp();
    org = await createAnalyticsOrg(app);
    other = await createAnalyticsOrg(app);
    await createDistribution(app, org, 'main');
    await createDistribution(app, other, 'theirs');
    const p = await app.json('/management/v1/projects', { token: org.manageToken, body: { name: 'Second' } });
    secondProject = p.body.result.id;
    const traffic = generateTraffic({ count: 20, startMs: Date.now() - 5 * 3_600_000, spanMs: 3_600_000, seed: 3 });
    await pushLogs(app, org.ingestToken, 'main', ndjson(traffic.map(toCanonical)));
    await waitForSpool(app, org.orgId);
  });
  afterAll(async () => {
    await app?.close();
  });

  it.each(ENDPOINTS)('analytics%s answers 200 in the envelope', async (suffix) => {
    const res = await app.json(url(org.projectId, 'main', suffix), { token: org.analyticsToken });
    expect(res.status).toBe(200);
    expect(res.body).toMatchObject({ success: true, errors: [], messages: [] });
    expect(res.body.result).toBeTypeOf('object');
  });

  it.each(ENDPOINTS)('analytics%s: 401 without a token, 403 without the scope', async (suffix) => {
    const none = await app.json(url(org.projectId, 'main', suffix));
    expect(none.status).toBe(401);
    expect(none.body.success).toBe(false);
    expect((await app.json(url(org.projectId, 'main', suffix), { token: 'folio_bogus' })).status).toBe(401);
    expect((await app.json(url(org.projectId, 'main', suffix), { token: org.ingestToken })).status).toBe(403);
  });

  it.each(ENDPOINTS)("analytics%s: 404 for unknown or another organization's ids", async (suffix) => {
    const cases = [
      url(org.projectId, 'nope', suffix),
      url('00000000-0000-4000-8000-000000000000', 'main', suffix),
      url('not-a-uuid', 'main', suffix),
      url(secondProject, 'main', suffix), // the distribution belongs to the other project
      url(other.projectId, 'theirs', suffix), // another organization's project and distribution
      url(org.projectId, 'theirs', suffix),
    ];
    for (const path of cases) {
      const res = await app.json(path, { token: org.analyticsToken });
      expect({ path, status: res.status, success: res.body.success }).toEqual({ path, status: 404, success: false });
    }
  });

  it('answers an empty id with an empty result', async () => {
    const overview = await app.json(url('', 'main'), { token: org.analyticsToken });
    expect(overview.status).toBe(200);
    expect(overview.body.result).toEqual({
      averageServeTime: 0,
      totalBytes: 0,
      hits: 0,
      misses: 0,
      topReferers: { otherCount: 0, buckets: [] },
      aggregatesPerInterval: [],
      uniqueVisitors: 0,
      botRequests: 0,
    });
    const device = await app.json(url(org.projectId, '', '/device'), { token: org.analyticsToken });
    expect(device.status).toBe(200);
    expect(Object.keys(device.body.result)).toEqual(['devices', 'browsers', 'operatingSystems', 'continents', 'countries']);
    // still behind authentication
    expect((await app.json(url('', ''))).status).toBe(401);
  });

  it.each([
    '?intervalType=5',
    '?intervalType=hourly',
    '?intervalType=4&from=2026-01-01T00:00:00Z&to=2026-01-04T00:00:00Z',
    '?excludeBots=yes',
    '?from=yesterday',
    '?to=2026-02-30T00:00:00Z',
    '?from=2026-01-02T00:00:00Z&to=2026-01-01T00:00:00Z',
    '?TermCount=0',
    '?TermCount=101',
    '?termCount=abc',
    '?from=2016-01-01T00:00:00Z&to=2026-01-01T00:00:00Z&intervalType=1',
  ])('answers 400 to %s', async (query) => {
    const res = await app.json(url(org.projectId, 'main', '/geo', query), { token: org.analyticsToken });
    expect(res.status).toBe(400);
    expect(res.body.success).toBe(false);
    expect(res.body.errors.length).toBeGreaterThan(0);
  });

  it('honours TermCount and its lower-case spelling', async () => {
    const upper = await app.json(url(org.projectId, 'main', '/path', '?TermCount=2'), { token: org.analyticsToken });
    const lower = await app.json(url(org.projectId, 'main', '/path', '?termCount=2'), { token: org.analyticsToken });
    expect(upper.body.result.paths.buckets).toHaveLength(2);
    expect(lower.body.result).toEqual(upper.body.result);
    const total = upper.body.result.continents.buckets.reduce((s: number, b: { count: number }) => s + b.count, 0) + upper.body.result.continents.otherCount;
    expect(total).toBe(20);
  });

  it('knows only API version 1', async () => {
    expect((await app.json(`/api/v2/projects/${org.projectId}/distributions/main/analytics`, { token: org.analyticsToken })).status).toBe(404);
  });
});

describe('analytics in the OpenAPI document', () => {
  it('declares byte counts int64: a CDN window passes 2^31 bytes (a 6 GB total failed the int32 schema)', async () => {
    const { buildOpenApiDocument } = await import('../../api/http/openapi/index.js');
    const schemas = (buildOpenApiDocument('http://x') as { components: { schemas: Record<string, any> } }).components.schemas;
    const overview = schemas.DistributionAnalytics.properties;
    expect(overview.totalBytes).toMatchObject({ type: 'integer', format: 'int64' });
    expect(overview.aggregatesPerInterval.items.properties.bytes).toMatchObject({ type: 'integer', format: 'int64' });
  });
});
