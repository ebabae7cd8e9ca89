import { readFile } from 'node:fs/promises';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { hasNginx, startNginx, type Nginx } from '../support/nginx.js';
import { startTestApp, type TestApp } from '../support/harness.js';
import { createAnalyticsOrg, createDistribution, pushLogs, waitForSpool, type AnalyticsOrg } from '../integration/ingest-support.js';

/**
 * Debian's nginx serves requests of browsers and bots with several statuses and writes its access
 * log (combined format); the file is pushed to Folio as it is, and every figure of the status,
 * bots, overview and entries reports equals a count made here from the file's own lines.
 */
if (!hasNginx) console.warn('skipping the nginx log analytics test: needs /usr/sbin/nginx (.ci/run installs it)');

const AGENTS = {
  chrome: 'Mozilla/5.0 (Windows NT 10.0; Win64; x64) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/131.0.0.0 Safari/537.36',
  firefox: 'Mozilla/5.0 (X11; Linux x86_64; rv:132.0) Gecko/20100101 Firefox/132.0',
  googlebot: 'Mozilla/5.0 (compatible; Googlebot/2.1; +http://www.google.com/bot.html)',
  bingbot: 'Mozilla/5.0 (compatible; bingbot/2.0; +http://www.bing.com/bingbot.htm)',
  curl: 'curl/8.5.0',
};
/** The bots among the agents in the file, by name (`node` is the agent of the test's readiness probe). */
const BOT_NAMES: Record<string, string> = { [AGENTS.googlebot]: 'Googlebot', [AGENTS.bingbot]: 'bingbot', [AGENTS.curl]: 'curl', node: 'node' };
const PATHS: Array<[string, number]> = [
  ['/articles/launch', 200],
  ['/articles/pricing', 200],
  ['/img/hero.jpg', 200],
  ['/missing/page', 404],
  ['/gone', 410],
  ['/broken', 500],
  ['/unavailable', 503],
];

interface Line {
  ip: string;
  path: string;
  status: number;
  bytes: number;
  ua: string;
}
const COMBINED = /^(\S+) \S+ \S+ \[[^\]]+\] "\S+ (\S+)[^"]*" (\d{3}) (\d+|-) "[^"]*" "([^"]*)"$/;

function topN(values: string[], n: number, total: number) {
  const counts = new Map<string, number>();
  for (const v of values) counts.set(v, (counts.get(v) ?? 0) + 1);
  const buckets = [...counts]
    .map(([name, count]) => ({ name, count }))
    .sort((a, b) => b.count - a.count || (a.name < b.name ? -1 : 1))
    .slice(0, n);
  return { otherCount: total - buckets.reduce((s, b) => s + b.count, 0), buckets };
}

describe.runIf(hasNginx)('a real nginx access log: statuses, bots and visitors as counted from the file', () => {
  let app: TestApp;
  let org: AnalyticsOrg;
  let nginx: Nginx;
  let lines: Line[];
  const entryIds: Record<string, string> = {};

  beforeAll(async () => {
    app = await startTestApp();
    org = await createAnalyticsOrg(app);
    await createDistribution(app, org, 'nginx');
    // the two article pages are entries of a site that names them by /articles/{slug}
    const m = (p: string, init: { method?: string; body?: unknown }) => app.json(`/management/v1${p}`, { token: org.manageToken, ...init });
    const site = (await m('/sites', { body: { name: 'Web' } })).body.result.id;
    await m('/models/article', { method: 'PUT', body: { titleField: 'title', fields: [{ alias: 'title', type: 'text' }] } });
    for (const slug of ['launch', 'pricing']) {
      const created = await m('/entries', { body: { model: 'article', siteId: site, slug, status: 'PUBLISHED', fields: { title: `The ${slug} page` } } });
      entryIds[slug] = created.body.result.id;
    }
    expect((await m(`/sites/${site}/url-patterns`, { method: 'PUT', body: { patterns: [{ pattern: '/articles/{slug}', model: 'article' }] } })).status).toBe(200);
    nginx = await startNginx({
      server: (_port, dir) =>
        `    access_log ${dir}/access.log combined;\n` +
        PATHS.map(([p, status]) => `    location = ${p} { return ${status} "${'x'.repeat(p.length * 7)}\\n"; }\n`).join('') +
        '    location / { return 200 "home\\n"; }',
    });
    // a skewed mix: each agent asks for the paths it asks for a different number of times
    let i = 0;
    for (const [name, ua] of Object.entries(AGENTS)) {
      for (const [k, [p]] of PATHS.entries()) {
        for (let n = 0; n < ((i + k) % 4) + 1; n++) {
          await fetch(`${nginx.url}${p}?q=${n}`, { headers: { 'user-agent': ua, referer: name === 'chrome' ? 'https://www.google.com/' : '' } });
        }
      }
      i++;
    }
    await new Promise((r) => setTimeout(r, 300)); // nginx writes its log lines as it answers
    const text = await readFile(path.join(nginx.dir, 'access.log'), 'utf8');
    lines = text
      .trim()
      .split('\n')
      .map((l) => {
        const m = COMBINED.exec(l);
        if (!m) throw new Error(`not a combined line: ${l}`);
        return { ip: m[1], path: m[2].split('?')[0], status: Number(m[3]), bytes: m[4] === '-' ? 0 : Number(m[4]), ua: m[5] === '-' ? '' : m[5] };
      });
    const pushed = await pushLogs(app, org.ingestToken, 'nginx', text, { contentType: 'text/plain' });
    expect(pushed.body.result).toMatchObject({ accepted: lines.length, rejected: 0 });
    await waitForSpool(app, org.orgId);
  }, 60_000);

  afterAll(async () => {
    await nginx?.stop();
    await app?.close();
  });

  const report = async (suffix: string, query = '') => {
    const window = `from=${new Date(Date.now() - 3_600_000).toISOString()}&to=${new Date(Date.now() + 60_000).toISOString()}&TermCount=20`;
    const res = await app.json(`/api/v1/projects/${org.projectId}/distributions/nginx/analytics${suffix}?${window}${query}`, { token: org.analyticsToken });
    expect(res.status).toBe(200);
    return res.body.result;
  };

  it('status: classes, codes and the paths of 4xx and 5xx answers', async () => {
    expect(lines.length).toBeGreaterThan(80);
    const inClass = (c: number) => lines.filter((l) => Math.floor(l.status / 100) === c);
    expect(await report('/status')).toEqual({
      statusClasses: { otherCount: 0, buckets: [1, 2, 3, 4, 5].map((c) => ({ name: `${c}xx`, count: inClass(c).length })) },
      statusCodes: topN(lines.map((l) => String(l.status)), 20, lines.length),
      clientErrorPaths: topN(inClass(4).map((l) => l.path), 20, inClass(4).length),
      serverErrorPaths: topN(inClass(5).map((l) => l.path), 20, inClass(5).length),
    });
  });

  it('bots: human and bot requests and bytes, bots by name', async () => {
    const bots = lines.filter((l) => BOT_NAMES[l.ua]);
    const humans = lines.filter((l) => !BOT_NAMES[l.ua]);
    const sum = (ls: Line[]) => ls.reduce((s, l) => s + l.bytes, 0);
    expect(await report('/bots')).toEqual({
      humanRequests: humans.length,
      humanBytes: sum(humans),
      botRequests: bots.length,
      botBytes: sum(bots),
      topBots: topN(bots.map((l) => BOT_NAMES[l.ua]), 20, bots.length),
    });
  });

  it('overview: requests, bytes, visitors and bots, with and without bots', async () => {
    for (const excludeBots of [false, true]) {
      const counted = excludeBots ? lines.filter((l) => !BOT_NAMES[l.ua]) : lines;
      const got = await report('', excludeBots ? '&excludeBots=true' : '');
      expect({
        requests: got.aggregatesPerInterval.reduce((s: number, i: { numberOfRequests: number }) => s + i.numberOfRequests, 0),
        totalBytes: got.totalBytes,
        uniqueVisitors: got.uniqueVisitors,
        botRequests: got.botRequests,
      }).toEqual({
        requests: counted.length,
        totalBytes: counted.reduce((s, l) => s + l.bytes, 0),
        uniqueVisitors: new Set(counted.map((l) => `${l.ip}|${l.ua}`)).size,
        botRequests: excludeBots ? 0 : lines.filter((l) => BOT_NAMES[l.ua]).length,
      });
      const paths = await report('/path', excludeBots ? '&excludeBots=true' : '');
      expect(paths.paths).toEqual(topN(counted.map((l) => l.path), 20, counted.length));
    }
  });

  it('entries: requests, bytes and visitors of the pages a URL pattern names', async () => {
    const of = (slug: string) => {
      const mine = lines.filter((l) => l.path === `/articles/${slug}`);
      return {
        id: entryIds[slug],
        model: 'article',
        title: `The ${slug} page`,
        requests: mine.length,
        bytes: mine.reduce((s, l) => s + l.bytes, 0),
        visitors: new Set(mine.map((l) => `${l.ip}|${l.ua}`)).size, // one UTC day, one distribution
      };
    };
    const entries = [of('launch'), of('pricing')].sort((a, b) => b.requests - a.requests || (a.id < b.id ? -1 : 1));
    const requests = entries.reduce((s, e) => s + e.requests, 0);
    expect(requests).toBeGreaterThan(10);
    expect(await report('/entries')).toEqual({ requests, bytes: entries.reduce((s, e) => s + e.bytes, 0), entries, otherRequests: 0 });
  });
});
