import { buffer } from 'node:stream/consumers';
import { gzipSync } from 'node:zlib';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createBackpressure } from '../../shared/ingest/backpressure.js';
import { ingestLogBatch } from '../../shared/ingest/ingest-batch.js';
import { drainSpool, processSpooledBatch } from '../../shared/ingest/process-batch.js';
import { pruneDoneBatches } from '../../shared/ingest/spool-repository.js';
import { generateTraffic, ndjson, toCanonical } from '../fixtures/cdn-logs/traffic.js';
import { startTestApp, type TestApp } from '../support/harness.js';
import { createAnalyticsOrg, createDistribution, pushLogs, waitForSpool, type AnalyticsOrg } from './ingest-support.js';

const HOUR = 3_600_000;

describe('ingest pipeline', () => {
  let app: TestApp;
  let org: AnalyticsOrg;
  const limit = 256 * 1024;

  beforeAll(async () => {
    app = await startTestApp({ env: { INGEST_BODY_LIMIT_BYTES: String(limit) } });
    org = await createAnalyticsOrg(app);
    for (const d of ['bad-lines', 'resend', 'outage', 'misc', 'pressure', 'crash']) await createDistribution(app, org, d);
  });
  afterAll(async () => {
    await app?.close();
  });

  /** Rows of one distribution in the raw table and in the hourly rollup. */
  async function counts(distributionId: string) {
    const [raw] = await app.services.analytics.query<{ n: number }>(
      'SELECT count() AS n FROM cdn_logs WHERE org_id = {org:String} AND distribution_id = {d:String}',
      { org: org.orgId, d: distributionId },
    );
    const [rollup] = await app.services.analytics.query<{ n: number }>(
      'SELECT sum(requests) AS n FROM cdn_totals_hourly WHERE org_id = {org:String} AND distribution_id = {d:String}',
      { org: org.orgId, d: distributionId },
    );
    return { raw: raw.n, rollup: rollup.n };
  }

  const events = (n: number, seed: number) =>
    generateTraffic({ count: n, startMs: Date.now() - 10 * HOUR, spanMs: 5 * HOUR, seed }).map(toCanonical);

  it('reports malformed lines with their line numbers while the good ones land', async () => {
    const good = events(5, 1).map((r) => JSON.stringify(r));
    const body = [good[0], '{"timestamp":"2026-13-45","path":"/x","status":200}', good[1], 'not a log line', good[2], '', good[3], '[1,2]', good[4]].join('\n');
    const res = await pushLogs(app, org.ingestToken, 'bad-lines', body);
    expect(res.status).toBe(200);
    expect(res.body.success).toBe(true);
    expect(res.body.result).toMatchObject({ accepted: 5, rejected: 3, duplicate: false });
    expect(res.body.result.errors).toEqual([
      { line: 2, message: 'timestamp: not a valid timestamp' },
      { line: 4, message: 'not a recognized log line (JSON, CloudFront or nginx/Apache combined)' },
      { line: 8, message: 'not a recognized log line (JSON, CloudFront or nginx/Apache combined)' },
    ]);
    await waitForSpool(app, org.orgId);
    expect(await counts('bad-lines')).toEqual({ raw: 5, rollup: 5 });
  });

  it('answers 400 with line numbers when no line is valid', async () => {
    const res = await pushLogs(app, org.ingestToken, 'bad-lines', '{"timestamp":"x"}\nnope\n');
    expect(res.status).toBe(400);
    expect(res.body.success).toBe(false);
    expect(res.body.errors).toEqual(['No line of the batch is valid.', 'line 1: timestamp: not a valid timestamp', expect.stringMatching(/^line 2: /)]);
    expect((await pushLogs(app, org.ingestToken, 'bad-lines', '\n\n')).status).toBe(400);
  });

  it('counts a resent batch once (gzip or not, and when a worker inserts it twice)', async () => {
    const body = ndjson(events(40, 2));
    const first = await pushLogs(app, org.ingestToken, 'resend', body, { gzip: true });
    const again = await pushLogs(app, org.ingestToken, 'resend', body);
    expect(first.body.result).toMatchObject({ accepted: 40, duplicate: false });
    expect(again.status).toBe(200);
    expect(again.body.result).toMatchObject({ accepted: 40, duplicate: true, batchId: first.body.result.batchId });
    await waitForSpool(app, org.orgId);
    expect(await counts('resend')).toEqual({ raw: 40, rollup: 40 });

    // rows inserted again with the token of the batch's insert group (a worker retrying after a
    // crash between the insert and marking the group done) are dropped by ClickHouse
    const { rows } = await app.services.db.query<{ dedup_token: string }>(
      `SELECT 'group-' || group_id AS dedup_token FROM ingest_batches WHERE org_id = $1 AND id = $2`,
      [org.orgId, first.body.result.batchId],
    );
    const rowsAgain = Buffer.from(
      ndjson(
        (await app.services.analytics.query<Record<string, unknown>>(
          `SELECT org_id, distribution_id, toUnixTimestamp64Milli(timestamp) AS timestamp, path, status, bytes
           FROM cdn_logs WHERE org_id = {org:String} AND distribution_id = 'resend' ORDER BY timestamp LIMIT 3`,
          { org: org.orgId },
        )),
      ),
    );
    await app.services.analytics.insertJsonEachRow('cdn_logs', rowsAgain, { dedupToken: rows[0].dedup_token });
    expect(await counts('resend')).toEqual({ raw: 40, rollup: 40 });
    // a different token is a different batch: counted, once
    await app.services.analytics.insertJsonEachRow('cdn_logs', rowsAgain, { dedupToken: `${rows[0].dedup_token}-other` });
    await app.services.analytics.insertJsonEachRow('cdn_logs', rowsAgain, { dedupToken: `${rows[0].dedup_token}-other` });
    expect(await counts('resend')).toEqual({ raw: 43, rollup: 43 });
  });

  // The fault is real: the raw table is detached from ClickHouse, so every insert fails exactly as
  // it would with the table (or server) gone, and attached again afterwards.
  it('accepts while ClickHouse cannot insert, and loses nothing once it can again', async () => {
    await app.services.analytics.command('DETACH TABLE cdn_logs');
    let attached = false;
    try {
      const batches = [ndjson(events(100, 3)), ndjson(events(150, 4)), ndjson(events(50, 5))];
      for (const b of batches) {
        const res = await pushLogs(app, org.ingestToken, 'outage', b, { gzip: true });
        expect(res.status).toBe(200);
      }
      // the jobs ran and failed: the batches wait in the spool with a recorded error
      const deadline = Date.now() + 20_000;
      let pending: Array<{ attempts: number; last_error: string | null }> = [];
      while (Date.now() < deadline) {
        pending = (
          await app.services.db.query<{ attempts: number; last_error: string | null }>(
            `SELECT attempts, last_error FROM ingest_batches WHERE org_id = $1 AND distribution_id = 'outage' AND state = 'pending'`,
            [org.orgId],
          )
        ).rows;
        if (pending.length === 3 && pending.every((p) => p.attempts >= 1)) break;
        await new Promise((r) => setTimeout(r, 50));
      }
      expect(pending).toHaveLength(3);
      expect(pending.every((p) => p.attempts >= 1 && (p.last_error ?? '').length > 0)).toBe(true);

      await app.services.analytics.command('ATTACH TABLE cdn_logs');
      attached = true;
      // retries are due after their backoff; make them due now instead of waiting
      await app.services.db.query(`UPDATE ingest_batches SET next_attempt_at = now() WHERE org_id = $1`, [org.orgId]);
      // the app's own queued retry of a batch (BullMQ delivers it once due) may take it before the
      // drain does: every batch is done by one of them, and each is counted once
      expect(await drainSpool(app.services)).toBeLessThanOrEqual(3);
      const left = async () =>
        (await app.services.db.query(`SELECT count(*)::int AS n FROM ingest_batches WHERE org_id = $1 AND distribution_id = 'outage' AND state = 'pending'`, [org.orgId])).rows[0].n as number;
      for (const until = Date.now() + 20_000; (await left()) > 0 && Date.now() < until; ) await new Promise((r) => setTimeout(r, 50));
      expect(await left()).toBe(0);
      expect(await counts('outage')).toEqual({ raw: 300, rollup: 300 });
      // draining again changes nothing
      expect(await drainSpool(app.services)).toBe(0);
      expect(await processSpooledBatch(app.services, org.orgId, 'no-such-batch')).toBe(true);
      expect(await counts('outage')).toEqual({ raw: 300, rollup: 300 });
    } finally {
      if (!attached) await app.services.analytics.command('ATTACH TABLE cdn_logs');
    }
  });

  it('a group inserted again after a crash between its insert and being marked done is counted once', async () => {
    await app.services.analytics.command('DETACH TABLE cdn_logs');
    let attached = false;
    type Spooled = { id: string; group_id: string | null; blob_key: string; attempts: number; state: string; last_error: string | null };
    const spooled = async () =>
      (
        await app.services.db.query<Spooled>(
          `SELECT id, group_id, blob_key, attempts, state, last_error FROM ingest_batches WHERE org_id = $1 AND distribution_id = 'crash' ORDER BY id`,
          [org.orgId],
        )
      ).rows;
    // The drainer here and the app's own log-ingest jobs (their retries fall due too) race for
    // the batches: either may insert one, so wait until all three are done, whoever did it.
    const drainedAll = async () => {
      const deadline = Date.now() + 20_000;
      await drainSpool(app.services);
      while (Date.now() < deadline && !(await spooled()).every((b) => b.state === 'done')) await new Promise((r) => setTimeout(r, 50));
      // a batch that is not done says why (ci45 saw one dead-lettered once, its reason unrecorded)
      expect((await spooled()).map((b) => (b.state === 'done' ? 'done' : `${b.state}: ${b.last_error}`))).toEqual(['done', 'done', 'done']);
    };
    try {
      for (const seed of [20, 21, 22]) expect((await pushLogs(app, org.ingestToken, 'crash', ndjson(events(100, seed)))).status).toBe(200);
      const deadline = Date.now() + 20_000;
      while (Date.now() < deadline && !(await spooled()).every((b) => b.attempts >= 1)) await new Promise((r) => setTimeout(r, 50));
      const before = await spooled();
      expect(before).toHaveLength(3);
      expect(before.every((b) => b.group_id !== null)).toBe(true);
      // what a worker that crashed right after its insert still has: the spooled rows
      const kept = await Promise.all(before.map(async (b) => [b.blob_key, await buffer((await app.services.blobs.get(b.blob_key))!.body)] as const));

      await app.services.analytics.command('ATTACH TABLE cdn_logs');
      attached = true;
      await app.services.db.query(`UPDATE ingest_batches SET next_attempt_at = now() WHERE org_id = $1 AND distribution_id = 'crash'`, [org.orgId]);
      await drainedAll();
      expect(await counts('crash')).toEqual({ raw: 300, rollup: 300 });

      // the crash: the groups went in, but were never marked done and their rows never dropped
      for (const [key, bytes] of kept) await app.services.blobs.put(key, bytes);
      await app.services.db.query(
        `UPDATE ingest_batches SET state = 'pending', done_at = NULL, next_attempt_at = now() WHERE org_id = $1 AND distribution_id = 'crash'`,
        [org.orgId],
      );
      await drainedAll();
      expect(await counts('crash')).toEqual({ raw: 300, rollup: 300 });
      // each batch stayed in the group it was first claimed for
      expect((await spooled()).map((b) => b.group_id)).toEqual(before.map((b) => b.group_id));
    } finally {
      if (!attached) await app.services.analytics.command('ATTACH TABLE cdn_logs');
    }
  });

  it('inserts batches that are pending together as one group, up to the row limit', async () => {
    // no workers: the batches wait in the spool until this test runs their jobs itself
    const idle = await startTestApp({ workers: false });
    try {
      const o = await createAnalyticsOrg(idle);
      await createDistribution(idle, o, 'together');
      const ids: string[] = [];
      for (const seed of [30, 31, 32, 33]) ids.push((await pushLogs(idle, o.ingestToken, 'together', ndjson(events(100, seed)))).body.result.batchId);
      const groups = async () =>
        (await idle.services.db.query<{ id: string; group_id: string | null; state: string }>('SELECT id, group_id, state FROM ingest_batches WHERE org_id = $1', [o.orgId])).rows;
      const raw = async () =>
        (await idle.services.analytics.query<{ n: number }>(`SELECT count() AS n FROM cdn_logs WHERE org_id = {org:String}`, { org: o.orgId }))[0].n;

      // the third batch's job takes itself first, then the oldest others while they fit in 300 rows
      expect(await processSpooledBatch(idle.services, o.orgId, ids[2], { maxRows: 300, maxBatches: 10 })).toBe(true);
      const first = await groups();
      const byId = new Map(first.map((g) => [g.id, g]));
      expect(new Set([ids[2], ids[0], ids[1]].map((id) => byId.get(id)!.group_id)).size).toBe(1);
      expect([ids[0], ids[1], ids[2]].map((id) => byId.get(id)!.state)).toEqual(['done', 'done', 'done']);
      expect(byId.get(ids[3])).toMatchObject({ group_id: null, state: 'pending' });
      expect(await raw()).toBe(300);

      // the jobs of batches already inserted with another do nothing
      for (const id of ids.slice(0, 3)) expect(await processSpooledBatch(idle.services, o.orgId, id)).toBe(true);
      expect(await raw()).toBe(300);
      expect(await processSpooledBatch(idle.services, o.orgId, ids[3])).toBe(true);
      expect(await raw()).toBe(400);
      expect((await groups()).every((g) => g.state === 'done')).toBe(true);

      // Jobs racing for the same pending batches (on Postgres: concurrent claims that skip each
      // other's locked rows): every batch goes into exactly one group, so every row counts once.
      const more: string[] = [];
      for (const seed of [34, 35, 36, 37, 38, 39]) more.push((await pushLogs(idle, o.ingestToken, 'together', ndjson(events(100, seed)))).body.result.batchId);
      const results = await Promise.all(more.map((id) => processSpooledBatch(idle.services, o.orgId, id, { maxRows: 200, maxBatches: 10 })));
      expect(results.every(Boolean)).toBe(true);
      expect(await raw()).toBe(1000);
      expect((await groups()).every((g) => g.state === 'done' && g.group_id !== null)).toBe(true);
    } finally {
      await idle.close();
    }
  });

  it('answers 503 with Retry-After when the spool is backlogged', async () => {
    await app.services.analytics.command('DETACH TABLE cdn_logs');
    try {
      const backpressure = createBackpressure({ maxPending: 1, retryAfterSeconds: 7 });
      const input = (seed: number) => ({
        orgId: org.orgId,
        distributionId: 'pressure',
        body: Buffer.from(ndjson(events(10, seed))),
      });
      await ingestLogBatch(app.services, backpressure, input(10));
      await expect(ingestLogBatch(app.services, backpressure, input(11))).rejects.toMatchObject({ status: 503, retryAfter: 7 });
    } finally {
      await app.services.analytics.command('ATTACH TABLE cdn_logs');
    }
    await app.services.db.query(`UPDATE ingest_batches SET next_attempt_at = now() WHERE org_id = $1`, [org.orgId]);
    await drainSpool(app.services);
    await waitForSpool(app, org.orgId);
    expect(await counts('pressure')).toEqual({ raw: 10, rollup: 10 });
  });

  it('forgets done batches after the retention, so only then is a resend counted again', async () => {
    const body = ndjson(events(3, 12));
    const first = await pushLogs(app, org.ingestToken, 'resend', body);
    await waitForSpool(app, org.orgId);
    await app.services.db.query(`UPDATE ingest_batches SET done_at = now() - interval '8 days' WHERE org_id = $1 AND id = $2`, [
      org.orgId,
      first.body.result.batchId,
    ]);
    expect(await pruneDoneBatches(app.services.db, 7)).toBeGreaterThanOrEqual(1);
    const { rows } = await app.services.db.query('SELECT 1 FROM ingest_batches WHERE org_id = $1 AND id = $2', [org.orgId, first.body.result.batchId]);
    expect(rows).toHaveLength(0);
    // recent batches are kept
    const { rows: kept } = await app.services.db.query(`SELECT 1 FROM ingest_batches WHERE org_id = $1 AND state = 'done'`, [org.orgId]);
    expect(kept.length).toBeGreaterThan(0);
  });

  it('refuses a body over the limit with 413, compressed or expanded', async () => {
    const big = 'x'.repeat(limit + 10);
    expect((await pushLogs(app, org.ingestToken, 'misc', big)).status).toBe(413);
    // small on the wire, too big once decompressed
    const bomb = gzipSync(Buffer.alloc(limit * 8, 'a'));
    expect(bomb.length).toBeLessThan(limit);
    const res = await pushLogs(app, org.ingestToken, 'misc', bomb, { encoding: 'gzip' });
    expect(res.status).toBe(413);
    expect(res.body.success).toBe(false);
  });

  it('refuses unreadable encodings', async () => {
    expect((await pushLogs(app, org.ingestToken, 'misc', 'hello', { encoding: 'br' })).status).toBe(415);
    expect((await pushLogs(app, org.ingestToken, 'misc', 'not gzip at all', { encoding: 'gzip' })).status).toBe(400);
  });

  it("answers shippers' health checks, Fastly's challenge and Cloudflare's destination check", async () => {
    const head = await app.fetch('/ingest/v1/distributions/misc/logs', { method: 'HEAD' });
    expect(head.status).toBe(200);
    const challenge = await app.fetch('/.well-known/fastly/logging/challenge');
    expect(challenge.status).toBe(200);
    expect((await challenge.text()).trim()).toBe('*');
    const probe = await pushLogs(app, org.ingestToken, 'misc', '{"content":"tests"}', { gzip: true, contentType: 'text/plain' });
    expect(probe.status).toBe(200);
    expect(probe.body.result).toMatchObject({ accepted: 0, rejected: 0, batchId: null });
  });

  it('needs a token (401) with the ingest scope (403) and a distribution of its own org (404)', async () => {
    const body = ndjson(events(1, 9));
    expect((await pushLogs(app, '', 'misc', body)).status).toBe(401);
    const res401 = await app.json('/ingest/v1/distributions/misc/logs', { method: 'POST', rawBody: body, headers: { 'content-type': 'application/x-ndjson' } });
    expect(res401.status).toBe(401);
    expect(res401.headers.get('www-authenticate')).toMatch(/^Bearer/);
    expect((await pushLogs(app, org.analyticsToken, 'misc', body)).status).toBe(403);
    expect((await pushLogs(app, org.ingestToken, 'no-such-distribution', body)).status).toBe(404);
    const other = await createAnalyticsOrg(app);
    await createDistribution(app, other, 'theirs');
    const foreign = await pushLogs(app, org.ingestToken, 'theirs', body);
    expect(foreign.status).toBe(404);
    expect(foreign.body.success).toBe(false);
    // and their own token works there
    expect((await pushLogs(app, other.ingestToken, 'theirs', body)).status).toBe(200);
  });
});
