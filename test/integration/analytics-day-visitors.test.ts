import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { generateTraffic, ndjson, toCanonical, type TrafficEvent } from '../fixtures/cdn-logs/traffic.js';
import { startTestApp, type TestApp } from '../support/harness.js';
import { createAnalyticsOrg, createDistribution, pushLogs, recordStatements, waitForSpool, type AnalyticsOrg } from './ingest-support.js';

const DAY = 86_400_000;

// The overview remembers whole days' unique visitors once merged from their states, and reads a
// day's states again when lines of it arrive late (its requests counted by the states changed).
describe('overview: remembered visitors of whole days', () => {
  let app: TestApp;
  let org: AnalyticsOrg;
  beforeAll(async () => {
    app = await startTestApp();
    org = await createAnalyticsOrg(app);
    await createDistribution(app, org, 'web');
  });
  afterAll(async () => {
    await app?.close();
  });

  it('answers as merged from the states, merges a whole day once, and again when its lines arrive late', async () => {
    const first = Math.floor(Date.now() / DAY) * DAY - 3 * DAY;
    const days = (count: number, seed: number, ipBase: number): TrafficEvent[] =>
      generateTraffic({ count, startMs: first, spanMs: 2 * DAY, seed }).map((e, i) => ({ ...e, clientIp: `198.51.100.${ipBase + (i % 40)}` }));
    const expected = (events: TrafficEvent[]) => {
      const perDay = [0, 1].map((d) => events.filter((e) => Math.floor(e.timestampMs / DAY) * DAY === first + d * DAY));
      const visitors = perDay.map((list) => new Set(list.map((e) => `${e.clientIp}|${e.userAgent}`)).size);
      return {
        uniqueVisitors: visitors[0] + visitors[1],
        perInterval: perDay.map((list, d) => ({ time: new Date(first + d * DAY).toISOString(), numberOfRequests: list.length, uniqueVisitors: visitors[d] })),
      };
    };
    const overview = async () => {
      const res = await app.json(
        `/api/v1/projects/${org.projectId}/distributions/web/analytics?from=${new Date(first).toISOString()}&to=${new Date(first + 2 * DAY).toISOString()}&intervalType=2`,
        { token: org.analyticsToken },
      );
      expect(res.status, JSON.stringify(res.body)).toBe(200);
      const r = res.body.result as { uniqueVisitors: number; aggregatesPerInterval: Array<{ time: string; numberOfRequests: number; uniqueVisitors: number }> };
      return { uniqueVisitors: r.uniqueVisitors, perInterval: r.aggregatesPerInterval.map(({ time, numberOfRequests, uniqueVisitors }) => ({ time, numberOfRequests, uniqueVisitors })) };
    };
    const { statements, stop } = recordStatements(app);
    const mergesDailyVisitors = () => statements.some((sql) => /serve_time, visitors AS visitors, toUInt64\(requests\) AS r FROM cdn_stats_daily/.test(sql));
    try {
      const lines = days(300, 51, 0);
      expect((await pushLogs(app, org.ingestToken, 'web', ndjson(lines.map(toCanonical)))).status).toBe(200);
      await waitForSpool(app, org.orgId);
      expect(await overview()).toEqual(expected(lines));
      expect(mergesDailyVisitors()).toBe(true);
      statements.length = 0;
      expect(await overview()).toEqual(expected(lines));
      expect(mergesDailyVisitors()).toBe(false);
      // late lines of both days, from new visitors: their counts changed, so they are merged again
      const late = days(60, 52, 100);
      expect((await pushLogs(app, org.ingestToken, 'web', ndjson(late.map(toCanonical)))).status).toBe(200);
      await waitForSpool(app, org.orgId);
      statements.length = 0;
      const after = await overview();
      expect(after).toEqual(expected([...lines, ...late]));
      expect(after.uniqueVisitors).toBeGreaterThan(expected(lines).uniqueVisitors);
      expect(mergesDailyVisitors()).toBe(true);
    } finally {
      stop();
    }
  });
});
