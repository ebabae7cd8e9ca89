import { chromiumFor, launchChromium } from '../support/chromium.js';
import { mkdir, readFile, stat } from 'node:fs/promises';
import path from 'node:path';
import type { Browser, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { projectRoot } from '../../shared/paths.js';
import { generateTraffic, ndjson, toCanonical } from '../fixtures/cdn-logs/traffic.js';
import { startTestApp, type TestApp } from '../support/harness.js';
import { createAnalyticsOrg, createDistribution, pushLogs, waitForSpool, type AnalyticsOrg } from '../integration/ingest-support.js';

/**
 * The analytics dashboard in a real browser (Debian's Chromium, driven by playwright-core): sign
 * in with an analytics token, pick a distribution, every chart drawn with as many points as the
 * REST API has numbers, CSV downloads equal to the REST numbers, nothing loaded from elsewhere.
 * Screenshots are kept in test-artifacts/dashboard/. `.ci/run` installs /usr/bin/chromium; without
 * it this file is skipped.
 */
const hasChromium = chromiumFor('dashboard-browser.test.ts');

const ARTIFACTS = path.join(projectRoot, 'test-artifacts', 'dashboard');
const HOUR = 3_600_000;
const BARS: Record<string, { report: string; rows: (r: any) => Array<[string, number]> }> = {
  status: { report: '/status', rows: (r) => r.statusClasses.buckets.map((b: any) => [b.name, b.count]) },
  paths: { report: '/path', rows: (r) => r.paths.buckets.map((b: any) => [b.name, b.count]) },
  countries: { report: '/geo', rows: (r) => r.countries.buckets.map((b: any) => [b.name, b.count]) },
  devices: { report: '/device', rows: (r) => r.devices.buckets.map((b: any) => [b.name, b.count]) },
  referers: { report: '/referers', rows: (r) => r.referers.buckets.map((b: any) => [b.name, b.count]) },
  bots: { report: '/bots', rows: (r) => [['(people)', r.humanRequests], ...r.topBots.buckets.map((b: any) => [b.name, b.count])] },
  entries: { report: '/entries', rows: (r) => r.entries.map((e: any) => [e.title ?? e.id, e.requests]) },
};

/** RFC 4180 rows, as a spreadsheet reads them. */
function parseCsv(text: string): string[][] {
  const rows: string[][] = [];
  let row: string[] = [];
  let field = '';
  let quoted = false;
  for (let i = 0; i < text.length; i++) {
    const c = text[i];
    if (quoted) {
      if (c === '"' && text[i + 1] === '"') {
        field += '"';
        i++;
      } else if (c === '"') quoted = false;
      else field += c;
    } else if (c === '"') quoted = true;
    else if (c === ',') {
      row.push(field);
      field = '';
    } else if (c === '\r' && text[i + 1] === '\n') {
      row.push(field);
      rows.push(row);
      row = [];
      field = '';
      i++;
    } else field += c;
  }
  return rows;
}

describe.skipIf(!hasChromium)('the analytics dashboard in Chromium', () => {
  let app: TestApp;
  let org: AnalyticsOrg;
  let browser: Browser;
  let page: Page;
  const requested: string[] = [];

  const rest = async (report: string, window: { from: string; to: string }) => {
    const res = await app.json(`/api/v1/projects/${org.projectId}/distributions/web/analytics${report}?from=${window.from}&to=${window.to}&TermCount=10`, { token: org.analyticsToken });
    expect(res.status, JSON.stringify(res.body)).toBe(200);
    return res.body.result;
  };

  beforeAll(async () => {
    await mkdir(ARTIFACTS, { recursive: true });
    app = await startTestApp();
    org = await createAnalyticsOrg(app);
    await createDistribution(app, org, 'staging');
    await createDistribution(app, org, 'web');
    // a site whose article pages count per entry
    const m = (p: string, init: { method?: string; body?: unknown }) => app.json(`/management/v1${p}`, { token: org.manageToken, ...init });
    const site = (await m('/sites', { body: { name: 'News' } })).body.result.id;
    await m('/models/article', { method: 'PUT', body: { titleField: 'title', fields: [{ alias: 'title', type: 'text' }] } });
    for (const slug of ['a', 'b', 'c']) await m('/entries', { body: { model: 'article', siteId: site, slug, status: 'PUBLISHED', fields: { title: `Article ${slug.toUpperCase()}` } } });
    await m(`/sites/${site}/url-patterns`, { method: 'PUT', body: { patterns: [{ pattern: '/articles/{slug}' }] } });
    const now = Date.now();
    const events = generateTraffic({ count: 900, startMs: now - 20 * HOUR, spanMs: 20 * HOUR - 60_000, seed: 5 }).map((e, i) => ({
      ...e,
      path: i % 4 === 0 ? `/articles/${'abc'[i % 3]}` : e.path,
      userAgent: i % 9 === 0 ? 'Mozilla/5.0 (compatible; Googlebot/2.1; +http://www.google.com/bot.html)' : e.userAgent,
      // a referrer host a spreadsheet would read as a formula
      referer: i % 5 === 2 ? 'https://=1+2/' : e.referer,
    }));
    // and the last minutes, for the live view
    const recent = generateTraffic({ count: 60, startMs: now - 20 * 60_000, spanMs: 19 * 60_000, seed: 6 });
    for (let i = 0; i < events.length; i += 300) expect((await pushLogs(app, org.ingestToken, 'web', ndjson(events.slice(i, i + 300).map(toCanonical)))).status).toBe(200);
    expect((await pushLogs(app, org.ingestToken, 'web', ndjson(recent.map(toCanonical)))).status).toBe(200);
    await waitForSpool(app, org.orgId);

    browser = await launchChromium();
    const context = await browser.newContext({ viewport: { width: 1400, height: 1000 }, acceptDownloads: true });
    page = await context.newPage();
    page.on('request', (r) => requested.push(r.url()));
  }, 120_000);
  afterAll(async () => {
    await browser?.close();
    await app?.close();
  });

  it('refuses a token without the analytics scope, and signs in with one', async () => {
    await page.goto(`${app.baseUrl}/dashboard`);
    await page.fill('#token', org.ingestToken);
    await page.click('#sign-in button[type=submit]');
    await expect.poll(() => page.textContent('#sign-in-error')).toBe('This token cannot read analytics.');
    expect(await page.evaluate(() => sessionStorage.getItem('folio.analyticsToken'))).toBeNull();
    await page.screenshot({ path: path.join(ARTIFACTS, '1-sign-in-refused.png') });

    await page.fill('#token', org.analyticsToken);
    await page.click('#sign-in button[type=submit]');
    await page.waitForSelector('#dashboard:not([hidden])');
    expect(await page.evaluate(() => sessionStorage.getItem('folio.analyticsToken'))).toBe(org.analyticsToken);
    expect(await page.$$eval('#distribution option', (os) => os.map((o) => (o as HTMLOptionElement).value))).toEqual(['staging', 'web']);
  });

  it('draws every chart of the chosen distribution with as many points as the REST API has numbers', async () => {
    await page.selectOption('#distribution', 'web');
    await page.waitForFunction(() => document.querySelectorAll('.panel').length === 13 && [...document.querySelectorAll('.panel')].every((p) => (p as HTMLElement).dataset.state === 'ready'), undefined, { timeout: 30_000 });
    const window = await page.evaluate(() => ({ from: document.getElementById('dashboard')!.dataset.from!, to: document.getElementById('dashboard')!.dataset.to! }));
    const overview = await rest('', window);
    const points = async (id: string) => Number(await page.getAttribute(`[data-panel="${id}"]`, 'data-points'));
    for (const id of ['requests', 'bytes', 'hit-ratio']) {
      expect(await points(id), id).toBe(overview.aggregatesPerInterval.length);
      // uPlot drew it: a canvas of the panel's width
      expect(await page.$$eval(`[data-panel="${id}"] canvas`, (cs) => cs.length), id).toBe(1);
    }
    expect(overview.aggregatesPerInterval.length).toBeGreaterThanOrEqual(20);
    const live = await app.json(`/api/v1/projects/${org.projectId}/distributions/web/analytics/realtime`, { token: org.analyticsToken });
    expect(await points('live')).toBe(live.body.result.perMinute.length);
    expect(await points('live')).toBe(30);
    for (const [id, b] of Object.entries(BARS)) {
      const expected = b.rows(await rest(b.report, window));
      expect(expected.length, id).toBeGreaterThan(0);
      expect(await page.$$eval(`[data-panel="${id}"] .bar`, (bs) => bs.length), id).toBe(expected.length);
      expect(await page.$$eval(`[data-panel="${id}"] .bar .name`, (ns) => ns.map((n) => n.textContent)), id).toEqual(expected.map((r) => r[0]));
    }
    // no goal or funnel is defined here: their panels say so
    for (const id of ['goals', 'funnels']) expect(await page.textContent(`[data-panel="${id}"] .note`), id).toMatch(/^No (goals|funnels) defined/);
    expect(await page.$$eval('[data-panel="entries"] .bar .name', (ns) => ns.map((n) => n.textContent).sort())).toEqual(['Article A', 'Article B', 'Article C']);
    const totals = await page.$$eval('#totals .total', (ts) => ts.map((t) => t.textContent));
    expect(totals[0]).toBe(`${overview.aggregatesPerInterval.reduce((n: number, a: any) => n + a.numberOfRequests, 0).toLocaleString('en')}Requests`);
    await page.screenshot({ path: path.join(ARTIFACTS, '2-dashboard.png'), fullPage: true });
  });

  it('downloads each chart\'s numbers as CSV, equal to the REST numbers', async () => {
    const window = await page.evaluate(() => ({ from: document.getElementById('dashboard')!.dataset.from!, to: document.getElementById('dashboard')!.dataset.to! }));
    const download = async (id: string) => {
      const [file] = await Promise.all([page.waitForEvent('download'), page.click(`[data-csv="${id}"]`)]);
      expect(file.suggestedFilename()).toBe(`web-${id}.csv`);
      return parseCsv(await readFile((await file.path())!, 'utf8'));
    };
    const overview = await rest('', window);
    expect(await download('requests')).toEqual([['time', 'requests'], ...overview.aggregatesPerInterval.map((a: any) => [a.time, String(a.numberOfRequests)])]);
    expect(await download('bytes')).toEqual([['time', 'bytes'], ...overview.aggregatesPerInterval.map((a: any) => [a.time, String(a.bytes)])]);
    expect(await download('hit-ratio')).toEqual([['time', 'hitRatio'], ...overview.aggregatesPerInterval.map((a: any) => [a.time, String(a.hitRatio)])]);
    expect(await download('paths')).toEqual([['path', 'requests'], ...BARS.paths.rows(await rest('/path', window)).map(([n, c]) => [n, String(c)])]);
    const referers = BARS.referers.rows(await rest('/referers', window));
    expect(referers.map(([n]) => n)).toContain('=1+2');
    // a text cell that starts like a formula is written with a leading ' (OWASP), so it stays text
    expect(await download('referers')).toEqual([['referer', 'requests'], ...referers.map(([n, c]) => [/^[=+\-@\t\r]/.test(n) ? `'${n}` : n, String(c)])]);
  });

  it('loads nothing from another origin, keeps the token for the tab only, and signs out', async () => {
    expect(requested.length).toBeGreaterThan(10);
    expect(requested.filter((u) => !u.startsWith(app.baseUrl) && !u.startsWith('blob:'))).toEqual([]);
    // a reload keeps the session; a new tab (another context) starts signed out
    await page.reload();
    await page.waitForSelector('#dashboard:not([hidden])');
    const other = await browser.newPage();
    await other.goto(`${app.baseUrl}/dashboard`);
    expect(await other.isVisible('#sign-in')).toBe(true);
    await other.close();
    await page.click('#sign-out');
    expect(await page.isVisible('#sign-in')).toBe(true);
    expect(await page.evaluate(() => sessionStorage.getItem('folio.analyticsToken'))).toBeNull();
    for (const f of ['1-sign-in-refused.png', '2-dashboard.png']) expect((await stat(path.join(ARTIFACTS, f))).size).toBeGreaterThan(10_000);
  });
});
