import { readFile } from 'node:fs/promises';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  generateTraffic,
  ndjson,
  toAkamai,
  toCanonical,
  toCloudflare,
  toCloudFrontRealtime,
  toCloudFrontStandard,
  toFastly,
  toNginx,
} from '../fixtures/cdn-logs/traffic.js';
import { startTestApp, type TestApp } from '../support/harness.js';
import { allAnalytics, createAnalyticsOrg, createDistribution, pushLogs, waitForSpool, type AnalyticsOrg } from './ingest-support.js';

const fixtures = path.join(path.dirname(fileURLToPath(import.meta.url)), '../fixtures/cdn-logs');

// The same 600 requests pushed in every supported format must give identical analytics.
describe('ingest: every format gives the same analytics', () => {
  let app: TestApp;
  let org: AnalyticsOrg;
  const hour = 3_600_000;
  const start = Math.floor(Date.now() / hour) * hour - 30 * hour;
  const events = generateTraffic({ count: 600, startMs: start, spanMs: 26 * hour, seed: 7 });
  const window = `from=${new Date(start - hour).toISOString()}&to=${new Date(start + 28 * hour).toISOString()}`;

  const bodies: Record<string, { body: string; contentType: string; gzip?: boolean; encoding?: string; raw?: Buffer }> = {
    canonical: { body: ndjson(events.map(toCanonical)), contentType: 'application/x-ndjson' },
    'canonical-gzip': { body: ndjson(events.map(toCanonical)), contentType: 'application/x-ndjson', gzip: true },
    'canonical-array': { body: JSON.stringify(events.map(toCanonical)), contentType: 'application/json' },
    cloudflare: { body: ndjson(events.map(toCloudflare)), contentType: 'application/x-ndjson', gzip: true },
    fastly: { body: ndjson(events.map(toFastly)), contentType: 'application/json' },
    akamai: { body: ndjson(events.map(toAkamai)), contentType: 'application/json' },
    'cloudfront-standard': { body: toCloudFrontStandard(events), contentType: 'text/plain', gzip: true },
    'cloudfront-realtime': { body: toCloudFrontRealtime(events), contentType: 'text/plain' },
    nginx: { body: toNginx(events), contentType: 'text/plain' },
  };

  beforeAll(async () => {
    app = await startTestApp();
    org = await createAnalyticsOrg(app);
    for (const name of Object.keys(bodies)) await createDistribution(app, org, name);
    await createDistribution(app, org, 'zstd');
  });
  afterAll(async () => {
    await app?.close();
  });

  it('accepts every line of every format', async () => {
    for (const [name, b] of Object.entries(bodies)) {
      const res = await pushLogs(app, org.ingestToken, name, b.body, { contentType: b.contentType, gzip: b.gzip });
      expect({ name, status: res.status, accepted: res.body.result?.accepted, rejected: res.body.result?.rejected }).toEqual({
        name,
        status: 200,
        accepted: 600,
        rejected: 0,
      });
    }
    await waitForSpool(app, org.orgId);
  });

  it('answers every endpoint identically for each format', async () => {
    const reference = await allAnalytics(app, org, 'canonical', window);
    expect((reference.overview as { hits: number }).hits).toBeGreaterThan(0);
    for (const name of Object.keys(bodies)) {
      if (name === 'canonical') continue;
      expect({ name, analytics: await allAnalytics(app, org, name, window) }).toEqual({ name, analytics: reference });
    }
  });

  it('reads a zstd-compressed body (made with the zstd CLI)', async () => {
    const body = await readFile(path.join(fixtures, 'sample.ndjson.zst'));
    const plain = await readFile(path.join(fixtures, 'sample.ndjson'), 'utf8');
    const res = await pushLogs(app, org.ingestToken, 'zstd', body, { encoding: 'zstd' });
    expect(res.status).toBe(200);
    expect(res.body.result.accepted).toBe(plain.trim().split('\n').length);
  });
});
