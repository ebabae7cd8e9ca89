import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { generateTraffic, ndjson, toCanonical, type TrafficEvent } from '../fixtures/cdn-logs/traffic.js';
import { startTestApp, type TestApp } from '../support/harness.js';
import { createAnalyticsOrg, createDistribution, pushLogs, recordStatements, waitForSpool, type AnalyticsOrg } from './ingest-support.js';

/**
 * Traffic per entry: a site's URL patterns resolve the paths of pushed log lines to entries at
 * ingest, and `…/analytics/entries` reports them. Which path names which entry is written out
 * by hand below (not computed by the resolver's rules), and every figure is counted from the
 * pushed events.
 */
const HOUR = 3_600_000;
const DAY = 86_400_000;
const GOOGLEBOT = 'Mozilla/5.0 (compatible; Googlebot/2.1; +http://www.google.com/bot.html)';
/** The agents of the generated traffic that are bots: Googlebot, added below, and curl. */
const BOTS = new Set([GOOGLEBOT, 'curl/8.5.0']);

describe('traffic per entry', () => {
  let app: TestApp;
  let org: AnalyticsOrg;
  let other: AnalyticsOrg;
  let siteA: string;
  let siteB: string;
  const ids: Record<string, string> = {};
  /** The lines pushed by the resolving test, with the entry each names (null: none). */
  let pushed: Array<TrafficEvent & { dist: string; entry: string | null }> = [];
  let windowStart = 0;
  const m = (o: AnalyticsOrg, path: string, init: { method?: string; body?: unknown; token?: string } = {}) =>
    app.json(`/management/v1${path}`, { token: o.manageToken, ...init });
  const report = (o: AnalyticsOrg, dist: string, query: string, token = o.analyticsToken) =>
    app.json(`/api/v1/projects/${o.projectId}/distributions/${dist}/analytics/entries?${query}`, { token });

  /** The entries report of the lines pushed by the resolving test, counted from them. */
  const counted = (dist: string, w: { from: number; to: number }, excludeBots: boolean, termCount: number) => {
    const titles: Record<string, [string, string]> = {
      hello: ['article', 'Hello, world'],
      second: ['article', 'Second'],
      about: ['page', 'About us'],
      ext: ['page', 'Contact'],
      blogHello: ['article', 'Blog hello'],
    };
    const byId = Object.fromEntries(Object.entries(titles).map(([k, v]) => [ids[k], v]));
    const inside = pushed.filter(
      (e) => e.dist === dist && e.entry !== null && e.timestampMs >= w.from && e.timestampMs < w.to && !(excludeBots && BOTS.has(e.userAgent)),
    );
    const per = new Map<string, { requests: number; bytes: number; visitors: Set<string> }>();
    for (const e of inside) {
      const t = per.get(e.entry!) ?? { requests: 0, bytes: 0, visitors: new Set<string>() };
      t.requests++;
      t.bytes += e.bytes;
      t.visitors.add(`${Math.floor(e.timestampMs / DAY)}|${e.clientIp}|${e.userAgent}`);
      per.set(e.entry!, t);
    }
    const all = [...per]
      .map(([id, t]) => ({ id, model: byId[id][0], title: byId[id][1], requests: t.requests, bytes: t.bytes, visitors: t.visitors.size }))
      .sort((a, b) => b.requests - a.requests || (a.id < b.id ? -1 : 1));
    const requests = inside.length;
    return {
      requests,
      bytes: inside.reduce((n, e) => n + e.bytes, 0),
      entries: all.slice(0, termCount),
      otherRequests: requests - all.slice(0, termCount).reduce((n, e) => n + e.requests, 0),
    };
  };

  const entry = async (o: AnalyticsOrg, key: string, body: Record<string, unknown>) => {
    const res = await m(o, '/entries', { body: { status: 'PUBLISHED', ...body } });
    if (res.status !== 201) throw new Error(`entry ${key}: ${res.status} ${JSON.stringify(res.body)}`);
    ids[key] = res.body.result.id;
  };

  beforeAll(async () => {
    app = await startTestApp();
    org = await createAnalyticsOrg(app);
    other = await createAnalyticsOrg(app);
    for (const d of ['web', 'mirror']) await createDistribution(app, org, d);
    await createDistribution(app, other, 'web2');
    siteA = (await m(org, '/sites', { body: { name: 'Magazine' } })).body.result.id;
    siteB = (await m(org, '/sites', { body: { name: 'Blog' } })).body.result.id;
    for (const o of [org, other]) {
      for (const alias of ['article', 'page']) {
        const res = await m(o, `/models/${alias}`, { method: 'PUT', body: { titleField: 'title', fields: [{ alias: 'title', type: 'text', required: true }] } });
        expect(res.status).toBe(201);
      }
    }
    await entry(org, 'hello', { model: 'article', siteId: siteA, slug: 'hello-world', fields: { title: 'Hello, world' } });
    await entry(org, 'second', { model: 'article', siteId: siteA, slug: 'second', fields: { title: 'Second' } });
    await entry(org, 'about', { model: 'page', siteId: siteA, slug: 'about', fields: { title: 'About us' } });
    await entry(org, 'ext', { model: 'page', siteId: siteA, slug: 'contact', externalId: 'ext-7', fields: { title: 'Contact' } });
    await entry(org, 'blogHello', { model: 'article', siteId: siteB, slug: 'hello-world', fields: { title: 'Blog hello' } });
    const otherSite = (await m(other, '/sites', { body: { name: 'Other' } })).body.result.id;
    await entry(other, 'otherHello', { model: 'article', siteId: otherSite, slug: 'hello-world', fields: { title: 'Not yours' } });
  });
  afterAll(async () => {
    await app?.close();
  });

  it('declares URL patterns per site: read back as stored; bad input 400, unknown or foreign sites 404, the manage scope required', async () => {
    const a = {
      patterns: [{ pattern: '/articles/{slug}', model: 'article' }, { pattern: '/{section}/{slug}' }, { pattern: '/e/{externalId}' }, { pattern: '/id/{id}' }],
      distributionIds: ['web'],
    };
    const put = await m(org, `/sites/${siteA}/url-patterns`, { method: 'PUT', body: a });
    expect(put.status).toBe(200);
    expect(put.body.result).toEqual(a);
    expect((await m(org, `/sites/${siteB}/url-patterns`, { method: 'PUT', body: { patterns: [{ pattern: '/blog/posts/{slug}' }] } })).body.result).toEqual({
      patterns: [{ pattern: '/blog/posts/{slug}' }],
      distributionIds: [],
    });
    expect((await m(org, `/sites/${siteA}/url-patterns`)).body).toMatchObject({ success: true, result: a });

    const bad = async (body: unknown, error: RegExp) => {
      const res = await m(org, `/sites/${siteA}/url-patterns`, { method: 'PUT', body });
      expect(res.status, JSON.stringify(body)).toBe(400);
      expect(res.body.success).toBe(false);
      expect((res.body.errors as string[]).join('\n'), JSON.stringify(res.body)).toMatch(error);
    };
    await bad({ patterns: [{ pattern: '/articles/{section}' }] }, /exactly one of \{slug\}, \{id\} or \{externalId\}/);
    await bad({ patterns: [{ pattern: '/{id}/{slug}' }] }, /exactly one/);
    await bad({ patterns: [{ pattern: 'articles/{slug}' }] }, /must start with/);
    await bad({ patterns: [{ pattern: '/a//{slug}' }] }, /empty segment/);
    await bad({ patterns: [{ pattern: '/a{b}/{slug}' }] }, /neither literal text nor one \{placeholder\}/);
    await bad({ patterns: [{ pattern: '/a/{slug}', model: 'nothing' }] }, /no model "nothing"/);
    await bad({ patterns: [], distributionIds: ['web2'] }, /no distribution "web2"/); // another organization's
    await bad({ patterns: [{ pattern: '/a/{slug}', extra: 1 }] }, /extra/);
    await bad({ patterns: 'x' }, /patterns/);
    await bad({ patterns: Array.from({ length: 51 }, (_, i) => ({ pattern: `/p${i}/{slug}` })) }, /at most 50/);
    // nothing half-written: the patterns are as before
    expect((await m(org, `/sites/${siteA}/url-patterns`)).body.result).toEqual(a);

    expect((await m(org, '/sites/no-such-site/url-patterns')).status).toBe(404);
    expect((await m(org, '/sites/no-such-site/url-patterns', { method: 'PUT', body: { patterns: [] } })).status).toBe(404);
    expect((await m(other, `/sites/${siteA}/url-patterns`)).status).toBe(404);
    expect((await m(other, `/sites/${siteA}/url-patterns`, { method: 'PUT', body: { patterns: [] } })).status).toBe(404);
    expect((await m(org, `/sites/${siteA}/url-patterns`, { token: org.analyticsToken })).status).toBe(403);
    expect((await app.json(`/management/v1/sites/${siteA}/url-patterns`)).status).toBe(401);
    expect((await m(org, `/sites/${siteA}/url-patterns`)).body.result).toEqual(a);
  });

  // Path → the entry it names, by the patterns above: site A (on 'web' only) reads /articles/{slug}
  // as an article, any other /{section}/{slug} as an entry of any model, /e/{externalId}, /id/{id};
  // site B (every distribution) /blog/posts/{slug}. The older site's patterns are tried first.
  const cases = (): Array<{ dist: string; path: string; query?: string; entry: string | null }> => [
    { dist: 'web', path: '/articles/hello-world', entry: 'hello' },
    { dist: 'web', path: '/articles/Hello-World', query: 'utm_source=x', entry: 'hello' }, // slugs compare without case; the query is not part of the path
    { dist: 'web', path: '/articles/about', entry: 'about' }, // not an article: the next pattern reads it as any model's
    { dist: 'web', path: '/news/second/', entry: 'second' }, // a trailing slash is the same page
    { dist: 'web', path: '/news/sec%6Fnd', entry: 'second' }, // percent-encoded
    { dist: 'web', path: '/e/ext-7', entry: 'ext' },
    { dist: 'web', path: `/id/${ids.second}`, entry: 'second' },
    { dist: 'web', path: '/blog/posts/hello-world', entry: 'blogHello' },
    { dist: 'web', path: '/blog/hello-world', entry: 'hello' }, // site A's /{section}/{slug}, tried before site B's
    { dist: 'web', path: '/articles/no-such-entry', entry: null },
    { dist: 'web', path: '/articles/hello-world/comments', entry: null },
    { dist: 'web', path: '/', entry: null },
    { dist: 'mirror', path: '/articles/hello-world', entry: null }, // site A is not served by the mirror
    { dist: 'mirror', path: '/blog/posts/hello-world', entry: 'blogHello' },
    { dist: 'mirror', path: '/blog/hello-world', entry: null },
  ];

  it('resolves each line to the entry its path names, and reports requests, bytes and visitors per entry as counted from the lines', async () => {
    const now = Date.now();
    const start = Math.floor(now / DAY) * DAY - 2 * DAY; // two whole days and today's hours so far
    const list = cases();
    const events: Array<TrafficEvent & { dist: string; entry: string | null }> = generateTraffic({ count: 1300, startMs: start, spanMs: now - 60_000 - start, seed: 31 }).map((e, i) => {
      const c = list[i % list.length];
      return { ...e, path: c.path, query: c.query ?? '', userAgent: i % 7 === 0 ? GOOGLEBOT : e.userAgent, dist: c.dist, entry: c.entry ? ids[c.entry] : null };
    });
    pushed = events;
    windowStart = start;
    for (const dist of ['web', 'mirror']) {
      const mine = events.filter((e) => e.dist === dist);
      for (let i = 0; i < mine.length; i += 400) {
        expect((await pushLogs(app, org.ingestToken, dist, ndjson(mine.slice(i, i + 400).map(toCanonical)))).status).toBe(200);
      }
    }
    // the other organization's lines name its own entry by a path our patterns would read
    expect((await pushLogs(app, other.ingestToken, 'web2', ndjson(events.slice(0, 50).map((e) => toCanonical({ ...e, path: '/articles/hello-world' }))))).status).toBe(200);
    await waitForSpool(app, org.orgId);
    await waitForSpool(app, other.orgId);

    // every stored line carries the entry written out above
    for (const dist of ['web', 'mirror']) {
      const stored = await app.services.analytics.query<{ path: string; entry_id: string }>(
        'SELECT path, entry_id FROM cdn_logs WHERE org_id = {org:String} AND distribution_id = {dist:String} ORDER BY timestamp, path',
        { org: org.orgId, dist },
      );
      const expected = events
        .filter((e) => e.dist === dist)
        .sort((a, b) => a.timestampMs - b.timestampMs || (a.path < b.path ? -1 : a.path > b.path ? 1 : 0))
        .map((e) => ({ path: e.path, entry_id: e.entry ?? '' })); // stored without the query
      expect(stored).toEqual(expected);
    }
    const foreign = await app.services.analytics.query<{ entry_id: string }>('SELECT DISTINCT entry_id FROM cdn_logs WHERE org_id = {org:String}', { org: other.orgId });
    expect(foreign).toEqual([{ entry_id: '' }]); // no patterns there

    const windows = [
      { name: 'two whole days', from: start, to: start + 2 * DAY },
      { name: 'days, hours and minutes at both ends', from: start + 5 * HOUR + 17 * 60_000 + 4321, to: now - 7 * 60_000 },
      { name: 'within an hour', from: start + DAY + 3 * HOUR + 1000, to: start + DAY + 3 * HOUR + 50 * 60_000 },
    ];
    for (const dist of ['web', 'mirror']) {
      for (const w of windows) {
        for (const excludeBots of [false, true]) {
          const query = `from=${new Date(w.from).toISOString()}&to=${new Date(w.to).toISOString()}&termCount=3${excludeBots ? '&excludeBots=true' : ''}`;
          const res = await report(org, dist, query);
          expect(res.status, JSON.stringify(res.body)).toBe(200);
          expect(res.body.result, `${dist}, ${w.name}, excludeBots=${excludeBots}`).toEqual(counted(dist, w, excludeBots, 3));
        }
      }
    }
    // the other organization sees its lines as no entry's, and none of ours
    const theirs = await report(other, 'web2', `from=${new Date(start).toISOString()}&to=${new Date(now).toISOString()}`);
    expect(theirs.body.result).toEqual({ requests: 0, bytes: 0, entries: [], otherRequests: 0 });
  });

  it("answers 400 for bad input, 404 for another organization's distribution, 403 without the analytics scope", async () => {
    const bad = await report(org, 'web', 'excludeBots=perhaps');
    expect(bad.status).toBe(400);
    expect(bad.body).toMatchObject({ success: false, errors: ['excludeBots: must be true or false.'] });
    expect((await report(org, 'web', 'from=yesterday')).status).toBe(400);
    expect((await report(other, 'web', '', other.analyticsToken)).status).toBe(404);
    expect((await report(org, 'web', '', other.analyticsToken)).status).toBe(404);
    expect((await report(org, 'web', '', org.ingestToken)).status).toBe(403);
  });

  describe('in GraphQL', () => {
    const gql = async (query: string, token: string) => {
      const res = await app.json('/graphql', { token, body: { query } });
      return { status: res.status, body: res.body as { data?: any; errors?: Array<{ message: string; extensions?: { code?: string } }> }, headers: res.headers };
    };
    /** Requests, visitors and bytes of every entry over [from, to) on all the organization's distributions. */
    const counted = (from: number, to: number, excludeBots: boolean) => {
      const per = new Map<string, { requests: number; visitors: Set<string>; bytes: number }>();
      for (const e of pushed) {
        if (e.entry === null || e.timestampMs < from || e.timestampMs >= to || (excludeBots && BOTS.has(e.userAgent))) continue;
        const t = per.get(e.entry) ?? { requests: 0, visitors: new Set<string>(), bytes: 0 };
        t.requests++;
        t.bytes += e.bytes;
        // a visitor key is per UTC day and distribution
        t.visitors.add(`${Math.floor(e.timestampMs / DAY)}|${e.dist}|${e.clientIp}|${e.userAgent}`);
        per.set(e.entry, t);
      }
      return (id: string) => {
        const t = per.get(id);
        return { requests: t?.requests ?? 0, visitors: t?.visitors.size ?? 0, bytes: t?.bytes ?? 0 };
      };
    };

    it('system.traffic: each entry\'s figures over a window across distributions, bots left out unless asked; ordering a collection by traffic', async () => {
      expect(pushed.length).toBeGreaterThan(0);
      const token = await app.createToken(org.manageToken, ['delivery', 'analytics']);
      const from = windowStart + 7 * HOUR + 123;
      const to = Date.now();
      const res = await gql(
        `{ entryCollection(limit: 20, order: { system: { traffic: DESC } }) { items { id
            system { traffic(from: "${new Date(from).toISOString()}", to: "${new Date(to).toISOString()}") { requests visitors bytes }
                     withBots: traffic(from: "${new Date(from).toISOString()}", to: "${new Date(to).toISOString()}", excludeBots: false) { requests } } } } }`,
        token,
      );
      expect(res.status, JSON.stringify(res.body)).toBe(200);
      expect(res.body.errors).toBeUndefined();
      const humans = counted(from, to, true);
      const everyone = counted(from, to, false);
      const items = res.body.data.entryCollection.items as Array<{ id: string; system: { traffic: unknown; withBots: { requests: number } } }>;
      expect(items.map((i) => i.id).sort()).toEqual(Object.values(ids).filter((id) => id !== ids.otherHello).sort());
      for (const i of items) {
        expect(i.system.traffic, i.id).toEqual(humans(i.id));
        expect(i.system.withBots.requests, i.id).toBe(everyone(i.id).requests);
      }
      // most requested over the last 7 days (people only) first, ties by id
      const lastWeek = counted(Date.now() - 7 * DAY, Date.now(), true);
      const expected = items.map((i) => i.id).sort((a, b) => lastWeek(b).requests - lastWeek(a).requests || (a < b ? -1 : 1));
      expect(items.map((i) => i.id)).toEqual(expected);
      expect(lastWeek(expected[0]).requests).toBeGreaterThan(lastWeek(expected[expected.length - 1]).requests);

      const asc = await gql('{ articleCollection(order: { system: { traffic: ASC }, thenBy: [{ id: DESC }] }) { items { id } } }', token);
      expect(asc.body.errors).toBeUndefined();
      const articles = [ids.hello, ids.second, ids.blogHello].sort((a, b) => lastWeek(a).requests - lastWeek(b).requests || (a < b ? 1 : -1));
      expect(asc.body.data.articleCollection.items.map((i: { id: string }) => i.id)).toEqual(articles);
      // not kept by the response cache: asked twice, both executed (a cached answer would be the same; the header says it may not be kept long)
      const again = await gql(`{ entry(id: "${ids.hello}") { system { traffic(from: "${new Date(from).toISOString()}", to: "${new Date(to).toISOString()}") { requests } } } }`, token);
      expect(again.body.data.entry.system.traffic.requests).toBe(humans(ids.hello).requests);
    });

    it('needs the analytics scope, a window that makes sense, and a root collection to order; another organization sees only its own', async () => {
      const window = `from: "${new Date(windowStart).toISOString()}", to: "${new Date().toISOString()}"`;
      const deliveryOnly = await app.createToken(org.manageToken, ['delivery']);
      const field = await gql(`{ entry(id: "${ids.hello}") { id system { traffic(${window}) { requests } } } }`, deliveryOnly);
      expect(field.body.errors?.[0]).toMatchObject({ message: 'system.traffic needs a token with the analytics scope as well.', extensions: { code: 'FORBIDDEN' } });
      const order = await gql('{ articleCollection(order: { system: { traffic: DESC } }) { items { id } } }', deliveryOnly);
      expect(order.body.errors?.[0]).toMatchObject({ extensions: { code: 'FORBIDDEN' } });
      // the content itself is served to that token as ever
      expect((await gql(`{ entry(id: "${ids.hello}") { id } }`, deliveryOnly)).body.data).toEqual({ entry: { id: ids.hello } });

      const token = await app.createToken(org.manageToken, ['preview', 'analytics']);
      const backwards = await gql(`{ entry(id: "${ids.hello}") { system { traffic(from: "2026-01-02T00:00:00Z", to: "2026-01-01T00:00:00Z") { requests } } } }`, token);
      expect(backwards.body.errors?.[0]).toMatchObject({ message: 'system.traffic: from must be earlier than to.', extensions: { code: 'BAD_USER_INPUT' } });
      const long = await gql(`{ entry(id: "${ids.hello}") { system { traffic(from: "2020-01-01T00:00:00Z", to: "2026-01-01T00:00:00Z") { requests } } } }`, token);
      expect(long.body.errors?.[0]).toMatchObject({ extensions: { code: 'BAD_USER_INPUT' } });
      const notDate = await gql(`{ entry(id: "${ids.hello}") { system { traffic(from: "yesterday", to: "2026-01-01T00:00:00Z") { requests } } } }`, token);
      expect(notDate.body.errors?.[0].extensions?.code).toMatch(/BAD_USER_INPUT|GRAPHQL_VALIDATION_FAILED/);
      const missing = await gql(`{ entry(id: "${ids.hello}") { system { traffic { requests } } } }`, token);
      expect(missing.body.errors?.[0].extensions?.code).toBe('GRAPHQL_VALIDATION_FAILED');
      const twoKeys = await gql('{ articleCollection(order: { system: { traffic: DESC, title: ASC } }) { items { id } } }', token);
      expect(twoKeys.body.errors?.[0]).toMatchObject({ extensions: { code: 'BAD_USER_INPUT' } });

      // another organization's token with the same scopes: its own entry by the same slug had no traffic, ours are not found
      const theirs = await app.createToken(other.manageToken, ['delivery', 'analytics']);
      const foreign = await gql(`{ entry(id: "${ids.hello}") { id } entryCollection(order: { system: { traffic: DESC } }) { items { id system { traffic(${window}) { requests } } } } }`, theirs);
      expect(foreign.body.errors).toBeUndefined();
      expect(foreign.body.data).toEqual({ entry: null, entryCollection: { items: [{ id: ids.otherHello, system: { traffic: { requests: 0 } } }] } });
    });

    it('an answer that read traffic is not kept by the response cache, and HTTP caches keep it a minute at most', async () => {
      const token = await app.createToken(org.manageToken, ['delivery', 'analytics']);
      const query = `{ entry(id: "${ids.second}") { system { traffic(from: "${new Date(windowStart).toISOString()}", to: "${new Date(Date.now() + HOUR).toISOString()}") { requests } } } }`;
      const requests = async () => {
        const res = await gql(query, token);
        expect(res.body.errors).toBeUndefined();
        return res.body.data.entry.system.traffic.requests as number;
      };
      const before = await requests();
      expect(await requests()).toBe(before); // the response cache admits a request on its second run
      const line = { ...pushed[0], timestampMs: Date.now() - 60_000, path: '/news/second', query: '', userAgent: 'Mozilla/5.0 (X11; Linux x86_64; rv:132.0) Gecko/20100101 Firefox/132.0' };
      expect((await pushLogs(app, org.ingestToken, 'web', ndjson([toCanonical(line), toCanonical({ ...line, timestampMs: line.timestampMs + 1 })]))).status).toBe(200);
      await waitForSpool(app, org.orgId);
      expect(await requests()).toBe(before + 2); // no content was written: a cached answer would still say `before`

      const patched = await m(org, '/delivery-settings', { method: 'PATCH', body: { cacheMaxAge: 600, cacheStaleWhileRevalidate: 300 } });
      expect(patched.status).toBe(200);
      const get = (q: string) => app.json(`/graphql?query=${encodeURIComponent(q)}`, { token, method: 'GET' });
      // the settings reach a token's cached identity within seconds
      const deadline = Date.now() + 10_000;
      let plain = await get(`{ entry(id: "${ids.second}") { id } }`);
      while (plain.headers.get('cache-control') !== 'private, max-age=600, stale-while-revalidate=300' && Date.now() < deadline) {
        await new Promise((r) => setTimeout(r, 200));
        plain = await get(`{ entry(id: "${ids.second}") { id } }`);
      }
      expect(plain.headers.get('cache-control')).toBe('private, max-age=600, stale-while-revalidate=300');
      const traffic = await get(query);
      expect(traffic.status).toBe(200);
      expect(traffic.headers.get('cache-control')).toBe('private, max-age=60, stale-while-revalidate=60');
    });
  });

  it('reads the visitors of the entries it listed last beside its sums, and of entries new to its list after them', async () => {
    const w = { from: windowStart + 5 * HOUR + 17 * 60_000 + 4321, to: windowStart + 2 * DAY + 7 * 60_000 };
    const query = (termCount: number) => `from=${new Date(w.from).toISOString()}&to=${new Date(w.to).toISOString()}&termCount=${termCount}`;
    // a read of given entries' visitors (entry-traffic-by-day.ts): one per list read
    const { statements, stop } = recordStatements(app);
    const visitorReads = () => statements.filter((sql) => sql.includes('uniqMerge(visitors) AS v') && sql.includes('entry_id IN {ids')).length;
    try {
      // [list asked for, visitor reads]: the first entry (what earlier reports listed decides
      // whether it is read beside the sums); then three, two of them new (read after the sums);
      // the same three (all read beside the sums); one of them
      for (const [termCount, reads] of [[1, null], [3, 2], [3, 1], [1, 1]] as const) {
        statements.length = 0;
        const res = await report(org, 'web', query(termCount));
        expect(res.body.result, `termCount=${termCount}`).toEqual(counted('web', w, false, termCount));
        expect(res.body.result.entries.length).toBe(termCount);
        if (reads !== null) expect(visitorReads(), `termCount=${termCount}`).toBe(reads);
      }
    } finally {
      stop();
    }
  });

  it("a deleted entry's path names no entry: its lines count as no entry's", async () => {
    await entry(org, 'doomed', { model: 'article', siteId: siteA, slug: 'doomed', fields: { title: 'Doomed' } });
    expect((await m(org, `/entries/${ids.doomed}`, { method: 'DELETE' })).status).toBe(200);
    const [line] = generateTraffic({ count: 1, startMs: Date.now() - 120_000, spanMs: 60_000, seed: 5 });
    expect((await pushLogs(app, org.ingestToken, 'web', ndjson([toCanonical({ ...line, path: '/articles/doomed' })]))).status).toBe(200);
    await waitForSpool(app, org.orgId);
    const stored = await app.services.analytics.query<{ entry_id: string }>(
      "SELECT entry_id FROM cdn_logs WHERE org_id = {org:String} AND path = '/articles/doomed'",
      { org: org.orgId },
    );
    expect(stored).toEqual([{ entry_id: '' }]);
  });

  it("remembers an entry's past days, and reads a day again when lines of it arrive late", async () => {
    await entry(org, 'late', { model: 'article', siteId: siteA, slug: 'late-news', fields: { title: 'Late news' } });
    const day = Math.floor(Date.now() / DAY) * DAY - 4 * DAY; // a whole day before every other line here
    const lines = (count: number, seed: number) =>
      generateTraffic({ count, startMs: day + HOUR, spanMs: 20 * HOUR, seed }).map((e) => ({ ...e, path: '/articles/late-news' }));
    const expected = (events: TrafficEvent[]) => ({
      requests: events.length,
      bytes: events.reduce((n, e) => n + e.bytes, 0),
      entries: [{ id: ids.late, model: 'article', title: 'Late news', requests: events.length, bytes: events.reduce((n, e) => n + e.bytes, 0), visitors: new Set(events.map((e) => `${e.clientIp}|${e.userAgent}`)).size }],
      otherRequests: 0,
    });
    const query = `from=${new Date(day).toISOString()}&to=${new Date(day + DAY).toISOString()}`;
    const { statements, stop } = recordStatements(app);
    // the day's visitors: merged from the rollup's states once, then remembered
    const readsDayStates = () => statements.some((sql) => sql.includes('FROM cdn_entries_daily') && sql.includes('uniqMerge'));
    try {
      const first = lines(120, 41);
      expect((await pushLogs(app, org.ingestToken, 'web', ndjson(first.map(toCanonical)))).status).toBe(200);
      await waitForSpool(app, org.orgId);
      expect((await report(org, 'web', query)).body.result).toEqual(expected(first));
      expect(readsDayStates()).toBe(true);
      statements.length = 0;
      expect((await report(org, 'web', query)).body.result).toEqual(expected(first));
      expect(readsDayStates()).toBe(false);
      // lines of that day arrive late: its requests changed, so it is read again
      const late = lines(30, 42);
      expect((await pushLogs(app, org.ingestToken, 'web', ndjson(late.map(toCanonical)))).status).toBe(200);
      await waitForSpool(app, org.orgId);
      statements.length = 0;
      expect((await report(org, 'web', query)).body.result).toEqual(expected([...first, ...late]));
      expect(readsDayStates()).toBe(true);
      // GraphQL reads through the same remembered days (all distributions, people only)
      const gql = await app.json('/graphql', {
        token: await app.createToken(org.manageToken, ['delivery', 'analytics']),
        body: { query: `{ entry(id: "${ids.late}") { system { traffic(from: "${new Date(day).toISOString()}", to: "${new Date(day + DAY).toISOString()}") { requests visitors } } } }` },
      });
      const people = [...first, ...late].filter((e) => !BOTS.has(e.userAgent)); // bots left out unless asked
      expect(gql.body.data.entry.system.traffic).toEqual({ requests: people.length, visitors: new Set(people.map((e) => `${e.clientIp}|${e.userAgent}`)).size });
    } finally {
      stop();
    }
  });
});
