import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestApp, type TestApp } from '../support/harness.js';
import { createAnalyticsOrg, createDistribution, type AnalyticsOrg } from './ingest-support.js';

/**
 * What the dashboard is served with, and the one endpoint it adds: the projects and
 * distributions an analytics token can report on. The page itself runs in dashboard-browser.
 */
describe('the dashboard page and the projects of an analytics token', () => {
  let app: TestApp;
  let org: AnalyticsOrg;
  let other: AnalyticsOrg;

  beforeAll(async () => {
    app = await startTestApp();
    org = await createAnalyticsOrg(app);
    other = await createAnalyticsOrg(app);
    await createDistribution(app, org, 'web');
    await createDistribution(app, org, 'app');
    await createDistribution(app, other, 'theirs');
  });
  afterAll(async () => {
    await app?.close();
  });

  it('serves the page, its script and the charting library from here, with a policy that loads nothing from elsewhere', async () => {
    const page = await fetch(`${app.baseUrl}/dashboard`);
    expect(page.status).toBe(200);
    expect(page.headers.get('content-type')).toMatch(/^text\/html/);
    expect(page.headers.get('content-security-policy')).toBe(
      "default-src 'none'; script-src 'self'; style-src 'self'; img-src 'self' data:; connect-src 'self'; form-action 'self'; frame-ancestors 'none'; base-uri 'none'",
    );
    const html = await page.text();
    // one link leads away, back to the Studio (same origin); every other address is a resource of the page
    expect([...html.matchAll(/<a [^>]*href="([^"]+)"/g)].map((m) => m[1])).toEqual(['/studio']);
    const linked = [...html.matchAll(/<(?:script|link) [^>]*(?:src|href)="([^"]+)"/g)].map((m) => m[1]);
    expect(linked.sort()).toEqual(['/dashboard/dashboard.css', '/dashboard/dashboard.js', '/dashboard/vendor/uPlot.iife.min.js', '/dashboard/vendor/uPlot.min.css']);
    for (const url of linked) {
      const res = await fetch(`${app.baseUrl}${url}`);
      expect(res.status, url).toBe(200);
      expect(res.headers.get('content-type'), url).toMatch(url.endsWith('.js') ? /javascript/ : /^text\/css/);
      expect((await res.text()).length, url).toBeGreaterThan(1000);
    }
    expect((await fetch(`${app.baseUrl}/dashboard/`)).status).toBe(200); // the same page (its links are absolute)
    const unknown = await app.json('/dashboard/../package.json');
    expect(unknown.status).not.toBe(200);
    expect((await app.json('/dashboard/secrets.js')).status).toBe(404);
  });

  it("lists the token's organization's projects with their distributions, and nothing of another's", async () => {
    const res = await app.json('/api/v1/projects', { token: org.analyticsToken });
    expect(res.status).toBe(200);
    expect(res.body).toEqual({
      success: true,
      errors: [],
      messages: [],
      result: [
        {
          id: org.projectId,
          name: 'Site',
          distributions: [
            { id: 'web', name: 'web', hostnames: ['web.example.com'] },
            { id: 'app', name: 'app', hostnames: ['app.example.com'] },
          ],
        },
      ],
      resultInfo: null,
    });
    const theirs = await app.json('/api/v1/projects', { token: other.analyticsToken });
    expect(theirs.body.result).toEqual([{ id: other.projectId, name: 'Site', distributions: [{ id: 'theirs', name: 'theirs', hostnames: ['theirs.example.com'] }] }]);
  });

  it('asks for a token with the analytics scope', async () => {
    expect((await app.json('/api/v1/projects')).status).toBe(401);
    const wrong = await app.json('/api/v1/projects', { token: org.manageToken });
    expect(wrong.status).toBe(403);
    expect(wrong.body.success).toBe(false);
    expect((await app.json('/api/v1/projects', { token: 'folio_not-a-token' })).status).toBe(401);
  });
});
