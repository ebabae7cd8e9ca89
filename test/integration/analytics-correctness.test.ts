import { countries } from 'countries-list';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { AGENTS, generateTraffic, ndjson, toCanonical, type TrafficEvent } from '../fixtures/cdn-logs/traffic.js';
import { startTestApp, type TestApp } from '../support/harness.js';
import { allAnalytics, createAnalyticsOrg, createDistribution, pushLogs, waitForSpool, type AnalyticsOrg } from './ingest-support.js';

// Every figure of every endpoint must equal a computation made here, straight from the events.
const HOUR = 3_600_000;
const DAY = 24 * HOUR;

type Bucket = { name: string; count: number };
function topN(values: string[], n: number, total: number) {
  const counts = new Map<string, number>();
  for (const v of values) if (v !== '') counts.set(v, (counts.get(v) ?? 0) + 1);
  const buckets: Bucket[] = [...counts]
    .map(([name, count]) => ({ name, count }))
    .sort((a, b) => b.count - a.count || (a.name < b.name ? -1 : a.name > b.name ? 1 : 0))
    .slice(0, n);
  return { otherCount: total - buckets.reduce((s, b) => s + b.count, 0), buckets };
}

function floorTo(interval: string, ms: number) {
  if (interval === 'hour') return Math.floor(ms / HOUR) * HOUR;
  if (interval === 'day') return Math.floor(ms / DAY) * DAY;
  const d = new Date(ms);
  return Date.UTC(d.getUTCFullYear(), d.getUTCMonth(), 1);
}
function next(interval: string, ms: number) {
  if (interval === 'hour') return ms + HOUR;
  if (interval === 'day') return ms + DAY;
  const d = new Date(ms);
  return Date.UTC(d.getUTCFullYear(), d.getUTCMonth() + 1, 1);
}

const agentOf = new Map(AGENTS.map((a) => [a.ua, a]));
const continentOf = (c: string) => (countries as Record<string, { continent: string }>)[c]?.continent ?? 'XX';
const refererHost = (r: string) => (r === '' ? '' : new URL(r).hostname);

function expected(events: TrafficEvent[], fromMs: number, toMs: number, interval: string, n: number) {
  const inRange = events.filter((e) => e.timestampMs >= fromMs && e.timestampMs < toMs);
  const total = inRange.length;
  const serve = inRange.reduce((s, e) => s + e.serveTimeMs, 0);
  const perInterval: Array<{ time: string; bytes: number; numberOfRequests: number }> = [];
  for (let t = floorTo(interval, fromMs); t < toMs; t = next(interval, t)) {
    const inside = inRange.filter((e) => floorTo(interval, e.timestampMs) === t);
    perInterval.push({
      time: new Date(t).toISOString(),
      bytes: inside.reduce((s, e) => s + e.bytes, 0),
      numberOfRequests: inside.length,
    });
  }
  const country = (e: TrafficEvent) => e.country ?? 'XX';
  const continents = topN(inRange.map((e) => continentOf(country(e))), n, total);
  const countriesGroup = topN(inRange.map(country), n, total);
  return {
    overview: {
      averageServeTime: total === 0 ? 0 : Math.round(serve / total),
      totalBytes: inRange.reduce((s, e) => s + e.bytes, 0),
      hits: inRange.filter((e) => e.cache === 'HIT').length,
      misses: inRange.filter((e) => e.cache === 'MISS').length,
      topReferers: topN(inRange.map((e) => refererHost(e.referer)), n, total),
      aggregatesPerInterval: perInterval,
    },
    '/geo': { continents, countries: countriesGroup },
    '/path': { paths: topN(inRange.map((e) => e.path), n, total), continents, countries: countriesGroup },
    '/device': {
      devices: topN(inRange.map((e) => agentOf.get(e.userAgent)!.device), n, total),
      browsers: topN(inRange.map((e) => agentOf.get(e.userAgent)!.browser), n, total),
      operatingSystems: topN(inRange.map((e) => agentOf.get(e.userAgent)!.os), n, total),
      continents,
      countries: countriesGroup,
    },
    '/referers': { referers: topN(inRange.map((e) => refererHost(e.referer)), n, total), continents, countries: countriesGroup },
  };
}

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
  });
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
    // most of a day: read as the whole day minus its other hours (partial hours at both ends)
    // every value listed: one seen only in the hours left out must not appear with 0 requests
    { name: 'most of one day, partial hours at both ends', from: start + 5 * DAY + HOUR + 12 * 60_000, to: start + 5 * DAY + 21 * HOUR + 7 * 60_000, query: '&intervalType=1&termCount=100', interval: 'hour', n: 100 },
    { name: 'most of the first and last days, TermCount 4', from: start + 3 * DAY + 2 * HOUR + 59 * 60_000, to: start + 11 * DAY + 19 * HOUR + 1_000, query: '&TermCount=4', interval: 'day', n: 4 },
    { name: 'daily (auto) over 20 days, TermCount 3', from: start + 2 * DAY + HOUR / 2, to: start + 22 * DAY, query: '&TermCount=3', interval: 'day', n: 3 },
    { name: 'daily (auto) over everything, termCount 100', from: start - DAY, to: start + 39 * DAY, query: '&termCount=100', interval: 'day', n: 100 },
    { name: 'monthly (auto) over 109 days', from: start - 70 * DAY, to: start + 39 * DAY, query: '', interval: 'month', n: 7 },
    { name: 'hourly forced over 3 days', from: start + 10 * DAY, to: start + 13 * DAY, query: '&intervalType=1', interval: 'hour', n: 7 },
    { name: 'daily forced over 2 days', from: start + 5 * DAY, to: start + 7 * DAY, query: '&intervalType=2', interval: 'day', n: 7 },
    { name: 'monthly forced over 10 days', from: start + 5 * DAY, to: start + 15 * DAY, query: '&intervalType=3', interval: 'month', n: 7 },
    { name: 'an empty window', from: start - 10 * DAY, to: start - 9 * DAY, query: '', interval: 'hour', n: 7 },
  ];

  it.each(cases)('$name', async (c) => {
    const got = await allAnalytics(app, org, 'cdn', `from=${iso(c.from)}&to=${iso(c.to)}${c.query}`);
    expect(got).toEqual(expected(all, c.from, c.to, c.interval, c.n));
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
