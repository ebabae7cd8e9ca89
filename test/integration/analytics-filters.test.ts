import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { generateTraffic, ndjson, toCanonical, type TrafficEvent } from '../fixtures/cdn-logs/traffic.js';
import { startTestApp, type TestApp } from '../support/harness.js';
import { BOTS, DAY, HOUR, agentOf, continentOf, expected, isBot, refererHost, topN } from './analytics-expected.js';
import { allAnalytics, createAnalyticsOrg, createDistribution, pushLogs, waitForSpool, type AnalyticsOrg } from './ingest-support.js';

// Filters, comparisons and campaigns: every filtered report equals the unfiltered computation of
// analytics-expected.ts over the lines a plain predicate keeps; campaigns are counted here from
// the query strings pushed.

const MINUTE = 60_000;
const country = (e: TrafficEvent) => e.country ?? 'XX';
/** utm_source, else source, else ref: what ingest reads from the query string. */
const campaign = (e: TrafficEvent) => {
  const q = new URLSearchParams(e.query);
  return { source: q.get('utm_source') ?? q.get('source') ?? q.get('ref') ?? '', medium: q.get('utm_medium') ?? '', campaign: q.get('utm_campaign') ?? '' };
};

const SOURCES = ['google', 'newsletter', 'hn'];

describe('analytics filters, comparison and campaigns', () => {
  let app: TestApp;
  let org: AnalyticsOrg;
  let other: AnalyticsOrg;
  const start = Math.floor(Date.now() / DAY) * DAY - 20 * DAY;
  const all: TrafficEvent[] = generateTraffic({
    count: 2500,
    startMs: start,
    spanMs: 12 * DAY,
    seed: 50,
    countries: ['NL', 'NL', 'DE', 'US', 'BR', 'JP', 'FR', 'GB'],
  }).map((e, i) => ({
    ...e,
    userAgent: i % 7 === 0 ? BOTS[i % 3 === 0 ? 0 : i % 2].ua : e.userAgent,
    status: i % 13 === 0 ? 500 + (i % 4) : e.status,
    query:
      i % 5 === 0
        ? `utm_source=${SOURCES[i % 3]}&utm_medium=${i % 2 ? 'email' : 'cpc'}&utm_campaign=${i % 4 ? 'spring' : 'launch'}&utm_term=x&utm_content=y`
        : i % 11 === 0
          ? 'ref=producthunt&page=2'
          : e.query,
  }));
  const iso = (ms: number) => new Date(ms).toISOString();
  const windows = [
    { name: 'days with partial edges', from: start + 4 * DAY + 3 * HOUR + 17_000, to: start + 8 * DAY + 5 * HOUR, interval: 'day' },
    { name: 'hours inside one day', from: start + 6 * DAY + HOUR + 12 * MINUTE, to: start + 6 * DAY + 9 * HOUR + 7 * MINUTE, interval: 'hour' },
  ];
  const filters: Array<{ query: string; keep: (e: TrafficEvent) => boolean; source: 'raw' | 'rollup' }> = [
    { query: 'country=nl', keep: (e) => country(e) === 'NL', source: 'raw' },
    { query: 'continent=EU', keep: (e) => continentOf(country(e)) === 'EU', source: 'raw' },
    { query: 'device=mobile&country=US', keep: (e) => agentOf.get(e.userAgent)!.device === 'mobile' && country(e) === 'US', source: 'raw' },
    { query: 'browser=Chrome&os=Android', keep: (e) => agentOf.get(e.userAgent)!.browser === 'Chrome' && agentOf.get(e.userAgent)!.os === 'Android', source: 'raw' },
    { query: 'path=%2Farticles%2Fpricing', keep: (e) => e.path === '/articles/pricing', source: 'raw' },
    { query: 'pathPrefix=/img/', keep: (e) => e.path.startsWith('/img/'), source: 'raw' },
    { query: 'pathPattern=/*/intro*', keep: (e) => e.path.split('/').length === 3 && e.path.split('/')[2].startsWith('intro'), source: 'raw' },
    { query: 'pathPattern=/**.j*&country=NL', keep: (e) => e.path.includes('.j') && country(e) === 'NL', source: 'raw' },
    { query: 'referrer=T.CO', keep: (e) => refererHost(e.referer) === 't.co', source: 'raw' },
    { query: 'status=5xx', keep: (e) => e.status >= 500, source: 'raw' },
    { query: 'status=503', keep: (e) => e.status === 503, source: 'raw' },
    { query: 'cacheStatus=hit', keep: (e) => e.cache === 'HIT', source: 'raw' },
    { query: 'bot=true', keep: isBot, source: 'raw' },
    { query: 'bot=false', keep: (e) => !isBot(e), source: 'rollup' },
    { query: 'utmSource=google', keep: (e) => campaign(e).source === 'google', source: 'raw' },
    { query: 'utmMedium=email&utmCampaign=spring', keep: (e) => campaign(e).medium === 'email' && campaign(e).campaign === 'spring', source: 'raw' },
    { query: 'country=NL&device=desktop&status=2xx', keep: (e) => country(e) === 'NL' && agentOf.get(e.userAgent)!.device === 'desktop' && e.status < 300 && e.status >= 200, source: 'raw' },
  ];
  const url = (dist: string, report: string, query: string, o = org) => `/api/v1/projects/${o.projectId}/distributions/${dist}/analytics${report}?${query}`;

  beforeAll(async () => {
    app = await startTestApp();
    org = await createAnalyticsOrg(app);
    other = await createAnalyticsOrg(app);
    await createDistribution(app, org, 'cdn');
    await createDistribution(app, org, 'live');
    await createDistribution(app, other, 'cdn');
    const res = await pushLogs(app, org.ingestToken, 'cdn', ndjson(all.map(toCanonical)));
    if (res.status !== 200 || res.body.result.accepted !== all.length) throw new Error(JSON.stringify(res.body));
    await waitForSpool(app, org.orgId);
  });
  afterAll(async () => {
    await app?.close();
  });

  for (const w of windows) {
    it.each(filters)(`${w.name}: $query`, async (f) => {
      const got = await allAnalytics(app, org, 'cdn', `from=${iso(w.from)}&to=${iso(w.to)}&${f.query}`);
      const want = expected(all.filter(f.keep), w.from, w.to, w.interval, 7);
      expect(got).toEqual(Object.fromEntries(Object.entries(want).map(([k, v]) => [k, { ...v, source: f.source }])));
    });
  }

  it('campaigns: sources (utm_source, source, ref), mediums and campaigns like referrers, filtered too', async () => {
    const w = windows[0];
    for (const [query, keep] of [
      ['', () => true],
      ['&country=NL', (e: TrafficEvent) => country(e) === 'NL'],
      ['&utmSource=newsletter', (e: TrafficEvent) => campaign(e).source === 'newsletter'],
    ] as const) {
      const res = await app.json(url('cdn', '/campaigns', `from=${iso(w.from)}&to=${iso(w.to)}&TermCount=3${query}`), { token: org.analyticsToken });
      expect(res.status).toBe(200);
      const inside = all.filter((e) => e.timestampMs >= w.from && e.timestampMs < w.to && keep(e));
      expect(res.body.result).toEqual({
        sources: topN(inside.map((e) => campaign(e).source), 3, inside.length),
        mediums: topN(inside.map((e) => campaign(e).medium), 3, inside.length),
        campaigns: topN(inside.map((e) => campaign(e).campaign), 3, inside.length),
        ...(query === '' ? {} : { source: 'raw' }),
      });
      expect(res.body.result.sources.buckets.length).toBeGreaterThan(0);
    }
    // the query string stays out of the path report
    const paths = await app.json(url('cdn', '/path', `from=${iso(w.from)}&to=${iso(w.to)}&termCount=100`), { token: org.analyticsToken });
    expect(paths.body.result.paths.buckets.filter((b: { name: string }) => b.name.includes('?') || b.name.includes('utm_'))).toEqual([]);
  });

  it('compare=previous: the same report over the period just before, and the change per figure', async () => {
    const from = start + 7 * DAY + 2 * HOUR;
    const to = start + 10 * DAY + 2 * HOUR;
    const before = { from: from - (to - from), to: from };
    const keep = (e: TrafficEvent) => country(e) === 'NL';
    for (const [query, events, source] of [
      ['', all, 'rollup'],
      ['&country=NL', all.filter(keep), 'raw'],
    ] as const) {
      const res = await app.json(url('cdn', '', `from=${iso(from)}&to=${iso(to)}&compare=previous${query}`), { token: org.analyticsToken });
      expect(res.status).toBe(200);
      const now = expected(events, from, to, 'day', 7).overview;
      const then = expected(events, before.from, before.to, 'day', 7).overview;
      const { previous, change, source: got, ...current } = res.body.result;
      expect(got).toBe(source);
      expect(current).toEqual(now);
      expect(previous).toEqual(then);
      expect(then.totalBytes).toBeGreaterThan(0);
      const rel = (a: number, b: number) => (b === 0 ? null : Math.round(((a - b) / b) * 10_000) / 10_000);
      for (const k of ['totalBytes', 'hits', 'misses', 'uniqueVisitors', 'botRequests', 'averageServeTime'] as const) {
        expect(change[k], k).toEqual({ absolute: now[k] - then[k], relative: rel(now[k], then[k]) });
      }
      expect(change.topReferers.otherCount).toEqual({ absolute: now.topReferers.otherCount - then.topReferers.otherCount, relative: rel(now.topReferers.otherCount, then.topReferers.otherCount) });
      for (const b of now.topReferers.buckets) {
        const p = then.topReferers.buckets.find((x) => x.name === b.name);
        expect(change.topReferers.buckets[b.name]).toEqual(p ? { count: { absolute: b.count - p.count, relative: rel(b.count, p.count) } } : undefined);
      }
    }
    // a window starting at 1970-01-01 has no period before it
    const epoch = await app.json(url('cdn', '/geo', 'from=1970-01-01T00:00:00Z&to=1970-01-02T00:00:00Z&compare=previous&country=NL'), { token: org.analyticsToken });
    expect(epoch.body.result).toEqual({ continents: { otherCount: 0, buckets: [] }, countries: { otherCount: 0, buckets: [] }, source: 'raw', previous: null, change: null });
    // a figure 0 before has no relative change
    const empty = await app.json(url('cdn', '/status', `from=${iso(start)}&to=${iso(start + DAY)}&compare=previous`), { token: org.analyticsToken });
    const firstDay = all.filter((e) => e.timestampMs < start + DAY).length;
    expect(empty.body.result.change.statusCodes.otherCount.relative).toBeNull();
    expect(empty.body.result.previous.statusClasses.buckets.every((b: { count: number }) => b.count === 0)).toBe(true);
    expect(empty.body.result.statusClasses.buckets.reduce((n: number, b: { count: number }) => n + b.count, 0)).toBe(firstDay);
  });

  it('compare=<from>/<to>: the same report over a given period, of any length', async () => {
    const from = start + 7 * DAY + 2 * HOUR;
    const to = start + 10 * DAY + 2 * HOUR;
    const other = { from: start + HOUR, to: start + 2 * DAY + 5 * HOUR };
    for (const [query, events] of [
      ['', all],
      ['&pathPattern=/articles/*&country=NL', all.filter((e) => e.path.startsWith('/articles/') && country(e) === 'NL')],
    ] as const) {
      const res = await app.json(url('cdn', '', `from=${iso(from)}&to=${iso(to)}&compare=${iso(other.from)}/${iso(other.to)}${query}`), { token: org.analyticsToken });
      expect(res.status, JSON.stringify(res.body)).toBe(200);
      const now = expected(events, from, to, 'day', 7).overview;
      const then = expected(events, other.from, other.to, 'day', 7).overview;
      const { previous, change } = res.body.result;
      expect(previous).toEqual(then);
      expect(then.totalBytes).toBeGreaterThan(0);
      expect(change.totalBytes.absolute).toBe(now.totalBytes - then.totalBytes);
      expect(change.uniqueVisitors.absolute).toBe(now.uniqueVisitors - then.uniqueVisitors);
    }
    // breakdowns too, and the comparison may lie after the window
    const geo = await app.json(url('cdn', '/geo', `from=${iso(other.from)}&to=${iso(other.to)}&compare=${iso(from)}/${iso(to)}&pathPattern=/articles/*`), { token: org.analyticsToken });
    const inPeriod = (a: number, b: number) => all.filter((e) => e.timestampMs >= a && e.timestampMs < b && e.path.startsWith('/articles/'));
    expect(geo.body.result.previous.countries).toEqual(topN(inPeriod(from, to).map(country), 7, inPeriod(from, to).length));
    expect(geo.body.result.countries).toEqual(topN(inPeriod(other.from, other.to).map(country), 7, inPeriod(other.from, other.to).length));
    // real time has no other period than the 30 minutes before
    const rt = await app.json(url('cdn', '/realtime', `compare=${iso(other.from)}/${iso(other.to)}`), { token: org.analyticsToken });
    expect([rt.status, rt.body.success, rt.body.errors[0]]).toEqual([400, false, expect.stringMatching(/^compare: /)]);
  });

  it('realtime: filtered from the raw lines of the last 30 minutes, with the 30 before compared', async () => {
    const now = Date.now();
    const recent = generateTraffic({ count: 300, startMs: now - 55 * MINUTE, spanMs: 54 * MINUTE, seed: 51, countries: ['NL', 'DE'] }).map((e, i) => ({
      ...e,
      status: i % 4 === 0 ? 502 : 200,
    }));
    expect((await pushLogs(app, org.ingestToken, 'live', ndjson(recent.map(toCanonical)))).status).toBe(200);
    await waitForSpool(app, org.orgId);
    const res = await app.json(url('live', '/realtime', 'status=5xx&country=DE&compare=previous'), { token: org.analyticsToken });
    expect(res.status).toBe(200);
    const first = Date.parse(res.body.result.from);
    const kept = recent.filter((e) => e.status >= 500 && country(e) === 'DE');
    const count = (a: number, b: number) => kept.filter((e) => e.timestampMs >= a && e.timestampMs < b).length;
    expect(res.body.result.source).toBe('raw');
    expect(res.body.result.numberOfRequests).toBe(count(first, first + 30 * MINUTE));
    expect(res.body.result.previous.numberOfRequests).toBe(count(first - 30 * MINUTE, first));
    expect(res.body.result.perMinute.reduce((n: number, m: { serverErrors: number }) => n + m.serverErrors, 0)).toBe(res.body.result.numberOfRequests);
    expect(res.body.result.numberOfRequests).toBeGreaterThan(0);
  });

  it('entries and assets take the filters too, entry and asset among them', async () => {
    const m = (path: string, init: { method?: string; body?: unknown } = {}) => app.json(`/management/v1${path}`, { token: org.manageToken, ...init });
    await createDistribution(app, org, 'pages');
    const site = (await m('/sites', { body: { name: 'Magazine' } })).body.result.id as string;
    expect((await m('/models/article', { method: 'PUT', body: { titleField: 'title', fields: [{ alias: 'title', type: 'text', required: true }] } })).status).toBe(201);
    const entryId = async (slug: string, title: string) =>
      (await m('/entries', { body: { status: 'PUBLISHED', model: 'article', siteId: site, slug, fields: { title } } })).body.result.id as string;
    const one = await entryId('one', 'One');
    const two = await entryId('two', 'Two');
    expect((await m(`/sites/${site}/url-patterns`, { method: 'PUT', body: { patterns: [{ pattern: '/articles/{slug}', model: 'article' }] } })).status).toBe(200);
    const assetA = 'assetaaaaaaaaaaaaaaa';
    const assetB = 'assetbbbbbbbbbbbbbbb';
    const at = Date.now() - 2 * HOUR;
    const lines = [
      ...Array.from({ length: 6 }, (_, i) => ({ path: '/articles/one?utm_source=hn', country: i % 3 ? 'DE' : 'NL', ip: `203.0.113.${i}` })),
      ...Array.from({ length: 3 }, (_, i) => ({ path: '/articles/two', country: i ? 'NL' : 'DE', ip: `203.0.113.${10 + i}` })),
      ...Array.from({ length: 5 }, (_, i) => ({ path: `/img/SIG/${org.orgId}/${assetA}/v1/w_800.webp`, country: i % 2 ? 'DE' : 'NL', ip: '198.51.100.1' })),
      ...Array.from({ length: 2 }, () => ({ path: `/img/SIG/${org.orgId}/${assetB}/v1/w_200.avif`, country: 'DE', ip: '198.51.100.2' })),
    ];
    const rows = lines.map((l, i) => ({
      timestamp: new Date(at + i * 1000).toISOString(), clientIp: l.ip, method: 'GET', host: 'h', path: l.path, status: 200, bytes: 100 + i, serveTimeMs: 1,
      cacheStatus: 'HIT', referer: '', userAgent: 'Mozilla/5.0 (X11; Linux x86_64; rv:132.0) Gecko/20100101 Firefox/132.0', country: l.country,
    }));
    expect((await pushLogs(app, org.ingestToken, 'pages', ndjson(rows))).body.result).toMatchObject({ accepted: rows.length });
    await waitForSpool(app, org.orgId);
    const window = `from=${iso(at - HOUR)}&to=${iso(at + HOUR)}`;
    const get = async (report: string, query: string) => {
      const res = await app.json(url('pages', report, `${window}&${query}`), { token: org.analyticsToken });
      expect(res.status, JSON.stringify(res.body)).toBe(200);
      return res.body.result;
    };
    const sum = (keep: (r: (typeof rows)[number]) => boolean) => ({ n: rows.filter(keep).length, bytes: rows.filter(keep).reduce((n, r) => n + r.bytes, 0) });
    const de = (r: (typeof rows)[number]) => r.country === 'DE';
    const onePath = (r: (typeof rows)[number]) => r.path.startsWith('/articles/one');
    const twoPath = (r: (typeof rows)[number]) => r.path === '/articles/two';
    const entryOf = (keep: (r: (typeof rows)[number]) => boolean, id: string, title: string) => ({
      id, model: 'article', title, requests: sum(keep).n, bytes: sum(keep).bytes, visitors: new Set(rows.filter(keep).map((r) => r.clientIp)).size,
    });
    expect(await get('/entries', 'country=DE')).toEqual({
      requests: sum((r) => de(r) && (onePath(r) || twoPath(r))).n,
      bytes: sum((r) => de(r) && (onePath(r) || twoPath(r))).bytes,
      entries: [entryOf((r) => de(r) && onePath(r), one, 'One'), entryOf((r) => de(r) && twoPath(r), two, 'Two')],
      otherRequests: 0,
      source: 'raw',
    });
    expect((await get('/entries', `entry=${two}`)).entries).toEqual([entryOf(twoPath, two, 'Two')]);
    expect((await get('', `entry=${one}&utmSource=hn`)).aggregatesPerInterval.reduce((n: number, i: { numberOfRequests: number }) => n + i.numberOfRequests, 0)).toBe(6);
    const assets = await get('/assets', 'country=DE');
    expect(assets.assets.map((a: { id: string; requests: number }) => [a.id, a.requests])).toEqual([[assetA, 2], [assetB, 2]]);
    expect(assets.formats.map((f: { format: string; requests: number }) => [f.format, f.requests])).toEqual([['avif', 2], ['webp', 2]]);
    const onlyA = await get('/assets', `asset=${assetA}`);
    expect([onlyA.requests, onlyA.assets.map((a: { id: string }) => a.id)]).toEqual([5, [assetA]]);
    expect((await get('/geo', `asset=${assetB}`)).countries.buckets).toEqual([{ name: 'DE', count: 2 }]);
  });

  it('refuses bad values with a 400 naming the parameter', async () => {
    for (const [query, name] of [
      ['country=Germany', 'country'],
      ['continent=EA', 'continent'],
      ['status=6xx', 'status'],
      ['status=20', 'status'],
      ['path=pricing', 'path'],
      ['pathPrefix=/a?b', 'pathPrefix'],
      ['referrer=http://x.com/', 'referrer'],
      ['bot=yes', 'bot'],
      ['cacheStatus=HIT;DROP', 'cacheStatus'],
      ['entry=a%27b', 'entry'],
      ['asset=../x', 'asset'],
      ['utmSource=a%0Ab', 'utmSource'],
      ['country=NL&country=DE', 'country'],
      ['compare=last-year', 'compare'],
      ['pathPattern=articles/*', 'pathPattern'],
      ['pathPattern=/a/***', 'pathPattern'],
      ['compare=2026-01-02T00:00:00Z/2026-01-01T00:00:00Z', 'compare'],
      ['compare=2026-01-01T00:00:00Z/soon', 'compare'],
      ['compare=2026-01-01/2026-01-02/2026-01-03', 'compare'],
    ] as const) {
      for (const report of ['', '/path', '/campaigns', '/realtime']) {
        const res = await app.json(url('cdn', report, query), { token: org.analyticsToken });
        expect({ query, report, status: res.status, success: res.body.success }).toEqual({ query, report, status: 400, success: false });
        expect(res.body.errors[0]).toMatch(new RegExp(`^${name}: `));
      }
    }
  });

  it("another organization's token sees none of it, filtered or not", async () => {
    for (const report of ['', '/campaigns', '/geo']) {
      const res = await app.json(url('cdn', report, 'country=NL&compare=previous'), { token: other.analyticsToken });
      expect(res.status).toBe(404);
      expect(res.body.success).toBe(false);
    }
    // its own distribution of the same id has no lines
    const own = await app.json(url('cdn', '/campaigns', 'utmSource=google', other), { token: other.analyticsToken });
    expect(own.status).toBe(200);
    expect(own.body.result).toEqual({ sources: { otherCount: 0, buckets: [] }, mediums: { otherCount: 0, buckets: [] }, campaigns: { otherCount: 0, buckets: [] }, source: 'raw' });
  });
});
