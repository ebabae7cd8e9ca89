import { spawn } from 'node:child_process';
import { mkdtemp, rm } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { randomBase62 } from '../../shared/ids.js';
import { projectRoot } from '../../shared/paths.js';
import { startClickHouseStub } from '../support/clickhouse-stub.js';
import { freePort } from '../support/free-port.js';

/**
 * The start-up matrix: each fault ends the process with one clear line naming the variable and
 * what was tried, and an exit code, never a stack trace — except ClickHouse, which content
 * delivery does not need: without it the server starts and says so in one line.
 */
const dirs: string[] = [];
afterAll(async () => {
  for (const d of dirs) await rm(d, { recursive: true, force: true });
});

interface Exit {
  code: number | null;
  stderr: string;
  output: string;
}

async function run(entry: string, env: Record<string, string>, untilReady?: (out: string) => boolean): Promise<Exit & { stop(): Promise<void> }> {
  const dataDir = env.DATA_DIR ?? (await mkdtemp(path.join(os.tmpdir(), 'folio-startfault-')));
  dirs.push(dataDir);
  const child = spawn(process.execPath, ['--import', 'tsx', entry], {
    cwd: projectRoot,
    env: { PATH: process.env.PATH, HOME: process.env.HOME, PORT: String(await freePort()), SEED_DEMO: 'false', LOG_LEVEL: 'info', DATA_DIR: dataDir, ...env },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let stderr = '';
  let output = '';
  child.stdout!.on('data', (d) => (output += d));
  child.stderr!.on('data', (d) => {
    stderr += d;
    output += d;
  });
  const exited = new Promise<number | null>((resolve) => child.once('exit', (code) => resolve(code)));
  if (untilReady) {
    const deadline = Date.now() + 90_000;
    while (!untilReady(output) && child.exitCode === null && Date.now() < deadline) await new Promise((r) => setTimeout(r, 200));
    return {
      code: null,
      stderr,
      output,
      async stop() {
        child.kill('SIGTERM');
        await exited;
      },
    };
  }
  const code = await Promise.race([exited, new Promise<'timeout'>((r) => setTimeout(() => r('timeout'), 60_000))]);
  if (code === 'timeout') child.kill('SIGKILL');
  return { code: code === 'timeout' ? null : code, stderr, output, async stop() {} };
}

function expectOneLine(exit: Exit, code: number, line: RegExp) {
  expect({ code: exit.code, stack: /\n\s+at /.test(exit.output) }, exit.output).toEqual({ code, stack: false });
  const ours = exit.stderr.split('\n').filter((l) => l.startsWith('folio: '));
  expect(ours, exit.stderr).toHaveLength(1);
  expect(ours[0]).toMatch(line);
}


describe('start-up faults: one line and an exit code', () => {
  // Needs a Postgres to answer "no such database": the production-stack run has one.
  it.runIf(process.env.DATABASE_URL)('a database that does not exist names DATABASE_URL, the host and the database, without the password', async () => {
    const url = new URL(process.env.DATABASE_URL!);
    url.password = 'not-printed';
    url.pathname = `/folio_missing_${randomBase62(6).toLowerCase()}`;
    const exit = await run('main.ts', { DATABASE_URL: url.href });
    expectOneLine(exit, 1, /^folio: cannot start: DATABASE_URL: cannot use Postgres at [^ ]+\/folio_missing_\w+: 3D000: database ".*" does not exist/);
    expect(exit.output).not.toContain('not-printed');
  }, 90_000);

  it('a Postgres that does not answer', async () => {
    const port = await freePort();
    const exit = await run('api/main.ts', { DATABASE_URL: `postgres://postgres@127.0.0.1:${port}/folio` });
    expectOneLine(exit, 1, new RegExp(`^folio: cannot start: DATABASE_URL: cannot use Postgres at 127\\.0\\.0\\.1:${port}/folio: .*ECONNREFUSED`));
  }, 90_000);

  it('a Redis that does not answer', async () => {
    const port = await freePort();
    const exit = await run('main.ts', { REDIS_URL: `redis://127.0.0.1:${port}` });
    expectOneLine(exit, 1, new RegExp(`^folio: cannot start: REDIS_URL: cannot reach Redis at 127\\.0\\.0\\.1:${port}: .*ECONNREFUSED`));
  }, 90_000);

  it('workers without REDIS_URL', async () => {
    const exit = await run('workers/main.ts', {});
    expectOneLine(exit, 1, /^folio: cannot start: workers\/main needs REDIS_URL/);
  }, 90_000);

  it('an invalid setting exits 2 naming it', async () => {
    const exit = await run('main.ts', { PORT: 'eighty' });
    expect(exit.code).toBe(2);
    expect(exit.stderr).toMatch(/^folio: invalid configuration:\n {2}PORT: must be an integer/);
  }, 90_000);

  describe('ClickHouse is not a start-up dependency', () => {
    const startWith = async (clickhouseUrl: string, port: number) =>
      run('main.ts', { CLICKHOUSE_URL: clickhouseUrl, PORT: String(port) }, (out) => out.includes('analytics unavailable') && out.includes('folio ready'));
    const analyticsLines = (output: string) => output.split('\n').filter((l) => l.includes('analytics unavailable')).map((l) => JSON.parse(l) as { level: number; msg: string });

    it('down: the server starts, reports it once as one line, and /readyz answers 200 "degraded"', async () => {
      const port = await freePort();
      const http = await freePort();
      const server = await startWith(`http://folio:secret-not-printed@127.0.0.1:${port}`, http);
      try {
        expect(server.code).toBeNull();
        expect(analyticsLines(server.output)).toEqual([expect.objectContaining({ msg: expect.stringMatching(new RegExp(`^analytics unavailable: ClickHouse at 127\\.0\\.0\\.1:${port}: .*ECONNREFUSED`)) })]);
        expect(server.output).not.toContain('secret-not-printed');
        expect(/\n\s+at /.test(server.output)).toBe(false);
        const ready = await (await fetch(`http://127.0.0.1:${http}/readyz`)).json();
        expect(ready.status).toBe('degraded');
      } finally {
        await server.stop();
      }
    }, 120_000);

    it('too old: one line saying the version and the minimum', async () => {
      const stub = await startClickHouseStub('21.8.15.7');
      const server = await startWith(stub.url, await freePort());
      try {
        expect(server.code).toBeNull();
        expect(analyticsLines(server.output)).toEqual([expect.objectContaining({ msg: expect.stringContaining('server version 21.8.15.7 is older than 22.8, the oldest Folio supports: upgrade it') })]);
      } finally {
        await server.stop();
        await stub.close();
      }
    }, 120_000);
  });
});
