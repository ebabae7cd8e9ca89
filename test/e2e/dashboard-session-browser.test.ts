import { chromiumFor, launchChromium } from '../support/chromium.js';
import { mkdir } from 'node:fs/promises';
import path from 'node:path';
import type { Browser, BrowserContext, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { randomBase62 } from '../../shared/ids.js';
import { projectRoot } from '../../shared/paths.js';
import { generateTraffic, ndjson, toCanonical } from '../fixtures/cdn-logs/traffic.js';
import { startTestApp, type TestApp } from '../support/harness.js';
import { ensureStudioBuilt } from '../support/studio-build.js';
import { createAnalyticsOrg, createDistribution, pushLogs, waitForSpool, type AnalyticsOrg } from '../integration/ingest-support.js';

/**
 * The dashboard opened from the Studio: a signed-in member whose role reads analytics gets their
 * organization's dashboard without a token (the session cookie; the API decides by the role), a
 * member whose role does not is told so; the filters set by clicking a breakdown's row, the path
 * pattern, the comparison and the goals and funnels panels show what the REST API answers for the
 * same query. axe-core without serious violations; screenshots at 1440 and 390 px.
 */
const hasChromium = chromiumFor('dashboard-session-browser.test.ts');

const ARTIFACTS = path.join(projectRoot, 'test-artifacts', 'studio');
const AXE = path.join(projectRoot, 'node_modules', 'axe-core', 'axe.min.js');
const PASSWORD = 'correct horse battery staple';
const HOUR = 3_600_000;

describe.skipIf(!hasChromium)('the dashboard with a Studio session, in Chromium', () => {
  let app: TestApp;
  let org: AnalyticsOrg;
  let other: AnalyticsOrg;
  let browser: Browser;
  const contexts: BrowserContext[] = [];
  const emails: Record<string, string> = {};

  const member = async (o: AnalyticsOrg, role: string) => {
    const email = `${role}-${randomBase62(6).toLowerCase()}@example.test`;
    const invited = await app.json('/management/v1/invitations', { token: o.manageToken, body: { email, role } });
    expect(invited.status, JSON.stringify(invited.body)).toBe(201);
    expect((await app.json('/auth/invitations/accept', { body: { token: invited.body.result.token, password: PASSWORD } })).status).toBe(200);
    return email;
  };

  /** A browser session (its own cookies) signed in through the sign-in API, on /dashboard. */
  const onDashboard = async (email: string): Promise<Page> => {
    const context = await browser.newContext({ viewport: { width: 1440, height: 1000 }, bypassCSP: true });
    contexts.push(context);
    expect((await context.request.post(`${app.baseUrl}/auth/sign-in`, { data: { email, password: PASSWORD } })).status()).toBe(200);
    const page = await context.newPage();
    page.on('pageerror', (err) => console.error('page error:', err));
    await page.goto(`${app.baseUrl}/dashboard`);
    return page;
  };

  /** Waits until every panel shows the answer to the current filters. */
  const settled = async (page: Page, filters: string) => {
    await expect.poll(() => page.getAttribute('#dashboard', 'data-filters'), { timeout: 20_000 }).toBe(filters);
    await expect
      .poll(() => page.$$eval('[data-panel]', (els) => els.every((e) => (e as HTMLElement).dataset.state === 'ready')), { timeout: 30_000 })
      .toBe(true);
  };
  const rowsOf = (page: Page, panel: string) => page.$eval(`[data-panel="${panel}"]`, (el) => (el as HTMLElement & { rows: unknown[] }).rows);
  const rest = async (page: Page, report: string, query: string) => {
    const from = await page.getAttribute('#dashboard', 'data-from');
    const to = await page.getAttribute('#dashboard', 'data-to');
    const res = await app.json(`/api/v1/projects/${org.projectId}/distributions/web/analytics${report}?from=${from}&to=${to}&TermCount=10${query}`, { token: org.analyticsToken });
    expect(res.status, JSON.stringify(res.body)).toBe(200);
    return res.body.result;
  };

  const accessible = async (page: Page, screen: string) => {
    if (!(await page.evaluate(() => 'axe' in window))) await page.addScriptTag({ path: AXE });
    const violations = await page.evaluate(async () => {
      const axe = (window as unknown as { axe: { run: (ctx: Document) => Promise<{ violations: Array<{ id: string; impact: string; nodes: Array<{ target: string[] }> }> }> } }).axe;
      const result = await axe.run(document);
      return result.violations.filter((v) => v.impact === 'serious' || v.impact === 'critical').map((v) => `${v.id} (${v.impact}): ${v.nodes.map((n) => n.target.join(' ')).join(', ')}`);
    });
    expect(violations, screen).toEqual([]);
  };
  const shoot = async (page: Page, name: string) => {
    await accessible(page, `${name} at 1440 px`);
    await page.screenshot({ path: path.join(ARTIFACTS, `${name}-1440.png`), fullPage: true });
    await page.setViewportSize({ width: 390, height: 844 });
    // the chart follows its panel's width on the next frame
    await page.waitForTimeout(300);
    const overflow = await page.evaluate(() => document.documentElement.scrollWidth - document.documentElement.clientWidth);
    const wide = await page.evaluate(() =>
      [...document.querySelectorAll('body *')].filter((e) => e.getBoundingClientRect().right > document.documentElement.clientWidth + 1).slice(0, 5).map((e) => `${e.tagName}#${e.id}.${e.className}`),
    );
    expect(overflow, `${name} overflows at 390 px by ${overflow} px: ${wide.join(', ')}`).toBeLessThanOrEqual(0);
    await accessible(page, `${name} at 390 px`);
    await page.screenshot({ path: path.join(ARTIFACTS, `${name}-390.png`), fullPage: true });
    await page.setViewportSize({ width: 1440, height: 1000 });
  };

  beforeAll(async () => {
    await mkdir(ARTIFACTS, { recursive: true });
    await ensureStudioBuilt();
    app = await startTestApp();
    org = await createAnalyticsOrg(app);
    other = await createAnalyticsOrg(app);
    await createDistribution(app, org, 'web');
    await createDistribution(app, other, 'elsewhere');
    const now = Date.now();
    // two days: the last 24 hours and the 24 before them, for the comparison
    const events = generateTraffic({ count: 1200, startMs: now - 46 * HOUR, spanMs: 46 * HOUR - 60_000, seed: 9, countries: ['NL', 'NL', 'DE', 'US'] }).map((e, i) => ({
      ...e,
      path: i % 5 === 0 ? `/articles/${['launch', 'pricing'][i % 2]}` : i % 7 === 0 ? '/signup' : e.path,
    }));
    for (let i = 0; i < events.length; i += 400) expect((await pushLogs(app, org.ingestToken, 'web', ndjson(events.slice(i, i + 400).map(toCanonical)))).status).toBe(200);
    await waitForSpool(app, org.orgId);
    const m = (p: string, body: unknown) => app.json(`/management/v1/projects/${org.projectId}/distributions/web${p}`, { token: org.manageToken, body });
    expect((await m('/goals', { name: 'Read an article', path: '/articles/*' })).status).toBe(201);
    expect((await m('/goals', { name: 'Signed up', path: '/signup' })).status).toBe(201);
    expect((await m('/funnels', { name: 'Article to signup', steps: ['/articles/*', '/signup'] })).status).toBe(201);
    emails.developer = await member(org, 'developer');
    emails.analyst = await member(org, 'analyst');
    emails.editor = await member(org, 'editor');
    emails.foreign = await member(other, 'developer');
    browser = await launchChromium();
  }, 240_000);
  afterAll(async () => {
    for (const c of contexts) await c.close().catch(() => undefined);
    await browser?.close();
    await app?.close();
  });

  it("the Studio's Analytics link opens its organization's dashboard without a token", async () => {
    const context = await browser.newContext({ viewport: { width: 1440, height: 1000 }, bypassCSP: true });
    contexts.push(context);
    const page = await context.newPage();
    const authorizations: string[] = [];
    page.on('request', (r) => {
      if (r.url().includes('/api/v1/')) authorizations.push(r.headers().authorization ?? '');
    });
    await page.goto(`${app.baseUrl}/studio`);
    await page.getByLabel('Email').fill(emails.developer);
    await page.getByLabel('Password').fill(PASSWORD);
    await page.getByRole('button', { name: 'Sign in' }).click();
    await page.getByRole('link', { name: 'Analytics', exact: true }).click();
    await page.waitForURL(`${app.baseUrl}/dashboard`);
    await page.waitForSelector('#dashboard:not([hidden])');
    expect(await page.getAttribute('#dashboard', 'data-mode')).toBe('session');
    expect(await page.isVisible('#session')).toBe(true);
    expect(await page.isVisible('#sign-out')).toBe(false);
    expect(await page.$$eval('#project option', (os) => os.map((o) => (o as HTMLOptionElement).value))).toEqual([org.projectId]);
    expect(await page.$$eval('#distribution option', (os) => os.map((o) => (o as HTMLOptionElement).value))).toEqual(['web']);
    await settled(page, '');
    expect(await page.evaluate(() => sessionStorage.getItem('folio.analyticsToken'))).toBeNull();
    expect(authorizations.length).toBeGreaterThan(5);
    expect(authorizations.filter((a) => a !== '')).toEqual([]);
  }, 120_000);

  it('an analyst opens it too; an editor is told the role does not read analytics; another organization sees its own', async () => {
    const analyst = await onDashboard(emails.analyst);
    await analyst.waitForSelector('#dashboard:not([hidden])');
    await settled(analyst, '');
    const editor = await onDashboard(emails.editor);
    await editor.waitForSelector('#session-refused:not([hidden])');
    expect(await editor.isVisible('#dashboard')).toBe(false);
    expect(await editor.isVisible('#token')).toBe(true);
    await shoot(editor, 'dashboard-session-refused');
    const foreign = await onDashboard(emails.foreign);
    await foreign.waitForSelector('#dashboard:not([hidden])');
    expect(await foreign.$$eval('#project option', (os) => os.map((o) => (o as HTMLOptionElement).value))).toEqual([other.projectId]);
    expect(await foreign.$$eval('#distribution option', (os) => os.map((o) => (o as HTMLOptionElement).value))).toEqual(['elsewhere']);
  }, 120_000);

  it('a shared link opens its one distribution without a token or session, and stops when revoked', async () => {
    const made = await app.json(`/management/v1/projects/${org.projectId}/distributions/web/shared-links`, { token: org.manageToken, body: { name: 'Agency view' } });
    expect(made.status, JSON.stringify(made.body)).toBe(201);
    const context = await browser.newContext({ viewport: { width: 1440, height: 1000 }, bypassCSP: true });
    contexts.push(context);
    const page = await context.newPage();
    const requested: string[] = [];
    page.on('request', (r) => requested.push(r.url()));
    await page.goto(made.body.result.url);
    await page.waitForSelector('#dashboard:not([hidden])');
    expect(await page.getAttribute('#dashboard', 'data-mode')).toBe('shared');
    expect(await page.textContent('#shared')).toMatch(/^Shared view: Agency view, until /);
    expect(await page.isVisible('#sign-in')).toBe(false);
    expect(await page.$$eval('#distribution option', (os) => os.map((o) => (o as HTMLOptionElement).value))).toEqual(['web']);
    await settled(page, '');
    const goals = await rest(page, '/goals', '');
    expect(await rowsOf(page, 'goals')).toEqual(goals.map((g: { name: string; visitors: number; conversionRate: number }) => [g.name, g.visitors, g.conversionRate]));
    const paths = (await rest(page, '/path', '')).paths.buckets.map((b: { name: string; count: number }) => [b.name, b.count]);
    expect(await rowsOf(page, 'paths')).toEqual(paths);
    // everything it read went through the link, nothing through the organization's API
    expect(requested.filter((u) => u.includes('/api/v1/') && !u.includes('/api/v1/shared/'))).toEqual([]);
    await shoot(page, 'dashboard-shared');

    expect((await app.json(`/management/v1/projects/${org.projectId}/distributions/web/shared-links/${made.body.result.id}`, { method: 'DELETE', token: org.manageToken })).status).toBe(200);
    const reloaded = await page.reload();
    expect(reloaded?.status()).toBe(404);
    expect(await page.textContent('body')).toContain('unknown, revoked or expired');
  }, 120_000);

  it('a click on a breakdown row, a path pattern and the comparison narrow every panel as the API does', async () => {
    const page = await onDashboard(emails.analyst);
    await page.waitForSelector('#dashboard:not([hidden])');
    await settled(page, '');
    // goals and funnels, unfiltered
    const goals = await rest(page, '/goals', '');
    expect(await rowsOf(page, 'goals')).toEqual(goals.map((g: { name: string; visitors: number; conversionRate: number }) => [g.name, g.visitors, g.conversionRate]));
    expect(goals[0].visitors).toBeGreaterThan(0);
    const funnels = await rest(page, '/funnels', '');
    expect(await rowsOf(page, 'funnels')).toEqual(
      funnels[0].steps.map((s: { path: string; visitors: number; dropOff: number }, i: number) => [`Article to signup ${i + 1}. ${s.path}`, s.visitors, s.dropOff]),
    );

    // drill down: the Netherlands
    await page.getByRole('button', { name: 'NL', exact: true }).click();
    await settled(page, 'country=NL');
    expect(await page.getByRole('button', { name: 'Remove the filter country NL' }).isVisible()).toBe(true);
    const nlPaths = (await rest(page, '/path', '&country=NL')).paths.buckets.map((b: { name: string; count: number }) => [b.name, b.count]);
    expect(await rowsOf(page, 'paths')).toEqual(nlPaths);
    const nlGoals = await rest(page, '/goals', '&country=NL');
    expect(await rowsOf(page, 'goals')).toEqual(nlGoals.map((g: { name: string; visitors: number; conversionRate: number }) => [g.name, g.visitors, g.conversionRate]));
    expect(nlGoals[0].visitors).toBeLessThan(goals[0].visitors);
    const overview = await rest(page, '', '&country=NL');
    const requests = overview.aggregatesPerInterval.reduce((n: number, a: { numberOfRequests: number }) => n + a.numberOfRequests, 0);
    expect(await page.textContent('#totals .total:first-child b')).toBe(requests.toLocaleString('en'));

    // and a path pattern
    await page.getByLabel('Path pattern', { exact: true }).fill('/articles/*');
    await page.getByLabel('Path pattern', { exact: true }).press('Enter');
    await settled(page, 'country=NL&pathPattern=%2Farticles%2F*');
    const both = await rest(page, '/path', '&country=NL&pathPattern=/articles/*');
    expect(await rowsOf(page, 'paths')).toEqual(both.paths.buckets.map((b: { name: string; count: number }) => [b.name, b.count]));
    expect(both.paths.buckets.map((b: { name: string }) => b.name).sort()).toEqual(['/articles/launch', '/articles/pricing']);

    // compared with the period before
    await page.getByLabel('Compare with the period before').check();
    await settled(page, 'country=NL&pathPattern=%2Farticles%2F*');
    const compared = await rest(page, '', '&country=NL&pathPattern=/articles/*&compare=previous');
    const sum = (r: { aggregatesPerInterval: Array<{ numberOfRequests: number }> }) => r.aggregatesPerInterval.reduce((n, a) => n + a.numberOfRequests, 0);
    const [now, before] = [sum(compared), sum(compared.previous)];
    expect(before).toBeGreaterThan(0);
    const pct = (100 * (now - before)) / before;
    await expect.poll(() => page.textContent('#totals .total:first-child .change')).toBe(`${pct >= 0 ? '+' : '−'}${Math.abs(pct).toFixed(1)} % on the period before`);
    await shoot(page, 'dashboard-session-filters');

    // a filter is removed by its chip; a bad pattern is refused with the API's reason
    await page.getByRole('button', { name: 'Remove the filter country NL' }).click();
    await settled(page, 'pathPattern=%2Farticles%2F*');
    await page.getByLabel('Path pattern', { exact: true }).fill('articles');
    await page.getByLabel('Path pattern', { exact: true }).press('Enter');
    await expect.poll(() => page.textContent('#filter-error')).toMatch(/^pathPattern: /);
  }, 180_000);
});
