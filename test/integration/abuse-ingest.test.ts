import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { zlibBomb, zstdBomb } from '../support/compression-bombs.js';
import { MAX_EVENT_LOOP_BLOCK_MS, measureEventLoopBlock } from '../support/event-loop-guard.js';
import { startTestApp, type TestApp } from '../support/harness.js';
import { createAnalyticsOrg, createDistribution, pushLogs, type AnalyticsOrg } from './ingest-support.js';

/**
 * Hostile ingest bodies from one tenant: each is refused in the envelope, and none holds the
 * event loop (every tenant's) longer than the abuse bound.
 */
let app: TestApp;
let org: AnalyticsOrg;

beforeAll(async () => {
  app = await startTestApp({ workers: false, env: { INGEST_BODY_LIMIT_BYTES: String(16 * 1024 * 1024) } });
  org = await createAnalyticsOrg(app);
  await createDistribution(app, org, 'abuse');
});
afterAll(async () => app?.close());

describe('decompression bombs on the ingest endpoint', () => {
  it.each([
    ['gzip', () => zlibBomb('gzip', 512 * 1024 * 1024)],
    ['deflate', () => zlibBomb('deflate', 512 * 1024 * 1024)],
    ['zstd', async () => zstdBomb(3 * 1024 ** 3)],
  ])('%s: 413 in the envelope, without blocking the event loop', async (encoding, make) => {
    const bomb = await make();
    const { result: res, maxBlockedMs } = await measureEventLoopBlock(() => pushLogs(app, org.ingestToken, 'abuse', bomb, { encoding }));
    expect(res.status).toBe(413);
    expect(res.body).toMatchObject({ success: false, result: null, errors: [expect.stringContaining('exceeds the limit')] });
    expect(maxBlockedMs).toBeLessThan(MAX_EVENT_LOOP_BLOCK_MS);
  });

  it('a zstd frame asking for a 2 GiB window: 400, nothing allocated', async () => {
    const res = await pushLogs(app, org.ingestToken, 'abuse', zstdBomb(1024, 0xa8), { encoding: 'zstd' });
    expect(res.status).toBe(400);
    expect(res.body.errors[0]).toMatch(/window/);
  });
});
