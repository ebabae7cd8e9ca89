import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { generateTraffic, ndjson, toCanonical, type TrafficEvent } from '../fixtures/cdn-logs/traffic.js';
import { insertAsset } from '../../shared/assets/asset-repository.js';
import { newId, newVersionId } from '../../shared/ids.js';
import { createVisitorSalts } from '../../shared/ingest/visitor-salts.js';
import { startTestApp, type TestApp } from '../support/harness.js';
import { createAnalyticsOrg, createDistribution, pushLogs, waitForSpool, type AnalyticsOrg } from './ingest-support.js';

/**
 * The real-time report, visitor keys and their salts, and what an organization keeps of client
 * IPs. Figures are compared with a computation made here from the events pushed.
 */
const MINUTE = 60_000;
const DAY = 86_400_000;
const GOOGLEBOT = 'Mozilla/5.0 (compatible; Googlebot/2.1; +http://www.google.com/bot.html)';
const percentile = (sorted: number[], p: number) => (sorted.length === 0 ? 0 : sorted[Math.min(sorted.length - 1, Math.floor(p * sorted.length))]);

describe('analytics in depth', () => {
  let app: TestApp;
  let org: AnalyticsOrg;
  let other: AnalyticsOrg;
  const realtimeUrl = (o: AnalyticsOrg, dist: string, query = '') => `/api/v1/projects/${o.projectId}/distributions/${dist}/analytics/realtime${query}`;
  const raw = (orgId: string, dist: string) =>
    app.services.analytics.query<{ client_ip: string; visitor: string; is_bot: number; bot_name: string; country: string }>(
      `SELECT client_ip, toString(visitor) AS visitor, is_bot, bot_name, country FROM cdn_logs WHERE org_id = {org:String} AND distribution_id = {dist:String} ORDER BY timestamp`,
      { org: orgId, dist },
    );

  beforeAll(async () => {
    app = await startTestApp();
    org = await createAnalyticsOrg(app);
    other = await createAnalyticsOrg(app);
    for (const d of ['live', 'ips', 'keys', 'images']) await createDistribution(app, org, d);
    await createDistribution(app, other, 'live');
  });
  afterAll(async () => {
    await app?.close();
  });

  it('realtime: the last 30 minutes by the minute, each figure as computed from the lines', async () => {
    const now = Date.now();
    const events: TrafficEvent[] = generateTraffic({ count: 400, startMs: now - 40 * MINUTE, spanMs: 40 * MINUTE, seed: 9 }).map((e, i) => ({
      ...e,
      userAgent: i % 5 === 0 ? GOOGLEBOT : e.userAgent,
      status: i % 11 === 0 ? 503 : e.status,
    }));
    expect((await pushLogs(app, org.ingestToken, 'live', ndjson(events.map(toCanonical)))).status).toBe(200);
    await waitForSpool(app, org.orgId);
    for (const excludeBots of [false, true]) {
      const res = await app.json(realtimeUrl(org, 'live', excludeBots ? '?excludeBots=true' : ''), { token: org.analyticsToken });
      expect(res.status).toBe(200);
      const first = Date.parse(res.body.result.from);
      expect(first).toBe(Math.floor(Date.now() / MINUTE) * MINUTE - 29 * MINUTE);
      const counted = events.filter((e) => e.timestampMs >= first && !(excludeBots && (e.userAgent === GOOGLEBOT || e.userAgent === 'curl/8.5.0')));
      const perMinute = Array.from({ length: 30 }, (_, i) => {
        const inside = counted.filter((e) => Math.floor(e.timestampMs / MINUTE) * MINUTE === first + i * MINUTE);
        const times = inside.map((e) => e.serveTimeMs).sort((a, b) => a - b);
        return {
          time: new Date(first + i * MINUTE).toISOString(),
          numberOfRequests: inside.length,
          bytes: inside.reduce((s, e) => s + e.bytes, 0),
          hits: inside.filter((e) => e.cache === 'HIT').length,
          misses: inside.filter((e) => e.cache === 'MISS').length,
          clientErrors: inside.filter((e) => e.status >= 400 && e.status < 500).length,
          serverErrors: inside.filter((e) => e.status >= 500).length,
          uniqueVisitors: new Set(inside.map((e) => `${Math.floor(e.timestampMs / DAY)}|${e.clientIp}|${e.userAgent}`)).size,
          p50ServeTime: percentile(times, 0.5),
          p95ServeTime: percentile(times, 0.95),
          p99ServeTime: percentile(times, 0.99),
        };
      });
      expect(res.body.result).toEqual({
        from: new Date(first).toISOString(),
        numberOfRequests: counted.length,
        bytes: counted.reduce((s, e) => s + e.bytes, 0),
        perMinute,
      });
    }
  });

  it("realtime: another organization's distribution is 404, bad input 400, the scope required", async () => {
    expect((await app.json(realtimeUrl(org, 'live'), { token: other.analyticsToken })).status).toBe(404);
    expect((await app.json(realtimeUrl(other, 'live'), { token: org.analyticsToken })).status).toBe(404);
    const bad = await app.json(realtimeUrl(org, 'live', '?excludeBots=maybe'), { token: org.analyticsToken });
    expect(bad.status).toBe(400);
    expect(bad.body).toMatchObject({ success: false, errors: ['excludeBots: must be true or false.'] });
    expect((await app.json(realtimeUrl(org, 'live'), { token: org.ingestToken })).status).toBe(403);
  });

  it('keeps client IPs whole, truncated or not at all, as the organization chose; visitors and countries come from the whole address', async () => {
    const settings = (o: AnalyticsOrg, body?: unknown) =>
      app.json('/management/v1/analytics-settings', { token: o.manageToken, ...(body === undefined ? {} : { method: 'PUT', body }) });
    expect((await settings(org)).body.result).toEqual({ clientIps: 'full' });
    const line = (ip: string, i: number) => ({
      timestamp: new Date(Date.now() - 3 * MINUTE + i * 1000).toISOString(),
      clientIp: ip,
      method: 'GET',
      host: 'ips.example.com',
      path: '/',
      status: 200,
      bytes: 1,
      serveTimeMs: 1,
      cacheStatus: 'HIT',
      referer: '',
      userAgent: 'curl/8.5.0',
    });
    const ips = ['8.8.8.8', '2a00:1450:4001:81f::200e', '81.2.69.160'];
    const stored: Record<string, string[]> = {};
    for (const [i, mode] of (['full', 'truncated', 'none'] as const).entries()) {
      const put = await settings(org, { clientIps: mode });
      expect(put.status).toBe(200);
      expect(put.body.result).toEqual({ clientIps: mode });
      const res = await pushLogs(app, org.ingestToken, 'ips', ndjson(ips.map((ip, k) => line(ip, i * 10 + k))));
      expect(res.status).toBe(200);
      await waitForSpool(app, org.orgId);
      const rows = (await raw(org.orgId, 'ips')).slice(i * 3);
      stored[mode] = rows.map((r) => r.client_ip);
      // the same three visitors and countries whatever is stored
      expect(rows.map((r) => r.country)).toEqual(['US', 'IE', 'GB']);
      expect(rows.map((r) => r.is_bot)).toEqual([1, 1, 1]);
      expect(rows.map((r) => r.bot_name)).toEqual(['curl', 'curl', 'curl']);
    }
    expect(stored).toEqual({
      full: ips,
      truncated: ['8.8.8.0', '2a00:1450:4001::', '81.2.69.0'],
      none: ['', '', ''],
    });
    const keys = (await raw(org.orgId, 'ips')).map((r) => r.visitor);
    expect(keys.slice(3, 6)).toEqual(keys.slice(0, 3));
    expect(keys.slice(6, 9)).toEqual(keys.slice(0, 3));
    // bad input, and a change made with another organization's token changes only that one
    const bad = await settings(org, { clientIps: 'half' });
    expect(bad.status).toBe(400);
    expect(bad.body.success).toBe(false);
    expect(bad.body.errors.join(' ')).toContain('clientIps');
    expect((await settings(org, { clientIps: 'full', extra: 1 })).status).toBe(400);
    expect((await settings(other, { clientIps: 'truncated' })).status).toBe(200);
    expect((await settings(org)).body.result).toEqual({ clientIps: 'none' });
    expect((await app.json('/management/v1/analytics-settings', { token: org.analyticsToken })).status).toBe(403);
  });

  it('visitor keys: one per IP, agent and distribution on a day, under a salt shared by every batch of that day, never stored as the IP', async () => {
    const day = Math.floor(Date.now() / DAY) * DAY - 3 * DAY;
    const line = (ms: number, ip: string, ua: string) => ({ ...toCanonical(generateTraffic({ count: 1, startMs: ms, spanMs: 1, seed: 1 })[0]), clientIp: ip, userAgent: ua, timestamp: new Date(ms).toISOString() });
    // two batches: the same visitor in both, a second agent on the same IP, and the same visitor the next day
    await pushLogs(app, org.ingestToken, 'keys', ndjson([line(day + 1000, '8.8.8.8', 'a'), line(day + 2000, '8.8.8.8', 'b')]));
    await pushLogs(app, org.ingestToken, 'keys', ndjson([line(day + 3000, '8.8.8.8', 'a'), line(day + DAY + 1000, '8.8.8.8', 'a')]));
    await waitForSpool(app, org.orgId);
    const keys = (await raw(org.orgId, 'keys')).map((r) => r.visitor);
    expect(keys[0]).toBe(keys[2]);
    expect(new Set(keys).size).toBe(3);
    expect(keys.every((k) => /^[1-9]\d*$/.test(k))).toBe(true);
    const { rows } = await app.services.db.query<{ day: string }>('SELECT day::text AS day FROM visitor_salts WHERE day >= $1::date ORDER BY day', [
      new Date(day).toISOString().slice(0, 10),
    ]);
    expect(rows.map((r) => r.day).slice(0, 2)).toEqual([new Date(day).toISOString().slice(0, 10), new Date(day + DAY).toISOString().slice(0, 10)]);
  });

  it('deletes a salt two days after it was made: a late line of that day gets a new one', async () => {
    const db = app.services.db;
    const day = '2026-01-15';
    const ms = Date.parse(`${day}T12:00:00Z`);
    await db.query(`INSERT INTO visitor_salts (day, salt, created_at) VALUES ($1, '\\x01', now() - interval '49 hours') ON CONFLICT (day) DO UPDATE SET salt = '\\x01', created_at = now() - interval '49 hours'`, [day]);
    const salts = createVisitorSalts(db); // a new process: it prunes before its first new salt
    const saltFor = await salts.forInstants([ms]);
    expect(saltFor(ms).equals(Buffer.from([1]))).toBe(false);
    expect(saltFor(ms)).toHaveLength(32);
    const { rows } = await db.query<{ n: number }>(`SELECT count(*)::int AS n FROM visitor_salts WHERE created_at < now() - interval '48 hours'`);
    expect(rows[0].n).toBe(0);
  });

  it('assets: image traffic per asset and the bytes each format saved against the original', async () => {
    const asset = async (orgId: string, size: number, title: string) => {
      const id = newId();
      const versionId = newVersionId();
      await insertAsset(app.services.db, orgId, id, { versionId, type: 'IMAGE', contentType: 'image/jpeg', size, width: 100, height: 100, duration: null, posterKey: null, placeholder: null }, { title });
      return { id, versionId };
    };
    const a = await asset(org.orgId, 50_000, 'Hero');
    const b = await asset(org.orgId, 20_000, 'Logo');
    const theirs = await asset(other.orgId, 90_000, 'Theirs');
    const unknown = { id: 'gone0000000000000000', versionId: 'v1' };
    const img = (o: string, x: { id: string; versionId: string }, ops: string) => `/img/SIG/${o}/${x.id}/${x.versionId}/${ops}`;
    const old = Math.floor(Date.now() / DAY) * DAY - 3 * DAY + 5 * 3_600_000;
    const recent = Date.now() - 10 * MINUTE;
    const lines: Array<{ at: number; path: string; bytes: number; status?: number; ua?: string }> = [
      ...Array.from({ length: 5 }, (_, i) => ({ at: i % 2 ? old : recent, path: img(org.orgId, a, 'w_800,fp_0.25_0.4.webp'), bytes: 8_000 })),
      ...Array.from({ length: 3 }, () => ({ at: old, path: img(org.orgId, a, 'w_800.AVIF'), bytes: 6_000 })),
      ...Array.from({ length: 2 }, () => ({ at: recent, path: img(org.orgId, a, 'w_1600.jpg'), bytes: 20_000, ua: GOOGLEBOT })),
      ...Array.from({ length: 4 }, () => ({ at: old, path: img(org.orgId, b, 'w_200.webp'), bytes: 5_000 })),
      ...Array.from({ length: 2 }, () => ({ at: recent, path: img(org.orgId, unknown, 'w_200.webp'), bytes: 1_000 })),
      // not this organization's images: refused, another organization's, another shape, not /img
      { at: recent, path: img(org.orgId, a, 'w_800.webp'), bytes: 100, status: 403 },
      { at: recent, path: img(other.orgId, theirs, 'w_800.webp'), bytes: 7_000 },
      { at: recent, path: `/img/SIG/${org.orgId}/${a.id}/w_800.webp`, bytes: 7_000 },
      { at: recent, path: '/articles/launch', bytes: 7_000 },
    ];
    const res = await pushLogs(
      app,
      org.ingestToken,
      'images',
      ndjson(lines.map((l) => ({ timestamp: new Date(l.at).toISOString(), clientIp: '8.8.8.8', method: 'GET', host: 'h', path: l.path, status: l.status ?? 200, bytes: l.bytes, serveTimeMs: 1, cacheStatus: 'HIT', referer: '', userAgent: l.ua ?? 'Mozilla/5.0 (X11; Linux x86_64; rv:132.0) Gecko/20100101 Firefox/132.0' }))),
    );
    expect(res.body.result).toMatchObject({ accepted: lines.length });
    await waitForSpool(app, org.orgId);
    const url = (query: string) =>
      `/api/v1/projects/${org.projectId}/distributions/images/analytics/assets?from=${new Date(old - 7 * 3_600_000 - 1234).toISOString()}&to=${new Date(Date.now() + MINUTE).toISOString()}${query}`;
    const got = await app.json(url('&TermCount=2'), { token: org.analyticsToken });
    expect(got.status).toBe(200);
    expect(got.body.result).toEqual({
      requests: 16,
      bytes: 5 * 8_000 + 3 * 6_000 + 2 * 20_000 + 4 * 5_000 + 2 * 1_000,
      bytesSaved: 5 * 50_000 - 40_000 + (3 * 50_000 - 18_000) + (2 * 50_000 - 40_000) + (4 * 20_000 - 20_000),
      assets: [
        { id: a.id, title: 'Hero', requests: 10, bytes: 98_000, originalBytes: 50_000 },
        { id: b.id, title: 'Logo', requests: 4, bytes: 20_000, originalBytes: 20_000 },
      ],
      otherRequests: 2,
      formats: [
        { format: 'webp', requests: 11, bytes: 62_000, bytesSaved: 5 * 50_000 - 40_000 + (4 * 20_000 - 20_000) },
        { format: 'avif', requests: 3, bytes: 18_000, bytesSaved: 3 * 50_000 - 18_000 },
        { format: 'jpg', requests: 2, bytes: 40_000, bytesSaved: 2 * 50_000 - 40_000 },
      ],
    });
    const humans = await app.json(url('&excludeBots=true&TermCount=5'), { token: org.analyticsToken });
    expect(humans.body.result.formats.map((f: { format: string }) => f.format)).toEqual(['webp', 'avif']);
    expect(humans.body.result.assets.map((x: { id: string; requests: number }) => [x.id, x.requests])).toEqual([[a.id, 8], [b.id, 4], [unknown.id, 2]]);
    expect(humans.body.result.assets[2]).toMatchObject({ title: null, originalBytes: null });
    // another organization sees none of it
    const theirsRes = await app.json(`/api/v1/projects/${org.projectId}/distributions/images/analytics/assets`, { token: other.analyticsToken });
    expect(theirsRes.status).toBe(404);
  });
});
