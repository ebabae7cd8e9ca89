import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildOpenApiDocument } from '../../api/http/openapi/index.js';
import { generateToken } from '../../shared/tenancy/token-format.js';
import { startTestApp, type TestApp, type TestOrg } from '../support/harness.js';

/**
 * Walks EVERY operation of the OpenAPI document (each feature adds its operations there, with
 * its scope in `x-scope`) and checks the authentication and tenancy rules on each one.
 */
interface Operation {
  method: string;
  path: string;
  scope: string;
  jsonBody: boolean;
}

function operations(): Operation[] {
  const doc = buildOpenApiDocument('http://x') as { paths: Record<string, Record<string, Record<string, unknown>>> };
  const ops: Operation[] = [];
  for (const [path, methods] of Object.entries(doc.paths)) {
    for (const [method, op] of Object.entries(methods)) {
      if (op['x-scope'] === 'public') continue;
      const content = (op.requestBody as { content?: Record<string, unknown> } | undefined)?.content;
      ops.push({
        method: method.toUpperCase(),
        path,
        scope: String(op['x-scope']),
        jsonBody: content !== undefined && Object.keys(content).every((t) => t === 'application/json'),
      });
    }
  }
  return ops;
}

const ALL_SCOPES = ['delivery', 'preview', 'manage', 'analytics', 'video', 'ingest'] as const;

let t: TestApp;
let a: TestOrg;
let b: TestOrg;
let aProject: string;
let aDistribution: string;
const tokensA: Record<string, string> = {};
const tokensB: Record<string, string> = {};
const withoutScope: Record<string, string> = {};

/** Routes for the platform's operator, behind a token of the deployment rather than an organization's. */
const OPERATOR_SCOPES = ['admin', 'metrics'];
// A member's routes (`member`) refuse API tokens with 403, so any valid token shows they are not 401.
const tokenFor = (scope: string) => (scope === 'admin' ? t.adminToken : scope === 'metrics' ? t.metricsToken : scope === 'member' ? a.manageToken : tokensA[scope]);

function fill(path: string): string {
  return path
    .replace('{projectId}', aProject)
    .replace('{distributionId}', aDistribution)
    .replace('{version}', '1')
    .replace(/\{[^}]+\}/g, '1');
}

beforeAll(async () => {
  t = await startTestApp();
  a = await t.createOrg('A');
  b = await t.createOrg('B');
  const p = await t.json('/management/v1/projects', { token: a.manageToken, body: { name: 'P' } });
  aProject = p.body.result.id;
  const d = await t.json(`/management/v1/projects/${aProject}/distributions`, { token: a.manageToken, body: { name: 'D', hostnames: ['cdn.example.com'] } });
  aDistribution = d.body.result.id;
  for (const scope of ALL_SCOPES) {
    tokensA[scope] = await t.createToken(a.manageToken, [scope]);
    tokensB[scope] = await t.createToken(b.manageToken, [scope]);
    withoutScope[scope] = await t.createToken(a.manageToken, ALL_SCOPES.filter((s) => s !== scope));
  }
});

afterAll(async () => {
  await t?.close();
});

const ops = operations();

describe('every route requires a valid token', () => {
  it('the OpenAPI document lists operations with a scope each', () => {
    expect(ops.length).toBeGreaterThan(8);
    for (const op of ops) expect(op.scope, `${op.method} ${op.path}`).not.toBe('undefined');
  });

  it.each(ops.map((o) => [`${o.method} ${o.path}`, o] as const))('%s: no token → 401 with WWW-Authenticate', async (_n, op) => {
    const res = await t.json(fill(op.path), { method: op.method });
    expect(res.status).toBe(401);
    expect(res.headers.get('www-authenticate')).toMatch(/^Bearer/);
    expect(res.body).toMatchObject({ success: false, result: null });
    expect(res.body.errors.length).toBeGreaterThan(0);
  });

  it.each(ops.map((o) => [`${o.method} ${o.path}`, o] as const))('%s: malformed, bad checksum, unknown → 401', async (_n, op) => {
    const valid = generateToken();
    const badChecksum = valid.slice(0, -1) + (valid.endsWith('A') ? 'B' : 'A');
    for (const token of ['not-a-token', 'folio_short', badChecksum, generateToken()]) {
      const res = await t.json(fill(op.path), { method: op.method, token });
      expect(res.status, token).toBe(401);
      expect(res.body.success).toBe(false);
    }
    const scheme = await t.json(fill(op.path), { method: op.method, headers: { authorization: `Basic ${valid}` } });
    expect(scheme.status).toBe(401);
  });

  it.each(ops.map((o) => [`${o.method} ${o.path}`, o] as const))('%s: a valid token outside the Authorization header → 401', async (_n, op) => {
    const token = tokenFor(op.scope);
    const sep = fill(op.path).includes('?') ? '&' : '?';
    for (const authorization of [undefined, 'Basic dXNlcjpwYXNz', 'Token abc']) {
      const headers: Record<string, string> = authorization ? { authorization } : {};
      const inQuery = await t.json(`${fill(op.path)}${sep}access_token=${encodeURIComponent(token)}`, { method: op.method, headers });
      expect([authorization, inQuery.status]).toEqual([authorization, 401]);
      if (op.method !== 'GET' && op.method !== 'DELETE') {
        const inBody = await t.json(fill(op.path), { method: op.method, headers, body: { access_token: token } });
        expect([authorization, inBody.status]).toEqual([authorization, 401]);
      }
    }
  });

  it.each(ops.map((o) => [`${o.method} ${o.path}`, o] as const))('%s: "bearer" in any case and extra spaces are read as on /graphql', async (_n, op) => {
    const token = tokenFor(op.scope);
    for (const authorization of [`bearer ${token}`, `Bearer  ${token}`, `BEARER\t${token} `]) {
      const res = await t.json(fill(op.path), { method: op.method, headers: { authorization }, body: op.jsonBody ? {} : undefined });
      expect([authorization, res.status === 401]).toEqual([authorization, false]);
    }
  });

  const scoped = ops.filter((o) => !OPERATOR_SCOPES.includes(o.scope) && o.scope !== 'member');
  it.each(scoped.map((o) => [`${o.method} ${o.path}`, o] as const))('%s: token without the scope → 403', async (_n, op) => {
    const res = await t.json(fill(op.path), { method: op.method, token: withoutScope[op.scope], body: op.jsonBody ? {} : undefined });
    expect(res.status).toBe(403);
    expect(res.body.success).toBe(false);
  });

  const operator = ops.filter((o) => OPERATOR_SCOPES.includes(o.scope));
  it.each(operator.map((o) => [`${o.method} ${o.path}`, o] as const))('%s: an organization token is not the operator token → 401', async (_n, op) => {
    const res = await t.json(fill(op.path), { method: op.method, token: a.manageToken });
    expect(res.status).toBe(401);
  });

  const projectScoped = scoped.filter((o) => o.path.includes('{projectId}') || o.path.includes('{distributionId}'));
  it.each(projectScoped.map((o) => [`${o.method} ${o.path}`, o] as const))(
    "%s: another organization's project or distribution → 404",
    async (_n, op) => {
      const res = await t.json(fill(op.path), { method: op.method, token: tokensB[op.scope], body: op.jsonBody ? {} : undefined });
      expect(res.status).toBe(404);
      expect(res.body.success).toBe(false);
    },
  );

  const withJson = ops.filter((o) => o.jsonBody);
  it.each(withJson.map((o) => [`${o.method} ${o.path}`, o] as const))('%s: invalid JSON → 400, oversized body → 413', async (_n, op) => {
    const token = tokenFor(op.scope);
    const bad = await t.json(fill(op.path), { method: op.method, token, rawBody: '{"name": ', headers: { 'content-type': 'application/json' } });
    expect(bad.status).toBe(400);
    expect(bad.body).toMatchObject({ success: false, result: null });
    const huge = JSON.stringify({ name: 'x'.repeat(t.services.config.limits.bodyBytes + 10) });
    const big = await t.json(fill(op.path), { method: op.method, token, rawBody: huge, headers: { 'content-type': 'application/json' } });
    expect(big.status).toBe(413);
    expect(big.body.success).toBe(false);
  });
});

describe('revocation', () => {
  it('a revoked token gets 401 immediately on the same instance', async () => {
    const created = await t.json('/management/v1/tokens', { token: a.manageToken, body: { name: 'short-lived', scopes: ['manage'] } });
    const token = created.body.result.token;
    expect((await t.json('/management/v1/sites', { token })).status).toBe(200); // now cached
    const revoked = await t.json(`/management/v1/tokens/${created.body.result.id}`, { method: 'DELETE', token: a.manageToken });
    expect(revoked.status).toBe(200);
    const after = await t.json('/management/v1/sites', { token });
    expect(after.status).toBe(401);
    expect(after.body.errors.join(' ')).toMatch(/unknown or revoked/);
  });

  it("revoking another organization's token → 404 and it keeps working", async () => {
    const list = await t.json('/management/v1/tokens', { token: b.manageToken });
    const bTokenId = list.body.result[0].id;
    const res = await t.json(`/management/v1/tokens/${bTokenId}`, { method: 'DELETE', token: a.manageToken });
    expect(res.status).toBe(404);
    expect((await t.json('/management/v1/sites', { token: b.manageToken })).status).toBe(200);
  });
});
