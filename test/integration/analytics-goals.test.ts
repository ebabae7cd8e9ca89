import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { randomBase62 } from '../../shared/ids.js';
import { generateTraffic, ndjson, random, toCanonical, type TrafficEvent } from '../fixtures/cdn-logs/traffic.js';
import { startTestApp, type TestApp } from '../support/harness.js';
import { AGENTS } from '../fixtures/cdn-logs/traffic.js';
import { DAY, HOUR } from './analytics-expected.js';
import { createAnalyticsOrg, createDistribution, pushLogs, waitForSpool, type AnalyticsOrg } from './ingest-support.js';

// Goals and funnels against a count made here from the lines pushed: a visitor is one UTC day's
// (address, user agent), as ingest keys it; a funnel step is passed when the visitor's lines of
// that day, in time order, reach it after every earlier step (a plain greedy walk).

const country = (e: TrafficEvent) => e.country ?? 'XX';
const visitorOf = (e: TrafficEvent) => `${Math.floor(e.timestampMs / DAY)}|${e.clientIp}|${e.userAgent}`;
const round4 = (n: number) => Math.round(n * 10_000) / 10_000;
const rate = (part: number, whole: number) => (whole === 0 ? 0 : round4(part / whole));

/** Goal patterns and the same questions asked of a path with plain string operations. */
const GOALS = [
  { name: 'Read an article', path: '/articles/*', test: (p: string) => p.startsWith('/articles/') && !p.slice('/articles/'.length).includes('/') },
  { name: 'Thanked', path: '/thank-you', test: (p: string) => p === '/thank-you' },
  { name: 'Any video', path: '/video/**', test: (p: string) => p.startsWith('/video/') },
];
const STEPS = [GOALS[0].test, (p: string) => p === '/signup', GOALS[1].test];

/** How far each visitor got through STEPS, in order: the greedy walk over their lines by time. */
function funnelCount(events: TrafficEvent[]): number[] {
  const byVisitor = new Map<string, TrafficEvent[]>();
  for (const e of events) byVisitor.set(visitorOf(e), [...(byVisitor.get(visitorOf(e)) ?? []), e]);
  const reached = STEPS.map(() => 0);
  for (const lines of byVisitor.values()) {
    let level = 0;
    for (const e of [...lines].sort((a, b) => a.timestampMs - b.timestampMs)) if (level < STEPS.length && STEPS[level](e.path)) level++;
    for (let i = 0; i < level; i++) reached[i]++;
  }
  return reached;
}

function goalCount(events: TrafficEvent[]) {
  const total = new Set(events.map(visitorOf)).size;
  return GOALS.map((g) => {
    const hit = events.filter((e) => g.test(e.path));
    const visitors = new Set(hit.map(visitorOf)).size;
    return { name: g.name, path: g.path, requests: hit.length, visitors, conversionRate: rate(visitors, total) };
  });
}

describe('analytics goals and funnels', () => {
  let app: TestApp;
  let org: AnalyticsOrg;
  let other: AnalyticsOrg;
  const start = Math.floor(Date.now() / DAY) * DAY - 10 * DAY;
  const background = generateTraffic({ count: 1500, startMs: start, spanMs: 6 * DAY, seed: 77, countries: ['NL', 'DE', 'US'] });
  // 240 visitors walking the funnel's paths (and others) in a random order, some across midnight
  const rnd = random(4242);
  const walkers: TrafficEvent[] = [];
  const PAGES = ['/articles/launch', '/articles/pricing', '/signup', '/thank-you', '/', '/video/intro.m3u8'];
  for (let v = 0; v < 240; v++) {
    const ip = `203.0.${113 + (v % 2)}.${v}`;
    const ua = AGENTS[v % 4].ua;
    let t = start + Math.floor(rnd() * 6 * DAY / 1000) * 1000;
    for (let i = 0, n = 1 + Math.floor(rnd() * 6); i < n; i++) {
      walkers.push({
        ...background[v], timestampMs: t, clientIp: ip, userAgent: ua, path: PAGES[Math.floor(rnd() * PAGES.length)], query: '', country: v % 3 ? 'NL' : 'DE',
      });
      t += 1000 * (1 + Math.floor(rnd() * (v % 10 === 0 ? 7200 : 300)));
    }
  }
  const all = [...background, ...walkers];
  const iso = (ms: number) => new Date(ms).toISOString();
  const base = (o: AnalyticsOrg, dist = 'cdn') => `/projects/${o.projectId}/distributions/${dist}`;
  const m = (o: AnalyticsOrg, path: string, init: { method?: string; body?: unknown; token?: string } = {}) =>
    app.json(`/management/v1${base(o)}${path}`, { token: o.manageToken, ...init });
  const report = (o: AnalyticsOrg, path: string, query = '', token = o.analyticsToken) => app.json(`/api/v1${base(o)}/analytics${path}?${query}`, { token });
  const goalIds: string[] = [];
  let funnelId = '';

  beforeAll(async () => {
    app = await startTestApp();
    org = await createAnalyticsOrg(app);
    other = await createAnalyticsOrg(app);
    await createDistribution(app, org, 'cdn');
    await createDistribution(app, other, 'cdn');
    const res = await pushLogs(app, org.ingestToken, 'cdn', ndjson(all.map(toCanonical)));
    if (res.status !== 200 || res.body.result.accepted !== all.length) throw new Error(JSON.stringify(res.body));
    await waitForSpool(app, org.orgId);
    for (const g of GOALS) {
      const created = await m(org, '/goals', { body: { name: g.name, path: g.path } });
      expect(created.status, JSON.stringify(created.body)).toBe(201);
      goalIds.push(created.body.result.id);
    }
    const funnel = await m(org, '/funnels', { body: { name: 'Signup', steps: ['/articles/*', '/signup', '/thank-you'] } });
    expect(funnel.status, JSON.stringify(funnel.body)).toBe(201);
    funnelId = funnel.body.result.id;
  });
  afterAll(async () => {
    await app?.close();
  });

  it('lists what was defined', async () => {
    const goals = await m(org, '/goals');
    expect(goals.body.result.map((g: { id: string; name: string; path: string }) => [g.id, g.name, g.path])).toEqual(GOALS.map((g, i) => [goalIds[i], g.name, g.path]));
    const funnels = await m(org, '/funnels');
    expect(funnels.body.result).toMatchObject([{ id: funnelId, name: 'Signup', steps: ['/articles/*', '/signup', '/thank-you'] }]);
  });

  const windows = [
    { name: 'all days', from: start, to: start + 7 * DAY, query: '', keep: () => true },
    { name: 'partial days, NL only', from: start + DAY + 5 * HOUR + 17_000, to: start + 4 * DAY + 3 * HOUR, query: '&country=NL', keep: (e: TrafficEvent) => country(e) === 'NL' },
    { name: 'humans on mobile', from: start, to: start + 7 * DAY, query: '&device=mobile', keep: (e: TrafficEvent) => AGENTS.find((a) => a.ua === e.userAgent)?.device === 'mobile' },
  ];
  for (const w of windows) {
    it(`goals: conversions and rate, ${w.name}`, async () => {
      const res = await report(org, '/goals', `from=${iso(w.from)}&to=${iso(w.to)}${w.query}`);
      expect(res.status, JSON.stringify(res.body)).toBe(200);
      const inside = all.filter((e) => e.timestampMs >= w.from && e.timestampMs < w.to && w.keep(e));
      expect(res.body.result).toEqual(goalCount(inside).map((g, i) => ({ id: goalIds[i], ...g })));
      expect(res.body.result[0].visitors).toBeGreaterThan(0);
    });

    it(`funnel: visitors per step in order within a day, ${w.name}`, async () => {
      const res = await report(org, `/funnels/${funnelId}`, `from=${iso(w.from)}&to=${iso(w.to)}${w.query}`);
      expect(res.status, JSON.stringify(res.body)).toBe(200);
      const reached = funnelCount(all.filter((e) => e.timestampMs >= w.from && e.timestampMs < w.to && w.keep(e)));
      expect(res.body.result).toEqual({
        id: funnelId,
        name: 'Signup',
        steps: ['/articles/*', '/signup', '/thank-you'].map((path, i) => ({
          path,
          visitors: reached[i],
          dropOff: i === 0 ? 0 : reached[i - 1] - reached[i],
          dropOffRate: i === 0 ? 0 : rate(reached[i - 1] - reached[i], reached[i - 1]),
        })),
        conversionRate: rate(reached[2], reached[0]),
      });
      // the walk left some at each step: skips and reordering are in the lines
      expect(reached[0]).toBeGreaterThan(reached[1]);
      expect(reached[1]).toBeGreaterThan(reached[2]);
      expect(reached[2]).toBeGreaterThan(0);
    });
  }

  it('every funnel at once, for analytics readers', async () => {
    const w = windows[1];
    const res = await report(org, '/funnels', `from=${iso(w.from)}&to=${iso(w.to)}${w.query}`);
    expect(res.status).toBe(200);
    const one = await report(org, `/funnels/${funnelId}`, `from=${iso(w.from)}&to=${iso(w.to)}${w.query}`);
    expect(res.body.result).toEqual([one.body.result]);
    expect((await report(org, '/funnels', 'compare=previous')).status).toBe(400);
    expect((await report(other, '/funnels')).body.result).toEqual([]);
  });

  it('a funnel is counted per UTC day: steps on both sides of midnight do not join', async () => {
    const day = start + 8 * DAY;
    const lines = [
      { path: '/articles/launch', at: day - 60_000 },
      { path: '/signup', at: day + 60_000 },
      { path: '/thank-you', at: day + 120_000 },
    ].map((l) => ({ ...background[0], clientIp: '198.51.100.77', userAgent: AGENTS[0].ua, path: l.path, query: '', timestampMs: l.at }));
    expect((await pushLogs(app, org.ingestToken, 'cdn', ndjson(lines.map(toCanonical)))).status).toBe(200);
    await waitForSpool(app, org.orgId);
    const res = await report(org, `/funnels/${funnelId}`, `from=${iso(day - HOUR)}&to=${iso(day + HOUR)}`);
    expect(res.body.result.steps.map((s: { visitors: number }) => s.visitors)).toEqual([1, 0, 0]);
  });

  it('compare: each goal and the funnel against another period', async () => {
    const [a, b] = [start + 3 * DAY, start + 6 * DAY];
    const res = await report(org, '/goals', `from=${iso(a)}&to=${iso(b)}&compare=previous`);
    expect(res.status).toBe(200);
    const now = goalCount(all.filter((e) => e.timestampMs >= a && e.timestampMs < b));
    const then = goalCount(all.filter((e) => e.timestampMs >= a - 3 * DAY && e.timestampMs < a));
    res.body.result.forEach((g: Record<string, unknown>, i: number) => {
      expect(g.previous).toEqual({ id: goalIds[i], ...then[i] });
      expect(g.change).toMatchObject({ requests: { absolute: now[i].requests - then[i].requests }, visitors: { absolute: now[i].visitors - then[i].visitors } });
    });
    const f = await report(org, `/funnels/${funnelId}`, `from=${iso(a)}&to=${iso(b)}&compare=${iso(start)}/${iso(start + DAY)}`);
    expect(f.body.result.previous.steps.map((s: { visitors: number }) => s.visitors)).toEqual(funnelCount(all.filter((e) => e.timestampMs >= start && e.timestampMs < start + DAY)));
  });

  it('deleting a goal or funnel removes it from the reports', async () => {
    const extra = await m(org, '/goals', { body: { name: 'Temp', path: '/' } });
    expect((await m(org, `/goals/${extra.body.result.id}`, { method: 'DELETE' })).status).toBe(200);
    expect((await m(org, `/goals/${extra.body.result.id}`, { method: 'DELETE' })).status).toBe(404);
    expect((await report(org, '/goals')).body.result.map((g: { id: string }) => g.id)).toEqual(goalIds);
    const f = await m(org, '/funnels', { body: { name: 'Temp', steps: ['/', '/signup'] } });
    expect((await m(org, `/funnels/${f.body.result.id}`, { method: 'DELETE' })).status).toBe(200);
    expect((await report(org, `/funnels/${f.body.result.id}`)).status).toBe(404);
  });

  it('refuses bad input with a 400 envelope', async () => {
    for (const [path, body] of [
      ['/goals', { name: 'x' }],
      ['/goals', { name: 'x', path: 'pricing' }],
      ['/goals', { name: 'x', path: '/a?b=1' }],
      ['/goals', { name: '', path: '/a' }],
      ['/goals', { name: 'x', path: '/a', extra: 1 }],
      ['/funnels', { name: 'x', steps: ['/a'] }],
      ['/funnels', { name: 'x', steps: Array.from({ length: 9 }, (_, i) => `/s${i}`) }],
      ['/funnels', { name: 'x', steps: ['/a', 'b'] }],
      ['/funnels', { name: 'x', steps: '/a,/b' }],
    ] as const) {
      const res = await m(org, path, { body });
      expect({ path, body, status: res.status, success: res.body.success }).toEqual({ path, body, status: 400, success: false });
      expect(res.body.errors.length).toBeGreaterThan(0);
    }
    for (const [path, query, name] of [
      ['/goals', 'country=Germany', 'country'],
      ['/goals', 'pathPattern=x', 'pathPattern'],
      [`/funnels/${funnelId}`, 'compare=soon', 'compare'],
      [`/funnels/${funnelId}`, 'from=yesterday', 'from'],
    ]) {
      const res = await report(org, path, query);
      expect([res.status, res.body.success, res.body.errors[0]]).toEqual([400, false, expect.stringMatching(new RegExp(`^${name}: `))]);
    }
    expect((await report(org, '/funnels/not-a-uuid')).status).toBe(404);
    expect((await report(org, '/funnels/00000000-0000-4000-8000-000000000000')).status).toBe(404);
  });

  it("another organization's token neither reads nor changes them", async () => {
    const foreign = { ...org, manageToken: other.manageToken, analyticsToken: other.analyticsToken };
    for (const res of [
      await m(foreign, '/goals'),
      await m(foreign, '/goals', { body: { name: 'x', path: '/a' } }),
      await m(foreign, `/goals/${goalIds[0]}`, { method: 'DELETE' }),
      await m(foreign, '/funnels'),
      await m(foreign, `/funnels/${funnelId}`, { method: 'DELETE' }),
      await report(foreign, '/goals'),
      await report(foreign, `/funnels/${funnelId}`),
      await report(foreign, '/funnels'),
    ]) {
      expect([res.status, res.body.success]).toEqual([404, false]);
    }
    // its own distribution of the same id knows none of them
    expect((await m(other, '/goals')).body.result).toEqual([]);
    expect((await report(other, `/funnels/${funnelId}`)).status).toBe(404);
    expect((await report(org, '/goals', '', org.manageToken)).status).toBe(403);
    expect((await m(org, '/goals', { token: org.analyticsToken })).status).toBe(403);
    expect((await m(org, '/goals')).body.result).toHaveLength(GOALS.length);
  });

  it('members: the analytics area decides, for goals and their reports', async () => {
    const PASSWORD = 'correct horse battery';
    const member = async (role: string) => {
      const email = `${role}-${randomBase62(6).toLowerCase()}@example.test`;
      const invited = await app.json('/management/v1/invitations', { token: org.manageToken, body: { email, role } });
      expect(invited.status, JSON.stringify(invited.body)).toBe(201);
      await app.json('/auth/invitations/accept', { body: { token: invited.body.result.token, password: PASSWORD } });
      return (await app.json('/auth/sign-in', { body: { email, password: PASSWORD } })).body.result.token as string;
    };
    const developer = await member('developer');
    const analyst = await member('analyst');
    const editor = await member('editor');
    // a developer's role holds the analytics area and the management door
    const created = await m(org, '/goals', { token: developer, body: { name: 'By a developer', path: '/signup' } });
    expect(created.status, JSON.stringify(created.body)).toBe(201);
    // an analyst reads the reports but has no management door; an editor has no analytics area
    expect((await report(org, '/goals', '', analyst)).status).toBe(200);
    expect((await report(org, `/funnels/${funnelId}`, '', analyst)).status).toBe(200);
    for (const res of [
      await m(org, '/goals', { token: analyst, body: { name: 'x', path: '/a' } }),
      await m(org, '/goals', { token: editor }),
      await m(org, '/funnels', { token: editor, body: { name: 'x', steps: ['/a', '/b'] } }),
      await m(org, `/goals/${created.body.result.id}`, { token: editor, method: 'DELETE' }),
      await report(org, '/goals', '', editor),
    ]) {
      expect([res.status, res.body.success]).toEqual([403, false]);
    }
    expect((await m(org, `/goals/${created.body.result.id}`, { token: developer, method: 'DELETE' })).status).toBe(200);
  });
});
