import { spawn, type ChildProcess } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { mkdtemp, rm } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { randomBase62 } from '../../shared/ids.js';
import { projectRoot } from '../../shared/paths.js';
import { freePort } from '../support/free-port.js';
import { stopChild } from '../support/stop-child.js';

/**
 * Revocation across real OS processes: two `api/main.ts` processes on one Postgres and one Redis
 * (the production stack; the embedded stack keeps its database in one process, so there A and B
 * are the same process). Each credential is first used on B, so B has it in its token cache; it is
 * then revoked on A, and B must refuse it. The cache keeps a lookup at most TOKEN_CACHE_TTL_MS
 * (5 s, set here explicitly: the bound a lost bus message falls back to); the revoking process
 * publishes on the bus, so B must refuse well under that — in less than 2 s.
 */
const production = Boolean(process.env.DATABASE_URL && process.env.REDIS_URL);
const CACHE_TTL_MS = 5000;
const BUS_BOUND_MS = 2000;
const PASSWORD = 'correct horse battery';
const ADMIN = randomBytes(24).toString('hex');

interface Api {
  base: string;
  child: ChildProcess;
  output: () => string;
}

let dataDir: string;
let a: Api;
let b: Api;

async function startApi(name: string): Promise<Api> {
  const port = await freePort();
  const services: Record<string, string> = {};
  for (const key of ['DATABASE_URL', 'REDIS_URL']) if (process.env[key]) services[key] = process.env[key];
  const child = spawn(process.execPath, ['--import', 'tsx', 'api/main.ts'], {
    cwd: projectRoot,
    env: {
      PATH: process.env.PATH,
      HOME: process.env.HOME,
      ...services,
      PORT: String(port),
      HOST: '127.0.0.1',
      DATA_DIR: dataDir,
      LOG_LEVEL: 'warn',
      SEED_DEMO: 'false',
      PLATFORM_ADMIN_TOKEN: ADMIN,
      TOKEN_CACHE_TTL_MS: String(CACHE_TTL_MS),
      SHUTDOWN_READINESS_DELAY_MS: '0',
    },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let out = '';
  child.stdout!.on('data', (d) => (out += d));
  child.stderr!.on('data', (d) => (out += d));
  const base = `http://127.0.0.1:${port}`;
  const deadline = Date.now() + 120_000;
  while (!(await fetch(`${base}/readyz`).then((r) => r.ok, () => false))) {
    if (child.exitCode !== null) throw new Error(`${name} exited during start:\n${out}`);
    if (Date.now() > deadline) throw new Error(`${name} not ready within 120 s:\n${out}`);
    await new Promise((r) => setTimeout(r, 200));
  }
  return { base, child, output: () => out };
}

beforeAll(async () => {
  dataDir = await mkdtemp(path.join(os.tmpdir(), 'folio-revocation-'));
  // one after the other: the first applies the migrations
  a = await startApi('A');
  b = production ? await startApi('B') : a;
}, 300_000);

afterAll(async () => {
  await stopChild(a?.child);
  if (b && b !== a) await stopChild(b.child);
  if (dataDir) await rm(dataDir, { recursive: true, force: true });
});

interface Answer {
  status: number;
  body: { success: boolean; errors: string[]; result: Record<string, unknown> & { token?: string } };
}

async function call(api: Api, pathname: string, o: { method?: string; token?: string; body?: unknown } = {}): Promise<Answer> {
  const res = await fetch(api.base + pathname, {
    method: o.method ?? (o.body === undefined ? 'GET' : 'POST'),
    headers: { ...(o.token ? { authorization: `Bearer ${o.token}` } : {}), ...(o.body === undefined ? {} : { 'content-type': 'application/json' }) },
    body: o.body === undefined ? undefined : JSON.stringify(o.body),
  });
  return { status: res.status, body: (await res.json()) as Answer['body'] };
}

/** Polls `probe` on B until it is no longer `from`; the status it turned to and after how long. */
async function refusedOnB(probe: () => Promise<Answer>, from: number, startedAt: number): Promise<{ status: number; ms: number; errors: string[] }> {
  for (;;) {
    const answer = await probe();
    const ms = Date.now() - startedAt;
    if (answer.status !== from || ms > CACHE_TTL_MS + 2000) return { status: answer.status, ms, errors: answer.body.errors };
    await new Promise((r) => setTimeout(r, 25));
  }
}

async function organization(): Promise<{ manage: string; orgId: string }> {
  const slug = `rev-${randomBase62(8).toLowerCase()}`;
  const made = await call(a, '/admin/v1/organizations', { token: ADMIN, body: { name: 'Revocation', slug } });
  expect(made.status).toBe(201);
  return { manage: made.body.result.token!, orgId: String(made.body.result.id) };
}

/** A member of `role`, signed in on A: their id, session bearer and a personal access token. */
async function member(manage: string, role: string): Promise<{ id: string; email: string; session: string; pat: string; patId: string }> {
  const email = `rev-${randomBase62(8).toLowerCase()}@example.test`;
  const invited = await call(a, '/management/v1/invitations', { token: manage, body: { email, role } });
  expect(invited.status).toBe(201);
  expect((await call(a, '/auth/invitations/accept', { body: { token: invited.body.result.token, password: PASSWORD } })).status).toBe(200);
  const signed = await call(a, '/auth/sign-in', { body: { email, password: PASSWORD } });
  expect(signed.status).toBe(200);
  const session = signed.body.result.token!;
  const made = await call(a, '/auth/tokens', { token: session, body: { name: 'script', expiresAt: new Date(Date.now() + 86_400_000).toISOString() } });
  expect(made.status).toBe(201);
  return { id: String((signed.body.result.member as { id: string }).id), email, session, pat: made.body.result.token!, patId: String(made.body.result.id) };
}

describe(`revocation across ${production ? 'two API processes (Postgres + Redis)' : 'one API process (embedded stack)'}`, () => {
  it('sign-out on A: the session is 401 on B under 2 s (cache bound 5 s)', async () => {
    const org = await organization();
    const m = await member(org.manage, 'viewer');
    expect((await call(b, '/auth/me', { token: m.session })).status).toBe(200);
    const started = Date.now();
    expect((await call(a, '/auth/sign-out', { method: 'POST', token: m.session })).status).toBe(200);
    const refused = await refusedOnB(() => call(b, '/auth/me', { token: m.session }), 200, started);
    expect(refused.status).toBe(401);
    expect(refused.errors[0]).toMatch(/revoked/);
    expect(refused.ms).toBeLessThan(BUS_BOUND_MS);
  });

  it('revoking another session on A: that session is 401 on B, the revoking one still works', async () => {
    const org = await organization();
    const m = await member(org.manage, 'viewer');
    const second = await call(a, '/auth/sign-in', { body: { email: m.email, password: PASSWORD } });
    const other = second.body.result.token!;
    const otherId = (second.body.result.session as { id: string }).id;
    expect((await call(b, '/auth/me', { token: other })).status).toBe(200);
    const started = Date.now();
    expect((await call(a, `/auth/sessions/${otherId}`, { method: 'DELETE', token: m.session })).status).toBe(200);
    const refused = await refusedOnB(() => call(b, '/auth/me', { token: other }), 200, started);
    expect(refused.status).toBe(401);
    expect(refused.ms).toBeLessThan(BUS_BOUND_MS);
    expect((await call(b, '/auth/me', { token: m.session })).status).toBe(200);
  });

  it('revoking a personal access token on A: 401 on B; an API token revoked on A likewise', async () => {
    const org = await organization();
    const m = await member(org.manage, 'editor');
    expect((await call(b, '/auth/me', { token: m.pat })).status).toBe(200);
    let started = Date.now();
    expect((await call(a, `/auth/tokens/${m.patId}`, { method: 'DELETE', token: m.session })).status).toBe(200);
    let refused = await refusedOnB(() => call(b, '/auth/me', { token: m.pat }), 200, started);
    expect(refused.status).toBe(401);
    expect(refused.ms).toBeLessThan(BUS_BOUND_MS);

    const token = await call(a, '/management/v1/tokens', { token: org.manage, body: { name: 'ci', scopes: ['manage'] } });
    expect(token.status).toBe(201);
    const plain = token.body.result.token!;
    expect((await call(b, '/management/v1/members', { token: plain })).status).toBe(200);
    started = Date.now();
    expect((await call(a, `/management/v1/tokens/${String(token.body.result.id)}`, { method: 'DELETE', token: org.manage })).status).toBe(200);
    refused = await refusedOnB(() => call(b, '/management/v1/members', { token: plain }), 200, started);
    expect(refused.status).toBe(401);
    expect(refused.ms).toBeLessThan(BUS_BOUND_MS);
  });

  it('a role change on A: the session and the personal token act under the new role on B under 2 s', async () => {
    const org = await organization();
    const m = await member(org.manage, 'admin');
    expect((await call(b, '/management/v1/members', { token: m.session })).status).toBe(200);
    expect((await call(b, '/management/v1/members', { token: m.pat })).status).toBe(200);
    const started = Date.now();
    expect((await call(a, `/management/v1/members/${m.id}`, { method: 'PATCH', token: org.manage, body: { role: 'viewer' } })).status).toBe(200);
    for (const credential of [m.session, m.pat]) {
      const refused = await refusedOnB(() => call(b, '/management/v1/members', { token: credential }), 200, started);
      expect(refused.status).toBe(403);
      expect(refused.ms).toBeLessThan(BUS_BOUND_MS);
    }
    expect((await call(b, '/auth/me', { token: m.session })).body.result).toMatchObject({ role: 'viewer' });
  });

  it('removing the member on A: their session and personal token are 401 on B, and stay so after a new invitation', async () => {
    const org = await organization();
    const m = await member(org.manage, 'editor');
    expect((await call(b, '/auth/me', { token: m.session })).status).toBe(200);
    expect((await call(b, '/auth/me', { token: m.pat })).status).toBe(200);
    const started = Date.now();
    expect((await call(a, `/management/v1/members/${m.id}`, { method: 'DELETE', token: org.manage })).status).toBe(200);
    for (const credential of [m.session, m.pat]) {
      const refused = await refusedOnB(() => call(b, '/auth/me', { token: credential }), 200, started);
      expect(refused.status).toBe(401);
      expect(refused.ms).toBeLessThan(BUS_BOUND_MS);
    }
    // invited again, the person is a member again — but the old credentials were revoked, not just orphaned
    const invited = await call(a, '/management/v1/invitations', { token: org.manage, body: { email: m.email, role: 'editor' } });
    expect((await call(a, '/auth/invitations/accept', { body: { token: invited.body.result.token, password: PASSWORD } })).status).toBe(200);
    expect((await call(b, '/auth/me', { token: m.pat })).status).toBe(401);
    expect((await call(b, '/auth/me', { token: m.session })).status).toBe(401);
  });
});
