import { execFile } from 'node:child_process';
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { promisify } from 'node:util';
import pg from 'pg';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { randomBase62 } from '../../shared/ids.js';
import { projectRoot } from '../../shared/paths.js';
import { freePort } from '../support/free-port.js';
import { createPostgresCluster, type PostgresCluster } from '../support/postgres-cluster.js';
import { createRedisProcess, type RedisProcess } from '../support/redis-process.js';
import { startTestS3, type TestS3 } from '../support/test-s3.js';
import { startBalancer, type Balancer } from './balancer.js';
import { folioProcess, splitEnv, type FolioProcess } from './folio-processes.js';
import { startLoad, type FaultTally, type LoadTargets } from './load.js';

/**
 * The production shape: two API processes behind a load balancer and two workers processes, on one
 * Postgres and one Redis, under GraphQL, REST and ingest load, while a rolling update replaces
 * each process in turn with SIGTERM (as Kubernetes does). The balancer probes `/readyz` every
 * second (out after two failures) and routes to ready processes over kept-alive connections. It
 * fails on a 500, any other unexpected answer, a log line accepted with a 2xx and not counted
 * exactly once, or a connection the balancer found refused or reset (its 502s): an API process
 * stops accepting only once the balancer has stopped sending (see shared/http-drain.ts). The two
 * workers each hold an embedded engine; their counts are merged. Prints one row per phase.
 */
const PROBE_PERIOD_MS = 1000;
const PROBE_FAILURE_THRESHOLD = 2;
// Four processes start on a machine the load already keeps busy.
const START_TIMEOUT_MS = 180_000;
// Longer than the probe period × failure threshold (plus a probe in flight), as deploy/k8s sets it.
const READINESS_DELAY_MS = 4000;

let cluster: PostgresCluster;
let redis: RedisProcess;
let s3: TestS3;
let balancer: Balancer;
const apis: FolioProcess[] = [];
const workers: FolioProcess[] = [];
const workerDirs: string[] = [];
const dirs: string[] = [];
let targets: LoadTargets;
let orgId: string;
const tallies = new Map<string, FaultTally>();
let phase = 'warm-up';
const phaseMs = new Map<string, number>();
let phaseStarted = Date.now();
/** Moves the load's counting to the next phase, keeping how long the last one took. */
function enter(next: string): void {
  phaseMs.set(phase, Date.now() - phaseStarted);
  phase = next;
  phaseStarted = Date.now();
}

const execFileAsync = promisify(execFile);
const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

async function call(pathname: string, token: string, body?: unknown): Promise<{ status: number; result: any }> {
  const res = await fetch(targets.baseUrl + pathname, {
    method: body === undefined ? 'GET' : 'POST',
    headers: { authorization: `Bearer ${token}`, 'content-type': 'application/json' },
    body: body === undefined ? undefined : JSON.stringify(body),
  });
  const json = (await res.json()) as { result: unknown };
  return { status: res.status, result: json.result };
}

beforeAll(async () => {
  cluster = createPostgresCluster(await freePort());
  redis = createRedisProcess(await freePort());
  await redis.start();
  s3 = await startTestS3();
  const adminToken = 'chaos-admin-' + randomBase62(40);
  const common = {
    ...splitEnv({ databaseUrl: cluster.url, redisUrl: redis.url, s3: s3.s3Config, adminToken, poolSize: 6 }),
    SHUTDOWN_READINESS_DELAY_MS: String(READINESS_DELAY_MS),
  };
  const upstreams: string[] = [];
  for (let i = 0; i < 2; i++) {
    const port = await freePort();
    const url = `http://127.0.0.1:${port}`;
    upstreams.push(url);
    const dir = mkdtempSync(path.join(os.tmpdir(), `folio-rolling-api${i}-`));
    dirs.push(dir);
    apis.push(
      folioProcess({
        name: `api-${i}`,
        entry: 'api/main.ts',
        env: { ...common, DATA_DIR: dir, PORT: String(port), HOST: '127.0.0.1', PUBLIC_BASE_URL: url },
        ready: () => fetch(`${url}/readyz`).then((r) => r.ok, () => false),
        startTimeoutMs: START_TIMEOUT_MS,
      }),
    );
    const workersDir = mkdtempSync(path.join(os.tmpdir(), `folio-rolling-workers${i}-`));
    dirs.push(workersDir);
    workerDirs.push(workersDir);
    workers.push(
      folioProcess({
        name: `workers-${i}`,
        entry: 'workers/main.ts',
        env: { ...common, DATA_DIR: workersDir, LOG_LEVEL: 'info' },
        ready: async (p) => p.output().includes('workers running'),
        startTimeoutMs: START_TIMEOUT_MS,
      }),
    );
  }
  // One at a time: the first applies the migrations.
  for (const p of [...apis, ...workers]) await p.start();
  balancer = await startBalancer(upstreams, { periodMs: PROBE_PERIOD_MS, failureThreshold: PROBE_FAILURE_THRESHOLD, current: () => phase });
  await Promise.all(apis.map((_, i) => balancer.untilReady(i)));

  targets = { baseUrl: balancer.url, deliveryToken: '', manageToken: '', ingestToken: '', distributionId: 'chaos' };
  const org = await call('/admin/v1/organizations', adminToken, { name: 'Rolling', slug: `rolling-${randomBase62(8).toLowerCase()}` });
  expect(org.status).toBe(201);
  orgId = org.result.id;
  targets.manageToken = org.result.token;
  const token = async (scopes: string[]) => (await call('/management/v1/tokens', targets.manageToken, { name: scopes.join(), scopes })).result.token as string;
  targets.deliveryToken = await token(['delivery']);
  targets.ingestToken = await token(['ingest']);
  const project = await call('/management/v1/projects', targets.manageToken, { name: 'Rolling site' });
  expect((await call(`/management/v1/projects/${project.result.id}/distributions`, targets.manageToken, { id: 'chaos', name: 'chaos', hostnames: ['chaos.example.com'] })).status).toBe(201);
}, 600_000);

afterAll(async () => {
  await balancer?.close();
  for (const p of [...apis, ...workers]) await p.kill('SIGKILL');
  await redis?.stop();
  await s3?.close();
  cluster?.destroy();
  for (const d of dirs) rmSync(d, { recursive: true, force: true });
});

describe('chaos: a rolling update of two API and two workers processes', () => {
  it('replaces every process with SIGTERM: no refused or reset connection, no 500, no lost or doubled line', async () => {
    const load = startLoad(targets, tallies, () => phase);
    try {
      phaseStarted = Date.now();
      await sleep(1500);
      enter('rolling-restart-api');
      for (const [i, api] of apis.entries()) {
        await api.kill('SIGTERM');
        await api.start();
        await balancer.untilReady(i);
      }
      enter('rolling-restart-workers');
      for (const w of workers) {
        await w.kill('SIGTERM');
        await w.start();
      }
      enter('after');
      await sleep(1000);
    } finally {
      await load.stop();
      enter('counting');
    }

    const counted = await countLines();
    enter('done');
    const failures = balancer.failures();
    const rows = [...tallies].map(([name, t]) => {
      const c = counted.get(name) ?? { counted: 0, distinct: 0 };
      const f = failures.get(name) ?? { refused: 0, reset: 0, samples: [] };
      return { name, ...t, ...c, refused: f.refused, reset: f.reset, failureSamples: f.samples, lost: Math.max(0, t.linesAccepted - c.distinct), doubled: c.counted - c.distinct };
    });
    printTable(rows);

    for (const p of [...apis, ...workers]) expect({ process: p.name, exits: p.exits() }).toEqual({ process: p.name, exits: [] });
    for (const r of rows) {
      expect({ phase: r.name, serverErrors: r.serverErrors, other: r.other, samples: r.samples }).toEqual({ phase: r.name, serverErrors: 0, other: 0, samples: [] });
      expect({ phase: r.name, lost: r.lost, doubled: r.doubled }).toEqual({ phase: r.name, lost: 0, doubled: 0 });
      expect({ phase: r.name, refused: r.refused, reset: r.reset, samples: r.failureSamples }).toEqual({ phase: r.name, refused: 0, reset: 0, samples: [] });
    }
    expect(tallies.get('rolling-restart-api')!.ok).toBeGreaterThan(0);
  }, 600_000);
});

/** Waits for the spool to drain, stops the workers, and merges the lines counted in each one's engine. */
async function countLines(): Promise<Map<string, { counted: number; distinct: number }>> {
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
  // Each engine is read by a process of its own (chDB opens one folder per process), both at once.
  await Promise.all(workers.map((w) => w.kill('SIGTERM')));
  const outputs = await Promise.all(
    workerDirs.map(async (dir) => {
      const { stdout } = await execFileAsync(process.execPath, ['--import', 'tsx', 'test/chaos/count-lines.ts'], {
        cwd: projectRoot,
        env: { PATH: process.env.PATH, HOME: process.env.HOME, CHAOS_DATA_DIR: dir, CHAOS_ORG_ID: orgId, CHAOS_OUTPUT: 'paths' },
        encoding: 'utf8',
        maxBuffer: 256 * 1024 * 1024,
      });
      return JSON.parse(stdout.trim().split('\n').pop()!) as Record<string, number>;
    }),
  );
  const perPath = new Map<string, number>();
  for (const counts of outputs) for (const [p, n] of Object.entries(counts)) perPath.set(p, (perPath.get(p) ?? 0) + n);
  const perPhase = new Map<string, { counted: number; distinct: number }>();
  for (const [p, n] of perPath) {
    const name = p.split('/')[2];
    const c = perPhase.get(name) ?? { counted: 0, distinct: 0 };
    perPhase.set(name, { counted: c.counted + n, distinct: c.distinct + 1 });
  }
  return perPhase;
}

interface Row extends FaultTally {
  name: string;
  counted: number;
  refused: number;
  reset: number;
  lost: number;
  doubled: number;
}

function printTable(rows: Row[]): void {
  const header = ['phase', 'seconds', 'requests', '2xx', '503', 'of which backlogged', '500', 'other', 'refused (502)', 'reset (502)', 'lines accepted', 'counted', 'lost', 'doubled'];
  const lines = rows.map((r) => [r.name, ((phaseMs.get(r.name) ?? 0) / 1000).toFixed(1), r.requests, r.ok, r.unavailable, r.backlogged, r.serverErrors, r.other, r.refused, r.reset, r.linesAccepted, r.counted, r.lost, r.doubled].map(String));
  const widths = header.map((h, i) => Math.max(h.length, ...lines.map((l) => l[i].length)));
  const fmt = (cells: string[]) => '| ' + cells.map((c, i) => c.padEnd(widths[i])).join(' | ') + ' |';
  const table = [fmt(header), '|' + widths.map((w) => '-'.repeat(w + 2)).join('|') + '|', ...lines.map(fmt)].join('\n');
  const refusedOrReset = rows.reduce((n, r) => n + r.refused + r.reset, 0);
  const notes = [`refused or reset connections: ${refusedOrReset} (target 0${refusedOrReset === 0 ? ', met' : ', missed'})`, `counting the lines: ${((phaseMs.get('counting') ?? 0) / 1000).toFixed(1)} s`, ...rows.filter((r) => r.samples.length + r.unavailableSamples.length > 0).map((r) => `${r.name}: ${[...r.samples, ...r.unavailableSamples].join(', ')}`)];
  mkdirSync(path.join(projectRoot, '.tmp'), { recursive: true });
  writeFileSync(path.join(projectRoot, '.tmp/chaos-rolling-table.md'), table + '\n' + notes.join('\n') + '\n');
  process.stdout.write(`\nchaos suite: rolling update (refused / reset: upstream connections the balancer could not use)\n${table}\n${notes.join('\n')}\n`);
}
