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
  if (interval === 'minute') return Math.floor(ms / 60_000) * 60_000;
  if (interval === 'hour') return Math.floor(ms / HOUR) * HOUR;
  if (interval === 'day') return Math.floor(ms / DAY) * DAY;
  const d = new Date(ms);
  return Date.UTC(d.getUTCFullYear(), d.getUTCMonth(), 1);
}
function next(interval: string, ms: number) {
  if (interval === 'minute') return ms + 60_000;
  if (interval === 'hour') return ms + HOUR;
  if (interval === 'day') return ms + DAY;
  const d = new Date(ms);
  return Date.UTC(d.getUTCFullYear(), d.getUTCMonth() + 1, 1);
}

/** Bots with what ua-parser-js reports for them and the name the bot list gives them. */
const BOTS = [
  { ua: 'Mozilla/5.0 (compatible; Googlebot/2.1; +http://www.google.com/bot.html)', device: 'other', browser: 'Other', os: 'Other', bot: 'Googlebot' },
  { ua: 'Mozilla/5.0 (compatible; bingbot/2.0; +http://www.bing.com/bingbot.htm)', device: 'other', browser: 'Other', os: 'Other', bot: 'bingbot' },
  { ua: 'Mozilla/5.0 AppleWebKit/537.36 (KHTML, like Gecko; compatible; GPTBot/1.2; +https://openai.com/gptbot)', device: 'desktop', browser: 'WebKit', os: 'Other', bot: 'GPTBot' },
];
const agentOf = new Map([...AGENTS.map((a) => [a.ua, a] as const), ...BOTS.map((a) => [a.ua, a] as const)]);
/** The bot names, per user agent; curl counts as a bot too. */
const botOf = new Map([...BOTS.map((b) => [b.ua, b.bot] as const), ['curl/8.5.0', 'curl']]);
const isBot = (e: TrafficEvent) => botOf.has(e.userAgent);
/** Nearest rank as ClickHouse's quantileTiming takes it (exact below 1,024 ms): the value at floor(p·n) of the sorted times. */
const percentile = (sorted: number[], p: number) => (sorted.length === 0 ? 0 : sorted[Math.min(sorted.length - 1, Math.floor(p * sorted.length))]);
/** A visitor is one IP and user agent on one UTC day (the key's salt changes daily). */
const visitors = (events: TrafficEvent[]) => new Set(events.map((e) => `${Math.floor(e.timestampMs / DAY)}|${e.clientIp}|${e.userAgent}`)).size;
const ratio = (hits: number, misses: number) => (hits + misses === 0 ? 0 : Math.round((hits / (hits + misses)) * 10_000) / 10_000);
const continentOf = (c: string) => (countries as Record<string, { continent: string }>)[c]?.continent ?? 'XX';
const refererHost = (r: string) => (r === '' ? '' : new URL(r).hostname);

function expected(events: TrafficEvent[], fromMs: number, toMs: number, interval: string, n: number, excludeBots = false) {
  const window = events.filter((e) => e.timestampMs >= fromMs && e.timestampMs < toMs);
  const inRange = excludeBots ? window.filter((e) => !isBot(e)) : window;
  const total = inRange.length;
  const serve = inRange.reduce((s, e) => s + e.serveTimeMs, 0);
  const perInterval: Array<Record<string, unknown>> = [];
  for (let t = floorTo(interval, fromMs); t < toMs; t = next(interval, t)) {
    const inside = inRange.filter((e) => floorTo(interval, e.timestampMs) === t);
    const times = inside.map((e) => e.serveTimeMs).sort((a, b) => a - b);
    const hits = inside.filter((e) => e.cache === 'HIT').length;
    const misses = inside.filter((e) => e.cache === 'MISS').length;
    perInterval.push({
      time: new Date(t).toISOString(),
      bytes: inside.reduce((s, e) => s + e.bytes, 0),
      numberOfRequests: inside.length,
      hits,
      misses,
      hitRatio: ratio(hits, misses),
      p50ServeTime: percentile(times, 0.5),
      p95ServeTime: percentile(times, 0.95),
      p99ServeTime: percentile(times, 0.99),
      uniqueVisitors: visitors(inside),
    });
  }
  const bots = window.filter(isBot);
  const inClass = (c: number) => inRange.filter((e) => Math.floor(e.status / 100) === c);
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
      uniqueVisitors: visitors(inRange),
      botRequests: excludeBots ? 0 : bots.length,
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
    '/status': {
      statusClasses: { otherCount: 0, buckets: [1, 2, 3, 4, 5].map((c) => ({ name: `${c}xx`, count: inClass(c).length })) },
      statusCodes: topN(inRange.map((e) => String(e.status)), n, total),
      clientErrorPaths: topN(inClass(4).map((e) => e.path), n, inClass(4).length),
      serverErrorPaths: topN(inClass(5).map((e) => e.path), n, inClass(5).length),
    },
    '/bots': {
      humanRequests: window.length - bots.length,
      humanBytes: window.filter((e) => !isBot(e)).reduce((s, e) => s + e.bytes, 0),
      botRequests: excludeBots ? 0 : bots.length,
      botBytes: excludeBots ? 0 : bots.reduce((s, e) => s + e.bytes, 0),
      topBots: excludeBots ? { otherCount: 0, buckets: [] } : topN(bots.map((e) => botOf.get(e.userAgent)!), n, bots.length),
    },
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
