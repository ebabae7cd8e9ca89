import { spawn, type ChildProcess } from 'node:child_process';
import { mkdtemp, rm } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { randomBase62 } from '../../shared/ids.js';
import { projectRoot } from '../../shared/paths.js';
import { freePort } from '../support/free-port.js';
import { stopChild } from '../support/stop-child.js';

/**
 * The production split (`api/main.ts` and `workers/main.ts`, jobs on Redis) without a shared
 * ClickHouse: each process would have an embedded engine of its own, the workers inserting the
 * log lines and the API reading an empty one. The API must say so at start and answer analytics
 * with 503, never zeros with `success: true`, and `/readyz` must not call analytics up.
 */
const children: ChildProcess[] = [];
const dirs: string[] = [];
afterAll(async () => {
  for (const c of children) await stopChild(c);
  for (const d of dirs) await rm(d, { recursive: true, force: true });
});

async function start(entry: string, env: Record<string, string>, ready: (out: string) => boolean): Promise<() => string> {
  const dataDir = await mkdtemp(path.join(os.tmpdir(), 'folio-split-'));
  dirs.push(dataDir);
  const child = spawn(process.execPath, ['--import', 'tsx', entry], {
    cwd: projectRoot,
    env: { PATH: process.env.PATH, HOME: process.env.HOME, SEED_DEMO: 'false', LOG_LEVEL: 'info', DATA_DIR: dataDir, ...env },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  children.push(child);
  let out = '';
  child.stdout!.on('data', (d) => (out += d));
  child.stderr!.on('data', (d) => (out += d));
  const deadline = Date.now() + 90_000;
  while (!ready(out)) {
    if (child.exitCode !== null) throw new Error(`${entry} exited (${child.exitCode}):\n${out}`);
    if (Date.now() > deadline) throw new Error(`${entry} not ready within 90 s:\n${out}`);
    await new Promise((r) => setTimeout(r, 200));
  }
  return () => out;
}

const lines = (out: string) => out.split('\n').filter((l) => /CLICKHOUSE_URL/.test(l));

describe.runIf(process.env.DATABASE_URL && process.env.REDIS_URL)('api and workers as separate processes without CLICKHOUSE_URL', () => {
  it('each says so in one line at start; analytics answers 503 naming CLICKHOUSE_URL and /readyz reports it down', async () => {
    // A Redis database of its own: these workers take no other test's jobs.
    const redis = new URL(process.env.REDIS_URL!);
    redis.pathname = '/11';
    const port = await freePort();
    const adminToken = 'split-admin-' + randomBase62(32);
    const common = { DATABASE_URL: process.env.DATABASE_URL!, REDIS_URL: redis.toString(), PLATFORM_ADMIN_TOKEN: adminToken };
    const apiOutput = await start('api/main.ts', { ...common, PORT: String(port), HOST: '127.0.0.1' }, (out) => out.includes('api listening'));
    const workersOutput = await start('workers/main.ts', common, (out) => out.includes('workers running'));
    expect(lines(apiOutput())).toEqual([expect.stringContaining('analytics unavailable: no CLICKHOUSE_URL while the workers run as separate processes')]);
    expect(lines(workersOutput())).toEqual([expect.stringContaining("no CLICKHOUSE_URL: log lines go into this process's embedded engine")]);

    const base = `http://127.0.0.1:${port}`;
    const call = async (pathname: string, token: string, body?: unknown) => {
      const res = await fetch(base + pathname, {
        method: body === undefined ? 'GET' : 'POST',
        headers: { authorization: `Bearer ${token}`, 'content-type': 'application/json' },
        body: body === undefined ? undefined : JSON.stringify(body),
      });
      return { status: res.status, body: (await res.json()) as { success: boolean; errors: string[]; result: any } };
    };
    const org = await call('/admin/v1/organizations', adminToken, { name: 'Split', slug: `split-${randomBase62(8).toLowerCase()}` });
    expect(org.status).toBe(201);
    const manage = org.body.result.token as string;
    const analyticsToken = (await call('/management/v1/tokens', manage, { name: 'a', scopes: ['analytics', 'ingest'] })).body.result.token as string;
    const project = (await call('/management/v1/projects', manage, { name: 'Site' })).body.result.id as string;
    expect((await call(`/management/v1/projects/${project}/distributions`, manage, { id: 'site', name: 'site', hostnames: ['site.example.com'] })).status).toBe(201);

    const report = await call(`/api/v1/projects/${project}/distributions/site/analytics`, analyticsToken);
    expect(report.status).toBe(503);
    expect(report.body).toMatchObject({ success: false, result: null, errors: [expect.stringContaining('Set CLICKHOUSE_URL')] });
    const realtime = await call(`/api/v1/projects/${project}/distributions/site/analytics/realtime`, analyticsToken);
    expect(realtime.status).toBe(503);

    const ready = (await (await fetch(`${base}/readyz`)).json()) as { status: string; dependencies: Record<string, { state: string }> };
    expect(ready.status).toBe('degraded');
    expect(ready.dependencies['analytics (none)']).toMatchObject({ state: 'down' });
  }, 240_000);
});
