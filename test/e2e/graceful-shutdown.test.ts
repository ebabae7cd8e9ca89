import { spawn, type ChildProcess } from 'node:child_process';
import { mkdtemp, rm } from 'node:fs/promises';
import net from 'node:net';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { projectRoot } from '../../shared/paths.js';
import { freePort } from '../support/free-port.js';
import { stopChild } from '../support/stop-child.js';

/**
 * A rolling update as Kubernetes does it, against a real `api/main.ts` process: SIGTERM, then the
 * load balancer still routes here until its readiness probe fails, and clients keep sending on
 * the connections they hold. Nothing that reaches the server may go unanswered.
 */
const READINESS_DELAY_MS = 4000;

let child: ChildProcess;
let port: number;
let output = '';
let dataDir: string;

const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

beforeAll(async () => {
  port = await freePort();
  dataDir = await mkdtemp(path.join(os.tmpdir(), 'folio-shutdown-'));
  const services: Record<string, string> = {};
  // The production stack's run gives the process the same Postgres and Redis.
  for (const name of ['DATABASE_URL', 'REDIS_URL']) if (process.env[name]) services[name] = process.env[name];
  child = spawn(process.execPath, ['--import', 'tsx', 'api/main.ts'], {
    cwd: projectRoot,
    env: {
      PATH: process.env.PATH,
      HOME: process.env.HOME,
      ...services,
      PORT: String(port),
      HOST: '127.0.0.1',
      DATA_DIR: dataDir,
      LOG_LEVEL: 'info',
      SEED_DEMO: 'false',
      SHUTDOWN_READINESS_DELAY_MS: String(READINESS_DELAY_MS),
    },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  child.stdout!.on('data', (d) => (output += d));
  child.stderr!.on('data', (d) => (output += d));
  const deadline = Date.now() + 90_000;
  while (!(await fetch(`http://127.0.0.1:${port}/readyz`).then((r) => r.ok, () => false))) {
    if (child.exitCode !== null) throw new Error(`exited during start:\n${output}`);
    if (Date.now() > deadline) throw new Error(`not ready within 90 s:\n${output}`);
    await sleep(200);
  }
}, 120_000);

afterAll(async () => {
  await stopChild(child);
  await rm(dataDir, { recursive: true, force: true });
});

interface RawAnswer {
  status: number;
  headers: Record<string, string>;
}

/** One kept-alive connection on which requests are written by hand, so none is silently retried elsewhere. */
async function connection(): Promise<{ request(method: string, pathname: string, body?: string): Promise<RawAnswer>; socket: net.Socket }> {
  const socket = net.connect(port, '127.0.0.1');
  await new Promise<void>((resolve, reject) => socket.once('connect', resolve).once('error', reject));
  let buffered = Buffer.alloc(0);
  let waiter: (() => void) | undefined;
  let failure: Error | undefined;
  socket.on('data', (d: Buffer) => {
    buffered = Buffer.concat([buffered, d]);
    waiter?.();
  });
  socket.on('error', (err) => {
    failure = err;
    waiter?.();
  });
  socket.on('close', () => {
    failure ??= new Error('connection closed without an answer');
    waiter?.();
  });
  const next = () => new Promise<void>((resolve) => (waiter = resolve));
  return {
    socket,
    async request(method, pathname, body = '') {
      socket.write(`${method} ${pathname} HTTP/1.1\r\nHost: 127.0.0.1\r\nContent-Type: application/json\r\nContent-Length: ${Buffer.byteLength(body)}\r\n\r\n${body}`);
      for (;;) {
        const end = buffered.indexOf('\r\n\r\n');
        if (end !== -1) {
          const [statusLine, ...lines] = buffered.subarray(0, end).toString('latin1').split('\r\n');
          const headers = Object.fromEntries(lines.map((l) => [l.slice(0, l.indexOf(':')).toLowerCase(), l.slice(l.indexOf(':') + 1).trim()]));
          const length = Number(headers['content-length'] ?? 0);
          if (buffered.length >= end + 4 + length) {
            buffered = buffered.subarray(end + 4 + length);
            return { status: Number(statusLine.split(' ')[1]), headers };
          }
        }
        if (failure) throw failure;
        await next();
      }
    },
  };
}

const newConnection = (pathname: string) =>
  fetch(`http://127.0.0.1:${port}${pathname}`, { headers: { connection: 'close' } }).then(
    (r) => r.status,
    (err: Error) => String((err.cause as { code?: string } | undefined)?.code ?? err.message),
  );

describe('SIGTERM drains like a rolling update needs', () => {
  it('fails /readyz and keeps serving for the delay, then answers requests on kept-alive connections with Connection: close before closing', async () => {
    const early = await connection();
    const late = await connection();
    expect((await early.request('GET', '/healthz')).status).toBe(200);
    expect((await late.request('GET', '/healthz')).status).toBe(200);

    const signalled = Date.now();
    const exited = new Promise<number | null>((resolve) => child.once('exit', (code) => resolve(code)));
    child.kill('SIGTERM');
    await sleep(200);

    // The readiness delay: /readyz fails, everything else is served, new connections too.
    expect(await newConnection('/readyz')).toBe(503);
    const duringDelay = await early.request('PUT', '/management/v1/models/none', '{}');
    expect(duringDelay.status).toBe(401);
    expect(duringDelay.headers.connection).toBe('close');
    await sleep(Math.max(0, signalled + READINESS_DELAY_MS - 800 - Date.now()));
    expect(await newConnection('/healthz')).toBe(200);
    expect(Date.now() - signalled).toBeLessThan(READINESS_DELAY_MS);

    // Then it stops accepting once nothing has arrived for a moment (a client still connecting is
    // answered); a request on a connection held open through it is still answered.
    let refused: number | string = 0;
    while (Date.now() - signalled < READINESS_DELAY_MS + 5000) {
      refused = await newConnection('/healthz');
      if (refused !== 200) break;
      await sleep(400);
    }
    expect(refused).toBe('ECONNREFUSED');
    expect(Date.now() - signalled).toBeGreaterThanOrEqual(READINESS_DELAY_MS);
    const afterStop = await late.request('PUT', '/management/v1/models/none', '{}');
    expect(afterStop.status).toBe(401);
    expect(afterStop.headers.connection).toBe('close');

    expect(await exited, output.slice(-3000)).toBe(0);
    expect(output).toContain('shutdown complete');
  }, 60_000);
});
