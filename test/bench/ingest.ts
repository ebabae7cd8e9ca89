/**
 * `npm run bench:ingest`: 1,000,000 CDN log lines pushed over HTTP as gzip NDJSON in batches of
 * 10,000 until all of them are queryable in ClickHouse, end to end (parse, enrich, spool, job,
 * insert). In the same run, the limit: the same enriched rows inserted straight into the same
 * table (with its rollups) by the same store, batch by batch — what ClickHouse/chDB alone can do.
 * With chDB (in-process) it also prints what a line cost in CPU, end to end and in the raw insert,
 * and the rate that allows on this machine's cores.
 *
 * The lines span 47 hours, in time order: each batch holds the next slice of them, as a log
 * shipper sends what the CDN logged since its last batch. BENCH_SHAPE=spread spreads every batch
 * over the whole 47 hours instead (the shape of this bench before the minute rollups).
 *
 * BENCH_LINES (default 1000000), BENCH_BATCH (default 10000), BENCH_CONCURRENCY (default 4),
 * BENCH_SHAPE (default in order). Uses the adapters the environment selects, like the product
 * (embedded when none is set).
 */
import { gzipSync } from 'node:zlib';
import { createEnricher } from '../../shared/ingest/enrich.js';
import { parseBody } from '../../shared/ingest/parse-body.js';
import { ROW_COLUMNS, rowToTsv } from '../../shared/ingest/row-tsv.js';
import { generateTraffic, ndjson, toCanonical } from '../fixtures/cdn-logs/traffic.js';
import { startTestApp } from '../support/harness.js';
import { cores, cpuDuring, cpuLine } from './cpu-time.js';

const total = Number(process.env.BENCH_LINES ?? 1_000_000);
const batchSize = Number(process.env.BENCH_BATCH ?? 10_000);
const concurrency = Number(process.env.BENCH_CONCURRENCY ?? 4);
const spread = process.env.BENCH_SHAPE === 'spread';
const HOUR = 3_600_000;

const app = await startTestApp();
try {
  const org = await app.createOrg('bench ingest');
  const project = await app.json('/management/v1/projects', { token: org.manageToken, body: { name: 'bench' } });
  for (const id of ['bench', 'limit']) {
    await app.json(`/management/v1/projects/${project.body.result.id}/distributions`, {
      token: org.manageToken,
      body: { id, name: id, hostnames: [] },
    });
  }
  const token = await app.createToken(org.manageToken, ['ingest']);
  // a site whose pages are /{section}/{slug}: every line is matched against it (traffic per entry)
  const site = await app.json('/management/v1/sites', { token: org.manageToken, body: { name: 'bench' } });
  await app.json(`/management/v1/sites/${site.body.result.id}/url-patterns`, { method: 'PUT', token: org.manageToken, body: { patterns: [{ pattern: '/{section}/{slug}' }] } });

  // The shipper's side, prepared before timing: batches of NDJSON, gzipped.
  console.log(`preparing ${total} lines in batches of ${batchSize}…`);
  const texts: string[] = [];
  for (let i = 0; i < total; i += batchSize) {
    const n = Math.min(batchSize, total - i);
    // BENCH_SHAPE=spread: every batch over the whole 47 hours (each batch then feeds every hour
    // and minute of the window to the rollups, which no shipper's batch does)
    const slice = spread ? 47 * HOUR : (47 * HOUR * n) / total;
    const from = Date.now() - 48 * HOUR + (spread ? 0 : (47 * HOUR * i) / total);
    texts.push(ndjson(generateTraffic({ count: n, startMs: from, spanMs: slice, seed: i + 1 }).map(toCanonical)));
  }
  const bodies = texts.map((t) => gzipSync(t));
  const wireBytes = bodies.reduce((s, b) => s + b.length, 0);

  const count = async (distributionId: string) =>
    (
      await app.services.analytics.query<{ n: number }>(
        'SELECT count() AS n FROM cdn_logs WHERE org_id = {org:String} AND distribution_id = {d:String}',
        { org: org.orgId, d: distributionId },
      )
    )[0].n;

  // End to end over HTTP. CPU of this process (the app, chDB, PGlite) and, on the production
  // stack, of a local Postgres (the spool).
  const started = performance.now();
  const e2e = await cpuDuring(async () => {
    let next = 0;
    const push = async () => {
      while (next < bodies.length) {
        const body = bodies[next++];
        const res = await app.fetch('/ingest/v1/distributions/bench/logs', {
          method: 'POST',
          token,
          rawBody: new Uint8Array(body),
          headers: { 'content-type': 'application/x-ndjson', 'content-encoding': 'gzip' },
        });
        if (res.status !== 200) throw new Error(`push failed: ${res.status} ${await res.text()}`);
        await res.arrayBuffer();
      }
    };
    await Promise.all(Array.from({ length: concurrency }, push));
    const accepted = performance.now();
    while ((await count('bench')) < total) await new Promise((r) => setTimeout(r, 20));
    return accepted;
  }, { postgres: app.stack === 'production' });
  const queryable = performance.now();
  const accepted = e2e.result;
  const e2eCpu = e2e.processSeconds + (e2e.postgresSeconds ?? 0);
  const e2eRate = total / ((queryable - started) / 1000);

  // The limit: the same rows, already parsed and enriched, inserted straight into the store.
  const enricher = await createEnricher();
  const rows = texts.map((t) =>
    Buffer.from(parseBody(t).records.map((r) => rowToTsv(enricher.toRow(r, org.orgId, 'limit'))).join('\n') + '\n'),
  );
  const limitStart = performance.now();
  const { processSeconds: limitCpu } = await cpuDuring(
    async () => {
      for (const [i, b] of rows.entries()) await app.services.analytics.insertJsonEachRow('cdn_logs', b, { dedupToken: `limit-${org.orgId}-${i}`, format: 'TabSeparated', columns: ROW_COLUMNS });
    },
    { postgres: false },
  );
  const limitEnd = performance.now();
  if ((await count('limit')) !== total) throw new Error('limit run lost rows');
  const limitRate = total / ((limitEnd - limitStart) / 1000);

  const fmt = (n: number) => Math.round(n).toLocaleString('en-US');
  console.log(`stack: ${app.stack}, analytics store: ${app.services.analytics.kind}`);
  console.log(`lines: ${fmt(total)} over 47 h (${spread ? 'each batch spread over all of it' : 'batches in time order'}) in ${bodies.length} gzip batches (${(wireBytes / 1e6).toFixed(1)} MB on the wire), ${concurrency} in flight`);
  console.log(`all accepted (durable) after ${((accepted - started) / 1000).toFixed(2)} s; all queryable after ${((queryable - started) / 1000).toFixed(2)} s`);
  console.log(`end to end:            ${fmt(e2eRate)} lines/s  (target ≥ 150,000)`);
  console.log(`raw insert (the limit): ${fmt(limitRate)} lines/s`);
  console.log(`end to end / limit:    ${((e2eRate / limitRate) * 100).toFixed(0)} %  (target ≥ 50 %)`);
  // What each line costs the machine: with an in-process engine the insert's CPU is counted
  // here, and cores / (CPU per line) bounds any rate on this machine, however well overlapped.
  if (app.services.analytics.kind === 'chdb') {
    const e2eSeconds = (queryable - started) / 1000;
    const limitSeconds = (limitEnd - limitStart) / 1000;
    console.log(`CPU, end to end:       ${cpuLine(e2eCpu, e2eSeconds, total, 'line')} (app, chDB, ${e2e.postgresSeconds === undefined ? 'PGlite' : 'Postgres'})`);
    console.log(`CPU, raw insert:       ${cpuLine(limitCpu, limitSeconds, total, 'line')} (chDB)`);
    console.log(`CPU ceiling here (${cores()} cores): raw insert alone ≤ ${fmt((cores() * total) / limitCpu)} lines/s; end to end ≤ ${fmt((cores() * total) / e2eCpu)} lines/s`);
  }
} finally {
  await app.close();
}
