import { spawnSync } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync, writeFileSync, mkdirSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { Redis } from 'ioredis';
import pg from 'pg';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { randomBase62 } from '../../shared/ids.js';
import { projectRoot } from '../../shared/paths.js';
import { freePort } from '../support/free-port.js';
import { startTestS3, type TestS3 } from '../support/test-s3.js';
import { folioProcess, splitEnv, type FolioProcess } from './folio-processes.js';
import { emptyTally, graphqlRequest, ingestRequest, isBacklogged, record, restRequest, startLoad, type FaultTally, type LoadTargets } from './load.js';
import { createPostgresCluster, type PostgresCluster } from '../support/postgres-cluster.js';
import { createRedisProcess, type RedisProcess } from '../support/redis-process.js';

/**
 * The standing fault suite: the production split (an API process and a workers process on
 * Postgres, BullMQ on Redis, S3) on a Postgres and a Redis of its own, under GraphQL, REST and
 * ingest load, while its dependencies fail. After each fault the API process is alive, clients saw
 * 503 (never 500) during the outage, service returns within 2 s of the dependency, and at the end
 * every log line accepted with a 2xx is counted exactly once. Prints one row per fault.
 */
const RECOVERY_LIMIT_MS = 2000;
const POSTGRES_STOPS = 3;

let cluster: PostgresCluster;
let redis: RedisProcess;
let s3: TestS3;
let api: FolioProcess;
let workers: FolioProcess;
let targets: LoadTargets;
let orgId: string;
const dirs: string[] = [];
const tallies = new Map<string, FaultTally>();
const recoveries = new Map<string, number>();
let fault = 'warm-up';

const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

async function admin(pathname: string, token: string, body?: unknown): Promise<{ status: number; result: any }> {
  const res = await fetch(targets.baseUrl + pathname, {
    method: body === undefined ? 'GET' : 'POST',
    headers: { authorization: `Bearer ${token}`, 'content-type': 'application/json' },
    body: body === undefined ? undefined : JSON.stringify(body),
  });
  const json = (await res.json()) as { result: unknown };
  return { status: res.status, result: json.result };
}

/**
 * Time from "the dependency is back" until GraphQL, REST and ingest all answer: 2xx, or for ingest
 * its backpressure's 503 (the API is serving; the spool waits for the restarted workers, and
 * `countLines` checks that every accepted line is counted in the end).
 */
async function timeToRecover(name: string): Promise<number> {
  const started = Date.now();
  const probeTally = emptyTally();
  for (const probe of [() => graphqlRequest(targets), () => restRequest(targets), () => ingestRequest(targets, name, tallyFor(name))]) {
    for (;;) {
      const res = await probe();
      if ((typeof res.status === 'number' && res.status < 300) || isBacklogged(res.status, res.body)) break;
      record(probeTally, res.status, res.body.slice(0, 200));
      if (Date.now() - started > 60_000) throw new Error(`${name}: no recovery within 60 s (last ${res.status} ${res.body.slice(0, 300)})`);
      await sleep(50);
    }
  }
  const ms = Date.now() - started;
  recoveries.set(name, Math.max(ms, recoveries.get(name) ?? 0));
  if (ms > RECOVERY_LIMIT_MS) tallyFor(name).unavailableSamples.push(...probeTally.unavailableSamples, ...probeTally.samples);
  return ms;
}

function tallyFor(name: string): FaultTally {
  let t = tallies.get(name);
  if (!t) tallies.set(name, (t = emptyTally()));
  return t;
}

beforeAll(async () => {
  cluster = createPostgresCluster(await freePort());
  redis = createRedisProcess(await freePort());
  await redis.start();
  s3 = await startTestS3();
  const apiPort = await freePort();
  const adminToken = 'chaos-admin-' + randomBase62(40);
  const common = {
    ...splitEnv({ databaseUrl: cluster.url, redisUrl: redis.url, s3: s3.s3Config, adminToken, poolSize: 8 }),
  };
  // Each process has its own DATA_DIR: the API's chDB is never read here; the workers' holds
  // the counted log lines (chDB is one process's engine).
  const apiDir = mkdtempSync(path.join(os.tmpdir(), 'folio-chaos-api-'));
  const workersDir = mkdtempSync(path.join(os.tmpdir(), 'folio-chaos-workers-'));
  dirs.push(apiDir, workersDir);
  const baseUrl = `http://127.0.0.1:${apiPort}`;
  api = folioProcess({
    name: 'api',
    entry: 'api/main.ts',
    env: { ...common, DATA_DIR: apiDir, PORT: String(apiPort), HOST: '127.0.0.1', PUBLIC_BASE_URL: baseUrl },
    ready: () => fetch(`${baseUrl}/healthz`).then((r) => r.ok, () => false),
  });
  workers = folioProcess({
    name: 'workers',
    entry: 'workers/main.ts',
    env: { ...common, DATA_DIR: workersDir, LOG_LEVEL: 'info' },
    ready: async (p) => p.output().includes('workers running'),
  });
  await api.start();
  await workers.start();

  targets = { baseUrl, deliveryToken: '', manageToken: '', ingestToken: '', distributionId: 'chaos' };
  const org = await admin('/admin/v1/organizations', adminToken, { name: 'Chaos', slug: `chaos-${randomBase62(8).toLowerCase()}` });
  expect(org.status).toBe(201);
  orgId = org.result.id;
  targets.manageToken = org.result.token;
  const token = async (scopes: string[]) => (await admin('/management/v1/tokens', targets.manageToken, { name: scopes.join(), scopes })).result.token as string;
  targets.deliveryToken = await token(['delivery']);
  targets.ingestToken = await token(['ingest']);
  const project = await admin('/management/v1/projects', targets.manageToken, { name: 'Chaos site' });
  const dist = await admin(`/management/v1/projects/${project.result.id}/distributions`, targets.manageToken, { id: 'chaos', name: 'chaos', hostnames: ['chaos.example.com'] });
  expect(dist.status).toBe(201);
}, 240_000);

afterAll(async () => {
  await api?.kill('SIGKILL');
  await workers?.kill('SIGKILL');
  await redis?.stop();
  await s3?.close();
  cluster?.destroy();
  for (const d of dirs) rmSync(d, { recursive: true, force: true });
});

describe('chaos: the production split while its dependencies fail', () => {
  it('survives Postgres and Redis restarts and killed workers, answers 503 (never 500) and loses no accepted line', async () => {
    let image: { status: number | string; detail: string } | undefined;
    const load = startLoad(targets, tallies, () => fault);
    try {
      await sleep(1500);

      // Three stops: a crash on a terminated connection depends on what is checked out when.
      fault = 'postgres-fast-stop';
      for (let i = 0; i < POSTGRES_STOPS; i++) {
        cluster.stopFast();
        await sleep(2000);
        cluster.start();
        await timeToRecover(fault);
        await sleep(1000);
        expect(api.alive(), api.output().slice(-3000)).toBe(true);
      }

      fault = 'redis-restart';
      await redis.stop();
      await sleep(2000);
      await redis.start();
      await timeToRecover(fault);
      await sleep(1000);
      expect(api.alive(), api.output().slice(-3000)).toBe(true);

      fault = 'workers-sigkill-ingest';
      await workers.kill('SIGKILL');
      await sleep(1500);
      await workers.start();
      await timeToRecover(fault);
      await sleep(1000);
      expect(api.alive()).toBe(true);

      fault = 'workers-sigkill-transform';
      image = await transformMissDuringWorkerKill();
      await timeToRecover(fault);

      fault = 'after';
      await sleep(1000);
    } finally {
      await load.stop();
    }

    const counted = await countLines();
    const rows = [...tallies].map(([name, t]) => {
      const c = counted[name] ?? { counted: 0, distinct: 0 };
      return { name, ...t, counted: c.counted, lost: Math.max(0, t.linesAccepted - c.distinct), doubled: c.counted - c.distinct, recoveryMs: recoveries.get(name) };
    });
    printTable(rows);

    expect(api.exits(), api.output().slice(-3000)).toEqual([]);
    // The transform the killed worker held is taken up again within the client's first timeout,
    // or at the latest by its one retry.
    expect(image?.status, image?.detail).toBe(200);
    for (const r of rows) {
      expect({ fault: r.name, serverErrors: r.serverErrors, samples: r.samples }).toEqual({ fault: r.name, serverErrors: 0, samples: r.samples });
      expect({ fault: r.name, lost: r.lost, doubled: r.doubled }).toEqual({ fault: r.name, lost: 0, doubled: 0 });
      if (r.recoveryMs !== undefined) expect({ fault: r.name, recoveryMs: r.recoveryMs }).toEqual({ fault: r.name, recoveryMs: expect.toSatisfy((ms: number) => ms <= RECOVERY_LIMIT_MS) });
    }
    // The Postgres outage was seen, and seen as 503.
    expect(tallies.get('postgres-fast-stop')!.unavailable).toBeGreaterThan(0);
  }, 300_000);
});

/** Requests a new derivative of a large image and SIGKILLs the workers while it is transformed. */
async function transformMissDuringWorkerKill(): Promise<{ status: number | string; detail: string }> {
  const tally = tallyFor(fault);
  const upload = await fetch(`${targets.baseUrl}/management/v1/assets?fileName=mouse.jpg`, {
    method: 'POST',
    headers: { authorization: `Bearer ${targets.manageToken}`, 'content-type': 'image/jpeg' },
    body: readFileSync(path.join(projectRoot, 'test/fixtures/images/the-mouse.jpg')),
  });
  const assetId = ((await upload.json()) as { result: { id: string } }).result.id;
  const urlRes = await fetch(`${targets.baseUrl}/graphql`, {
    method: 'POST',
    headers: { authorization: `Bearer ${targets.deliveryToken}`, 'content-type': 'application/json' },
    body: JSON.stringify({ query: `{ cmsAsset(id: "${assetId}") { url(transformation: {width: 3000, height: 1800, resize: FILL, quality: 95}) } }` }),
  });
  const imageUrl = ((await urlRes.json()) as { data: { cmsAsset: { url: string } } }).data.cmsAsset.url;
  const started = Date.now();
  const request = fetch(imageUrl, { signal: AbortSignal.timeout(60_000) }).then(
    async (r) => ({ status: r.status, detail: r.status === 200 ? '' : await r.text() }),
    (err: Error) => ({ status: err.name, detail: err.message }),
  );
  await untilTransformIsActive();
  await workers.kill('SIGKILL');
  await sleep(500);
  await workers.start();
  const first = await request;
  record(tally, first.status);
  if (first.status === 200) return { ...first, detail: `first request, ${Date.now() - started} ms` };
  // A client retries a 504 once; by then the job must have been taken up again.
  const retry = await fetch(imageUrl, { signal: AbortSignal.timeout(60_000) }).then(
    async (r) => ({ status: r.status, detail: `retry after ${first.status}: ${r.status === 200 ? '' : await r.text()}` }),
    (err: Error) => ({ status: err.name, detail: err.message }),
  );
  record(tally, retry.status);
  return retry;
}

/** Waits until a worker holds an image-transform job (BullMQ's active list), so the kill lands mid-transform. */
async function untilTransformIsActive(): Promise<void> {
  const client = new Redis(redis.url);
  try {
    const deadline = Date.now() + 10_000;
    while ((await client.llen('folio:image-transform:active')) === 0) {
      if (Date.now() > deadline) throw new Error('no image-transform job became active within 10 s');
      await sleep(10);
    }
  } finally {
    client.disconnect();
  }
}

async function countLines(): Promise<Record<string, { counted: number; distinct: number }>> {
  // Every accepted batch is spooled in Postgres; wait until the workers have inserted them all.
  const client = new pg.Client({ connectionString: cluster.url });
  await client.connect();
  try {
    const deadline = Date.now() + 90_000;
    for (;;) {
      const { rows } = await client.query<{ n: number }>(`SELECT count(*)::int AS n FROM ingest_batches WHERE org_id = $1 AND state = 'pending'`, [orgId]);
      if (rows[0].n === 0) break;
      if (Date.now() > deadline) throw new Error(`${rows[0].n} batches still pending after 90 s`);
      await sleep(250);
    }
  } finally {
    await client.end();
  }
  await workers.kill('SIGTERM');
  const res = spawnSync(process.execPath, ['--import', 'tsx', 'test/chaos/count-lines.ts'], {
    cwd: projectRoot,
    env: { PATH: process.env.PATH, HOME: process.env.HOME, CHAOS_DATA_DIR: dirs[1], CHAOS_ORG_ID: orgId },
    encoding: 'utf8',
  });
  if (res.status !== 0) throw new Error(`count-lines failed: ${res.stderr}`);
  return JSON.parse(res.stdout.trim().split('\n').pop()!) as Record<string, { counted: number; distinct: number }>;
}

interface Row extends FaultTally {
  name: string;
  counted: number;
  lost: number;
  doubled: number;
  recoveryMs?: number;
}

function printTable(rows: Row[]): void {
  const header = ['fault', 'requests', '2xx', '503', 'of which backlogged', '500', 'other', 'lines accepted', 'counted', 'lost', 'doubled', 'recovery s'];
  const lines = rows.map((r) => [
    r.name, r.requests, r.ok, r.unavailable, r.backlogged, r.serverErrors, r.other, r.linesAccepted, r.counted, r.lost, r.doubled,
    r.recoveryMs === undefined ? '–' : (r.recoveryMs / 1000).toFixed(2),
  ].map(String));
  const widths = header.map((h, i) => Math.max(h.length, ...lines.map((l) => l[i].length)));
  const fmt = (cells: string[]) => '| ' + cells.map((c, i) => c.padEnd(widths[i])).join(' | ') + ' |';
  const table = [fmt(header), '|' + widths.map((w) => '-'.repeat(w + 2)).join('|') + '|', ...lines.map(fmt)].join('\n');
  const notes = [
    ...rows.filter((r) => r.samples.length > 0).map((r) => `${r.name}: answers other than 2xx and 503 (first five): ${r.samples.join(', ')}`),
    ...rows.filter((r) => r.unavailableSamples.length > 0).map((r) => `${r.name}: 503 answers (first three; a slow recovery adds its probe's): ${r.unavailableSamples.join(', ')}`),
  ];
  for (const p of [api, workers]) {
    const errors = errorSummary(p.output());
    if (errors.length > 0) notes.push(`${p.name} logged (error level, distinct, with counts): ${errors.join('; ')}`);
  }
  mkdirSync(path.join(projectRoot, '.tmp'), { recursive: true });
  writeFileSync(path.join(projectRoot, '.tmp/chaos-table.md'), table + '\n' + notes.join('\n') + '\n');
  process.stdout.write(`\nchaos suite\n${table}\n${notes.join('\n')}\n`);
}

/** A process's error-level log lines as "message: error (count)", so a 503 seen by clients has its cause next to it. */
function errorSummary(output: string): string[] {
  const counts = new Map<string, number>();
  for (const line of output.split('\n')) {
    if (!line.startsWith('{')) continue;
    let entry: { level?: number; msg?: string; err?: { message?: string } };
    try {
      entry = JSON.parse(line) as typeof entry;
    } catch {
      continue;
    }
    if ((entry.level ?? 0) < 50) continue;
    const key = `${entry.msg ?? ''}: ${(entry.err?.message ?? '').slice(0, 160)}`;
    counts.set(key, (counts.get(key) ?? 0) + 1);
  }
  return [...counts].map(([k, n]) => `${k} (${n})`);
}
