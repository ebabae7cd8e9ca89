import { spawn, type ChildProcess } from 'node:child_process';
import { existsSync, readFileSync, statSync } from 'node:fs';
import { mkdtemp, rm } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { projectRoot } from '../../shared/paths.js';
import { freePort } from '../support/free-port.js';

// Black-box: the product started as a user starts it, then stopped with SIGTERM.

interface Started {
  child: ChildProcess;
  output: () => string;
  port: number;
}

async function start(env: Record<string, string | undefined>): Promise<Started> {
  const port = await freePort();
  const child = spawn(process.execPath, ['--import', 'tsx', 'main.ts'], {
    cwd: projectRoot,
    env: { PATH: process.env.PATH, HOME: process.env.HOME, PORT: String(port), LOG_LEVEL: 'info', SEED_DEMO: 'false', ...env },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let out = '';
  child.stdout!.on('data', (d) => (out += d));
  child.stderr!.on('data', (d) => (out += d));
  const deadline = Date.now() + 60_000;
  while (Date.now() < deadline) {
    if (child.exitCode !== null) throw new Error(`exited early (${child.exitCode}):\n${out}`);
    const ok = await fetch(`http://127.0.0.1:${port}/readyz`).then((r) => r.status === 200, () => false);
    if (ok) return { child, output: () => out, port };
    await new Promise((r) => setTimeout(r, 250));
  }
  child.kill('SIGKILL');
  throw new Error(`not ready within 60 s:\n${out}`);
}

async function stop(s: Started): Promise<number | null> {
  const exited = new Promise<number | null>((resolve) => s.child.once('exit', (code) => resolve(code)));
  s.child.kill('SIGTERM');
  return exited;
}

const dirs: string[] = [];
afterAll(async () => {
  for (const d of dirs) await rm(d, { recursive: true, force: true });
});

describe('npm start on a bare machine (embedded)', () => {
  it('serves /healthz and /readyz within 60 s, creates DATA_DIR, prints the admin token location; a second start reuses the data', async () => {
    const dataDir = path.join(await mkdtemp(path.join(os.tmpdir(), 'folio-e2e-')), 'data');
    dirs.push(path.dirname(dataDir));
    const first = await start({ DATA_DIR: dataDir, SEED_DEMO: 'true' });
    expect((await fetch(`http://127.0.0.1:${first.port}/healthz`)).status).toBe(200);
    const ready = await (await fetch(`http://127.0.0.1:${first.port}/readyz`)).json();
    expect(Object.keys(ready.dependencies).join(' ')).toMatch(/pglite.*in-process.*fs.*chdb/);
    expect(first.output()).toContain(`platform admin token: in ${path.join(dataDir, 'admin-token')}`);
    expect(existsSync(path.join(dataDir, 'pg'))).toBe(true);
    // the first start seeds the demo organization and prints a delivery token and a query that works
    expect(first.output()).toContain('Demo organization created');
    const delivery = /delivery token: (folio_\w+)/.exec(first.output())![1];
    const query = /-d '(\{.*\})'/.exec(first.output())![1];
    const answer = await fetch(`http://127.0.0.1:${first.port}/graphql`, {
      method: 'POST',
      headers: { authorization: `Bearer ${delivery}`, 'content-type': 'application/json' },
      body: query,
    });
    const data = await answer.json();
    expect(answer.status).toBe(200);
    expect(data.errors).toBeUndefined();
    expect(JSON.stringify(data.data).length).toBeGreaterThan(100);
    const token = readFileSync(path.join(dataDir, 'admin-token'), 'utf8').trim();
    const created = await fetch(`http://127.0.0.1:${first.port}/admin/v1/organizations`, {
      method: 'POST',
      headers: { authorization: `Bearer ${token}`, 'content-type': 'application/json' },
      body: JSON.stringify({ name: 'Persisted', slug: 'persisted' }),
    });
    expect(created.status).toBe(201);
    expect(await stop(first)).toBe(0);
    // The JSON log: one `msg` per line, and `shutdown complete` after every step's line.
    const logLines = first.output().split('\n').filter((l) => l.startsWith('{'));
    expect(logLines.filter((l) => l.split('"msg":').length > 2)).toEqual([]);
    const messages = logLines.map((l) => (JSON.parse(l) as { msg?: string }).msg);
    expect(messages.at(-1)).toBe('shutdown complete');
    expect(messages.filter((m) => m === 'shutdown step done')).toHaveLength(3);

    const second = await start({ DATA_DIR: dataDir });
    expect(second.output()).not.toContain('migrations applied');
    expect(readFileSync(path.join(dataDir, 'admin-token'), 'utf8').trim()).toBe(token);
    const list = await fetch(`http://127.0.0.1:${second.port}/admin/v1/organizations`, { headers: { authorization: `Bearer ${token}` } });
    const body = await list.json();
    expect(body.result.map((o: { slug: string }) => o.slug)).toContain('persisted');
    expect(await stop(second)).toBe(0);
  }, 180_000);
});

describe('npm start as the README runs it', () => {
  it('builds only what changed (an unchanged tree re-emits nothing) and SIGTERM to npm stops the server', async () => {
    const dataDir = await mkdtemp(path.join(os.tmpdir(), 'folio-e2e-npm-'));
    dirs.push(dataDir);
    const runOnce = async () => {
      const port = await freePort();
      const child = spawn('npm', ['start'], {
        cwd: projectRoot,
        env: { ...process.env, PORT: String(port), DATA_DIR: dataDir, SEED_DEMO: 'false', LOG_LEVEL: 'info', DATABASE_URL: '', REDIS_URL: '' },
        stdio: ['ignore', 'pipe', 'pipe'],
      });
      let out = '';
      child.stdout!.on('data', (d) => (out += d));
      child.stderr!.on('data', (d) => (out += d));
      const health = () => fetch(`http://127.0.0.1:${port}/healthz`).then((r) => r.status, () => 0);
      const deadline = Date.now() + 150_000;
      while ((await health()) !== 200) {
        if (child.exitCode !== null) throw new Error(`npm start exited (${child.exitCode}):\n${out}`);
        if (Date.now() > deadline) throw new Error(`npm start not healthy within 150 s:\n${out}`);
        await new Promise((r) => setTimeout(r, 250));
      }
      const exited = new Promise<number | null>((resolve) => child.once('exit', (code) => resolve(code)));
      child.kill('SIGTERM');
      const code = await exited;
      // npm forwards the signal to the server (the script execs node instead of leaving it under a
      // shell that would not pass it on): once npm is gone, so is the server.
      let status = await health();
      for (let i = 0; i < 40 && status !== 0; i++) {
        await new Promise((r) => setTimeout(r, 250));
        status = await health();
      }
      return { code, status, out };
    };
    const built = path.join(projectRoot, 'dist', 'main.js');
    const first = await runOnce();
    expect(first.status, first.out).toBe(0);
    expect(first.out).toContain('shutdown complete');
    const builtAt = statSync(built).mtimeMs;
    const second = await runOnce();
    expect(second.status, second.out).toBe(0);
    expect(statSync(built).mtimeMs).toBe(builtAt);
  }, 400_000);
});

describe.runIf(process.env.DATABASE_URL && process.env.REDIS_URL)('npm start with DATABASE_URL and REDIS_URL', () => {
  it('uses Postgres and BullMQ', async () => {
    const dataDir = await mkdtemp(path.join(os.tmpdir(), 'folio-e2e-prod-'));
    dirs.push(dataDir);
    const s = await start({
      DATA_DIR: dataDir,
      DATABASE_URL: process.env.DATABASE_URL,
      REDIS_URL: process.env.REDIS_URL,
      PLATFORM_ADMIN_TOKEN: 'e2e-admin-token-with-at-least-32-characters',
    });
    const ready = await (await fetch(`http://127.0.0.1:${s.port}/readyz`)).json();
    expect(Object.keys(ready.dependencies).join(' ')).toMatch(/postgres.*bullmq/);
    expect(s.output()).toContain('adapters: database=postgres queue=bullmq');
    expect(existsSync(path.join(dataDir, 'pg'))).toBe(false);
    expect(await stop(s)).toBe(0);
  }, 120_000);
});
