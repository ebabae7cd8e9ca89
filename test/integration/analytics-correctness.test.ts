import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { generateTraffic, ndjson, toCanonical } from '../fixtures/cdn-logs/traffic.js';
import { startTestApp, type TestApp } from '../support/harness.js';
import { BOTS, DAY, HOUR, expected } from './analytics-expected.js';
import { allAnalytics, createAnalyticsOrg, createDistribution, pushLogs, waitForSpool, type AnalyticsOrg } from './ingest-support.js';

// Every figure of every endpoint must equal a computation made here, straight from the events.
describe('analytics: every figure equals an independent computation', () => {
  let app: TestApp;
  let org: AnalyticsOrg;
  const start = Math.floor(Date.now() / DAY) * DAY - 40 * DAY;
  const events = generateTraffic({
    count: 3000,
    startMs: start,
    spanMs: 38 * DAY,
    seed: 42,
    countries: ['NL', 'NL', 'DE', 'US', 'BR', 'JP', 'ZA', 'AU', 'CA', 'FR', 'AQ', 'IN'],
  }).map((e, i) => ({
    ...e,
    // known bots, more of some than others, and server errors on some paths
    userAgent: i % 7 === 0 ? BOTS[i % 3 === 0 ? 0 : i % 2].ua : e.userAgent,
    status: i % 13 === 0 ? 500 + (i % 4) : e.status,
  }));
  // a burst inside a few hours so hourly windows have traffic at partial-hour edges
  const burst = generateTraffic({ count: 800, startMs: start + 5 * DAY + 3 * HOUR, spanMs: 5 * HOUR, seed: 43, countries: ['NL', 'US'] });
  // values seen only late on that day, outside the "most of one day" window below
  const late = generateTraffic({ count: 6, startMs: start + 5 * DAY + 22 * HOUR, spanMs: HOUR, seed: 44, countries: ['IS'] }).map((e) => ({
    ...e,
    path: '/late-only.jpg',
    query: '',
    referer: 'https://late-only.example/',
  }));
  const all = [...events, ...burst, ...late];

  beforeAll(async () => {
    app = await startTestApp();
    org = await createAnalyticsOrg(app);
    await createDistribution(app, org, 'cdn');
    // three batches, one gzipped
    const rows = all.map(toCanonical);
    for (const [i, part] of [rows.slice(0, 1500), rows.slice(1500, 3000), rows.slice(3000)].entries()) {
      const res = await pushLogs(app, org.ingestToken, 'cdn', ndjson(part), { gzip: i === 1 });
      if (res.status !== 200 || res.body.result.accepted !== part.length) throw new Error(JSON.stringify(res.body));
    }
    await waitForSpool(app, org.orgId);
  });
  afterAll(async () => {
    await app?.close();
  });

  const iso = (ms: number) => new Date(ms).toISOString();
  const cases: Array<{ name: string; from: number; to: number; query: string; interval: string; n: number }> = [
    {
      name: 'hourly window with partial hours at both ends (auto interval)',
      from: start + 5 * DAY + 3 * HOUR + 17 * 60_000 + 23_000,
      to: start + 5 * DAY + 7 * HOUR + 41 * 60_000,
      query: '',
      interval: 'hour',
      n: 7,
    },
    {
      name: 'a window inside one hour',
      from: start + 5 * DAY + 4 * HOUR + 10 * 60_000,
      to: start + 5 * DAY + 4 * HOUR + 50 * 60_000,
      query: '&TermCount=3',
      interval: 'hour',
      n: 3,
    },
    { name: 'most of one day, partial hours at both ends', from: start + 5 * DAY + HOUR + 12 * 60_000, to: start + 5 * DAY + 21 * HOUR + 7 * 60_000, query: '&intervalType=1&termCount=100', interval: 'hour', n: 100 },
    // past two days the top lists read most of a day as the whole day minus its other hours
    // (partial hours at both ends); every value listed: one seen only in the hours left out must
    // not appear with 0 requests
    { name: 'most of three days, partial hours at both ends', from: start + 3 * DAY + HOUR + 12 * 60_000, to: start + 5 * DAY + 21 * HOUR + 7 * 60_000, query: '&intervalType=1&termCount=100', interval: 'hour', n: 100 },
    { name: 'most of the first and last days, TermCount 4', from: start + 3 * DAY + 2 * HOUR + 59 * 60_000, to: start + 11 * DAY + 19 * HOUR + 1_000, query: '&TermCount=4', interval: 'day', n: 4 },
    { name: 'daily (auto) over 20 days, TermCount 3', from: start + 2 * DAY + HOUR / 2, to: start + 22 * DAY, query: '&TermCount=3', interval: 'day', n: 3 },
    { name: 'daily (auto) over everything, termCount 100', from: start - DAY, to: start + 39 * DAY, query: '&termCount=100', interval: 'day', n: 100 },
    { name: 'monthly (auto) over 109 days', from: start - 70 * DAY, to: start + 39 * DAY, query: '', interval: 'month', n: 7 },
    { name: 'hourly forced over 3 days', from: start + 10 * DAY, to: start + 13 * DAY, query: '&intervalType=1', interval: 'hour', n: 7 },
    { name: 'daily forced over 2 days', from: start + 5 * DAY, to: start + 7 * DAY, query: '&intervalType=2', interval: 'day', n: 7 },
    { name: 'monthly forced over 10 days', from: start + 5 * DAY, to: start + 15 * DAY, query: '&intervalType=3', interval: 'month', n: 7 },
    { name: 'an empty window', from: start - 10 * DAY, to: start - 9 * DAY, query: '', interval: 'hour', n: 7 },
    // minutes are kept a week: a window of the data's last days, with partial minutes at both ends
    { name: 'by the minute over 5 hours', from: start + 35 * DAY + 2 * HOUR + 30_500, to: start + 35 * DAY + 7 * HOUR + 59_999, query: '&intervalType=4', interval: 'minute', n: 7 },
  ];

  it.each(cases)('$name', async (c) => {
    const got = await allAnalytics(app, org, 'cdn', `from=${iso(c.from)}&to=${iso(c.to)}${c.query}`);
    expect(got).toEqual(expected(all, c.from, c.to, c.interval, c.n));
  });

  it.each(cases.filter((c) => c.n !== 3))('$name, without bots', async (c) => {
    const got = await allAnalytics(app, org, 'cdn', `from=${iso(c.from)}&to=${iso(c.to)}${c.query}&excludeBots=true`);
    expect(got).toEqual(expected(all, c.from, c.to, c.interval, c.n, true));
  });

  it('defaults to the last 24 hours', async () => {
    const recent = generateTraffic({ count: 50, startMs: Date.now() - 20 * HOUR, spanMs: 19 * HOUR, seed: 5, countries: ['SE'] });
    await createDistribution(app, org, 'recent');
    expect((await pushLogs(app, org.ingestToken, 'recent', ndjson(recent.map(toCanonical)))).status).toBe(200);
    await waitForSpool(app, org.orgId);
    const res = await app.json(`/api/v1/projects/${org.projectId}/distributions/recent/analytics`, { token: org.analyticsToken });
    expect(res.status).toBe(200);
    expect(res.body.result.aggregatesPerInterval.length).toBeGreaterThanOrEqual(24);
    expect(res.body.result.aggregatesPerInterval.reduce((s: number, i: { numberOfRequests: number }) => s + i.numberOfRequests, 0)).toBe(50);
  });
});
