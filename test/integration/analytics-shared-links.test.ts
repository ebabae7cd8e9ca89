import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { generateTraffic, ndjson, toCanonical } from '../fixtures/cdn-logs/traffic.js';
import { startTestApp, type TestApp } from '../support/harness.js';
import { DAY } from './analytics-expected.js';
import { createAnalyticsOrg, createDistribution, pushLogs, waitForSpool, type AnalyticsOrg } from './ingest-support.js';

// Shared links: a link's holder reads one distribution's reports without a token — the same
// answers its organization's analytics token gets — until the link is revoked or expires.

describe('analytics shared links', () => {
  let app: TestApp;
  let org: AnalyticsOrg;
  let other: AnalyticsOrg;
  const start = Math.floor(Date.now() / DAY) * DAY - 5 * DAY;
  const manage = (o: AnalyticsOrg, dist: string, path = '', init: { method?: string; body?: unknown; token?: string } = {}) =>
    app.json(`/management/v1/projects/${o.projectId}/distributions/${dist}/shared-links${path}`, { token: o.manageToken, ...init });
  const secretOf = (url: string) => new URL(url).pathname.replace('/dashboard/shared/', '');
  const window = `from=${new Date(start).toISOString()}&to=${new Date(start + 4 * DAY).toISOString()}`;

  beforeAll(async () => {
    app = await startTestApp();
    org = await createAnalyticsOrg(app);
    other = await createAnalyticsOrg(app);
    await createDistribution(app, org, 'cdn');
    await createDistribution(app, org, 'private');
    await createDistribution(app, other, 'cdn');
    for (const [o, dist, seed] of [[org, 'cdn', 1], [org, 'private', 2], [other, 'cdn', 3]] as const) {
      const events = generateTraffic({ count: 400, startMs: start, spanMs: 4 * DAY, seed, countries: ['NL', 'DE'] });
      expect((await pushLogs(app, o.ingestToken, dist, ndjson(events.map(toCanonical)))).status).toBe(200);
      await waitForSpool(app, o.orgId);
    }
    const goal = await app.json(`/management/v1/projects/${org.projectId}/distributions/cdn/goals`, { token: org.manageToken, body: { name: 'Articles', path: '/articles/*' } });
    expect(goal.status).toBe(201);
    const funnel = await app.json(`/management/v1/projects/${org.projectId}/distributions/cdn/funnels`, { token: org.manageToken, body: { name: 'Home to article', steps: ['/', '/articles/*'] } });
    expect(funnel.status).toBe(201);
  });
  afterAll(async () => {
    await app?.close();
  });

  it('answers what the analytics token answers for its distribution, without a token', async () => {
    const created = await manage(org, 'cdn', '', { body: { name: 'For the agency' } });
    expect(created.status, JSON.stringify(created.body)).toBe(201);
    const { id, url, name, expiresAt } = created.body.result;
    expect(name).toBe('For the agency');
    expect(url).toMatch(/\/dashboard\/shared\/[A-Za-z0-9]{43}$/);
    // 30 days by default
    expect(Math.abs(Date.parse(expiresAt) - Date.now() - 30 * DAY)).toBeLessThan(60_000);
    const secret = secretOf(url);
    expect((await app.json(`/api/v1/shared/${secret}`)).body.result).toEqual({ name: 'For the agency', distributionId: 'cdn', expiresAt });
    for (const [report, query] of [
      ['', ''], ['/geo', '&country=NL'], ['/path', '&pathPattern=/articles/*'], ['/campaigns', ''], ['/status', '&compare=previous'], ['/goals', '&country=DE'], ['/funnels', ''],
    ]) {
      const shared = await app.json(`/api/v1/shared/${secret}/analytics${report}?${window}${query}`);
      const direct = await app.json(`/api/v1/projects/${org.projectId}/distributions/cdn/analytics${report}?${window}${query}`, { token: org.analyticsToken });
      expect(shared.status, `${report} ${JSON.stringify(shared.body)}`).toBe(200);
      expect(shared.body.result, report).toEqual(direct.body.result);
    }
    // the page itself, kept by no cache
    const page = await app.fetch(new URL(url).pathname);
    expect(page.status).toBe(200);
    expect(page.headers.get('cache-control')).toBe('no-store');
    expect(page.headers.get('referrer-policy')).toBe('no-referrer');
    // listed without its secret
    const list = await manage(org, 'cdn');
    expect(list.body.result).toEqual([expect.objectContaining({ id, name: 'For the agency', revokedAt: null })]);
    expect(JSON.stringify(list.body)).not.toContain(secret);
  });

  it('exposes nothing else: no other report, distribution or organization', async () => {
    const secret = secretOf((await manage(org, 'cdn', '', { body: {} })).body.result.url);
    for (const path of ['/analytics/settings', '/analytics/funnels/x', '/analytics/geo/x', '/projects', '/analytics/../../projects']) {
      const res = await app.json(`/api/v1/shared/${secret}${path}`);
      expect([path, res.status, res.body.success]).toEqual([path, 404, false]);
    }
    // its token is no bearer token anywhere
    expect((await app.json(`/api/v1/projects/${org.projectId}/distributions/cdn/analytics`, { token: secret })).status).toBe(401);
    expect((await app.json('/api/v1/projects', { token: secret })).status).toBe(401);
  });

  it('stops working when revoked, and when expired', async () => {
    const { id, url } = (await manage(org, 'cdn', '', { body: { name: 'Soon gone' } })).body.result;
    const secret = secretOf(url);
    expect((await app.json(`/api/v1/shared/${secret}/analytics?${window}`)).status).toBe(200);
    const revoked = await manage(org, 'cdn', `/${id}`, { method: 'DELETE' });
    expect([revoked.status, revoked.body.result.revoked]).toEqual([200, true]);
    for (const path of [`/api/v1/shared/${secret}`, `/api/v1/shared/${secret}/analytics?${window}`, `/api/v1/shared/${secret}/analytics/goals`]) {
      const res = await app.json(path);
      expect([path, res.status, res.body.success]).toEqual([path, 404, false]);
    }
    expect((await app.fetch(new URL(url).pathname)).status).toBe(404);
    expect((await manage(org, 'cdn')).body.result.find((l: { id: string }) => l.id === id).revokedAt).not.toBeNull();

    const short = (await manage(org, 'cdn', '', { body: { expiresAt: new Date(Date.now() + 2_500).toISOString() } })).body.result;
    expect((await app.json(`/api/v1/shared/${secretOf(short.url)}`)).status).toBe(200);
    await new Promise((r) => setTimeout(r, 3_000));
    expect((await app.json(`/api/v1/shared/${secretOf(short.url)}`)).status).toBe(404);
    expect((await app.fetch(new URL(short.url).pathname)).status).toBe(404);
  });

  it('refuses bad input with a 400 envelope, and unknown secrets with a 404', async () => {
    for (const body of [
      { expiresAt: new Date(Date.now() - 60_000).toISOString() },
      { expiresAt: new Date(Date.now() + 400 * DAY).toISOString() },
      { expiresAt: 'tomorrow' },
      { name: '' },
      { name: 'x', role: 'admin' },
    ]) {
      const res = await manage(org, 'cdn', '', { body });
      expect({ body, status: res.status, success: res.body.success }).toEqual({ body, status: 400, success: false });
    }
    const secret = secretOf((await manage(org, 'cdn', '', { body: {} })).body.result.url);
    const bad = await app.json(`/api/v1/shared/${secret}/analytics?country=Germany`);
    expect([bad.status, bad.body.errors[0]]).toEqual([400, expect.stringMatching(/^country: /)]);
    for (const s of ['x', 'A'.repeat(43), `${secret.slice(0, -1)}${secret.endsWith('a') ? 'b' : 'a'}`]) {
      expect((await app.json(`/api/v1/shared/${s}/analytics`)).status).toBe(404);
      expect((await app.fetch(`/dashboard/shared/${s}`)).status).toBe(404);
    }
    expect((await manage(org, 'cdn', '/not-a-uuid', { method: 'DELETE' })).status).toBe(404);
  });

  it("another organization's token neither makes, lists nor revokes them", async () => {
    const { id } = (await manage(org, 'cdn', '', { body: { name: 'Mine' } })).body.result;
    const foreign = { ...org, manageToken: other.manageToken };
    for (const res of [await manage(foreign, 'cdn', '', { body: {} }), await manage(foreign, 'cdn'), await manage(foreign, 'cdn', `/${id}`, { method: 'DELETE' })]) {
      expect([res.status, res.body.success]).toEqual([404, false]);
    }
    // its own distribution of the same id has none, and cannot revoke this one
    expect((await manage(other, 'cdn')).body.result).toEqual([]);
    expect((await manage(other, 'cdn', `/${id}`, { method: 'DELETE' })).status).toBe(404);
    expect((await manage(org, 'cdn', '', { token: org.analyticsToken })).status).toBe(403);
  });

  it('reads through a link share one rate-limit bucket: a link used up is refused with 429 and Retry-After', async () => {
    // a server whose buckets refill as a real one's do (the suites' servers refill a million a second)
    const slow = await startTestApp({ env: { RATE_LIMIT_PER_SECOND: '1', RATE_LIMIT_BURST: '1000' } });
    try {
      const o = await createAnalyticsOrg(slow);
      await createDistribution(slow, o, 'cdn');
      const make = async (name: string) =>
        (await slow.json(`/management/v1/projects/${o.projectId}/distributions/cdn/shared-links`, { token: o.manageToken, body: { name } })).body.result as { id: string; url: string };
      const busy = await make('Busy');
      const first = await slow.json(`/api/v1/shared/${secretOf(busy.url)}/analytics?${window}`);
      expect(first.status).toBe(200);
      const remaining = Number(first.headers.get('ratelimit-remaining') ?? first.headers.get('x-ratelimit-remaining'));
      expect(remaining).toBeGreaterThan(0);
      // what is left in the bucket, used up at once (as a flood of reads would)
      expect((await slow.services.rateLimiter.consume(`shared-link:${busy.id}`, Math.floor(remaining))).allowed).toBe(true);
      const refused = await slow.json(`/api/v1/shared/${secretOf(busy.url)}/analytics?${window}`);
      expect([refused.status, refused.body.success]).toEqual([429, false]);
      expect(refused.body.errors[0]).toMatch(/shared link/);
      expect(Number(refused.headers.get('retry-after'))).toBeGreaterThan(0);
      // another link of the same distribution has its own bucket
      expect((await slow.json(`/api/v1/shared/${secretOf((await make('Calm')).url)}/analytics?${window}`)).status).toBe(200);
    } finally {
      await slow.close();
    }
  });
});
