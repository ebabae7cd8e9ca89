import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestApp, type TestApp, type TestOrg } from '../support/harness.js';

let t: TestApp;
let org: TestOrg;

beforeAll(async () => {
  t = await startTestApp();
  org = await t.createOrg('Acme');
});
afterAll(async () => {
  await t?.close();
});

describe('organizations (platform admin)', () => {
  it('creates an organization with a first manage token that works', async () => {
    const res = await t.json('/admin/v1/organizations', { token: t.adminToken, body: { name: 'Globex', slug: `globex-${Date.now()}` } });
    expect(res.status).toBe(201);
    expect(res.body).toMatchObject({ success: true, errors: [], result: { name: 'Globex' } });
    expect(res.body.result.token).toMatch(/^folio_[0-9A-Za-z]{46}$/);
    expect((await t.json('/management/v1/tokens', { token: res.body.result.token })).status).toBe(200);
  });

  it('refuses a duplicate slug with 409 and a bad slug with 400 naming the field', async () => {
    const dup = await t.json('/admin/v1/organizations', { token: t.adminToken, body: { name: 'Again', slug: org.slug } });
    expect(dup.status).toBe(409);
    expect(dup.body.success).toBe(false);
    const bad = await t.json('/admin/v1/organizations', { token: t.adminToken, body: { name: 'Bad', slug: 'Not A Slug' } });
    expect(bad.status).toBe(400);
    expect(bad.body.errors.join('\n')).toMatch(/^slug: /m);
    const missing = await t.json('/admin/v1/organizations', { token: t.adminToken, body: {} });
    expect(missing.status).toBe(400);
    expect(missing.body.errors.join('\n')).toMatch(/name: /);
  });

  it('lists organizations with resultInfo', async () => {
    const res = await t.json('/admin/v1/organizations?pageSize=1', { token: t.adminToken });
    expect(res.status).toBe(200);
    expect(res.body.result).toHaveLength(1);
    expect(res.body.resultInfo).toMatchObject({ pageIndex: 1, pageSize: 1, hasPreviousPage: false });
    expect(res.body.resultInfo.totalCount).toBeGreaterThanOrEqual(2);
  });
});

describe('tokens', () => {
  it('creates a token per scope, shows the plain token once, lists without it', async () => {
    for (const scope of ['delivery', 'preview', 'manage', 'analytics', 'video', 'ingest']) {
      const res = await t.json('/management/v1/tokens', { token: org.manageToken, body: { name: scope, scopes: [scope] } });
      expect(res.status).toBe(201);
      expect(res.body.result).toMatchObject({ name: scope, scopes: [scope] });
      expect(res.body.result.token).toMatch(/^folio_/);
    }
    const list = await t.json('/management/v1/tokens?pageSize=100', { token: org.manageToken });
    expect(list.body.result.length).toBeGreaterThanOrEqual(7);
    for (const item of list.body.result) expect(item.token).toBeUndefined();
  });

  it('rejects unknown scopes and empty scope lists', async () => {
    const unknown = await t.json('/management/v1/tokens', { token: org.manageToken, body: { name: 'x', scopes: ['root'] } });
    expect(unknown.status).toBe(400);
    expect(unknown.body.errors.join('\n')).toMatch(/scopes\[0\]/);
    const empty = await t.json('/management/v1/tokens', { token: org.manageToken, body: { name: 'x', scopes: [] } });
    expect(empty.status).toBe(400);
  });

  it('only stores the SHA-256 of a token', async () => {
    const res = await t.json('/management/v1/tokens', { token: org.manageToken, body: { name: 'hash check', scopes: ['delivery'] } });
    const { rows } = await t.services.db.query<{ hash: Uint8Array }>('SELECT hash FROM tokens WHERE id = $1', [res.body.result.id]);
    expect(Buffer.from(rows[0].hash).length).toBe(32);
    expect(Buffer.from(rows[0].hash).toString('utf8')).not.toContain(res.body.result.token);
  });
});

describe('sites, projects and distributions', () => {
  it('creates and lists sites', async () => {
    const res = await t.json('/management/v1/sites', { token: org.manageToken, body: { name: 'Main site', externalId: 'ext-1' } });
    expect(res.status).toBe(201);
    expect(res.body.result).toMatchObject({ name: 'Main site', externalId: 'ext-1' });
    const list = await t.json('/management/v1/sites', { token: org.manageToken });
    expect(list.body.result.map((s: { id: string }) => s.id)).toContain(res.body.result.id);
    const bad = await t.json('/management/v1/sites', { token: org.manageToken, body: { name: '' } });
    expect(bad.status).toBe(400);
  });

  it('creates projects (UUID ids) with distributions and pages them', async () => {
    const ids: string[] = [];
    for (let i = 0; i < 3; i++) {
      const res = await t.json('/management/v1/projects', { token: org.manageToken, body: { name: `P${i}` } });
      expect(res.status).toBe(201);
      expect(res.body.result.id).toMatch(/^[0-9a-f-]{36}$/);
      ids.push(res.body.result.id);
    }
    const page2 = await t.json('/management/v1/projects?pageIndex=2&pageSize=2', { token: org.manageToken });
    expect(page2.body.resultInfo).toMatchObject({ pageIndex: 2, pageSize: 2, totalCount: 3, totalPages: 2, hasNextPage: false, hasPreviousPage: true });
    expect(page2.body.result).toHaveLength(1);

    const d = await t.json(`/management/v1/projects/${ids[0]}/distributions`, { token: org.manageToken, body: { id: 'cdn-main', name: 'CDN', hostnames: ['cdn.example.com'] } });
    expect(d.status).toBe(201);
    expect(d.body.result).toMatchObject({ id: 'cdn-main', projectId: ids[0], hostnames: ['cdn.example.com'] });
    const again = await t.json(`/management/v1/projects/${ids[0]}/distributions`, { token: org.manageToken, body: { id: 'cdn-main', name: 'CDN' } });
    expect(again.status).toBe(409);
    const badHost = await t.json(`/management/v1/projects/${ids[0]}/distributions`, { token: org.manageToken, body: { name: 'CDN', hostnames: ['not a host'] } });
    expect(badHost.status).toBe(400);
    expect(badHost.body.errors.join('\n')).toMatch(/hostnames\[0\]/);

    const one = await t.json(`/management/v1/projects/${ids[0]}`, { token: org.manageToken });
    expect(one.body.result.distributions.map((x: { id: string }) => x.id)).toEqual(['cdn-main']);
  });

  it('answers 404 for malformed and unknown project ids, and bad paging with 400', async () => {
    expect((await t.json('/management/v1/projects/not-a-uuid', { token: org.manageToken })).status).toBe(404);
    expect((await t.json('/management/v1/projects/00000000-0000-4000-8000-000000000000', { token: org.manageToken })).status).toBe(404);
    const bad = await t.json('/management/v1/projects?pageSize=1000', { token: org.manageToken });
    expect(bad.status).toBe(400);
    expect(bad.body.errors[0]).toMatch(/pageSize/);
  });

  it('refuses a body that is not JSON with 415', async () => {
    const res = await t.json('/management/v1/sites', { token: org.manageToken, rawBody: 'name=x', headers: { 'content-type': 'application/x-www-form-urlencoded' } });
    expect(res.status).toBe(415);
    expect(res.body.success).toBe(false);
  });
});

describe('operations endpoints', () => {
  it('healthz, readyz with every dependency named, metrics, openapi', async () => {
    expect((await t.json('/healthz')).status).toBe(200);
    const ready = await t.json('/readyz');
    expect(ready.status).toBe(200);
    const names = Object.keys(ready.body.dependencies).join(' ');
    for (const dep of ['database', 'queue', 'blobs', 'analytics']) expect(names).toContain(dep);
    for (const d of Object.values(ready.body.dependencies) as Array<{ state: string }>) expect(d.state).toBe('up');
    const metrics = await t.fetch('/metrics', { token: t.metricsToken });
    const text = await metrics.text();
    expect(text).toContain('folio_http_request_duration_seconds');
    expect(text).toContain('folio_queue_jobs');
    const doc = await t.json<any>('/api/openapi.json');
    expect(doc.body.openapi).toBe('3.1.0');
    expect(doc.body.paths['/management/v1/tokens'].post).toBeDefined();
  });

  it('unknown routes and API versions answer 404 in the envelope; request ids are echoed', async () => {
    const res = await t.json('/api/v2/projects/x/outputgroups', { headers: { 'x-request-id': 'req-12345678' } });
    expect(res.status).toBe(404);
    expect(res.body).toEqual({ success: false, errors: [expect.stringMatching(/not found/)], messages: [], result: null, resultInfo: null });
    expect(res.headers.get('x-request-id')).toBe('req-12345678');
  });

  it('GET / answers a small index: name, version and links that work', async () => {
    const res = await t.json('/');
    expect(res.status).toBe(200);
    expect(res.body.result).toMatchObject({ name: 'Folio', version: expect.stringMatching(/^\d+\.\d+\.\d+/) });
    for (const link of Object.values(res.body.result.links) as string[]) expect([link, (await t.fetch(link)).status]).not.toEqual([link, 404]);
  });
});

describe('rate limit', () => {
  it('answers 429 with Retry-After and RateLimit headers once the bucket is empty', async () => {
    const small = await startTestApp({ env: { RATE_LIMIT_BURST: '3', RATE_LIMIT_PER_SECOND: '1' } });
    try {
      const o = await small.createOrg();
      const statuses: number[] = [];
      let last: { status: number; body: any; headers: Headers } | undefined;
      for (let i = 0; i < 5; i++) {
        last = await small.json('/management/v1/sites', { token: o.manageToken });
        statuses.push(last.status);
      }
      expect(statuses.slice(0, 3)).toEqual([200, 200, 200]);
      expect(statuses[4]).toBe(429);
      expect(Number(last!.headers.get('retry-after'))).toBeGreaterThanOrEqual(1);
      expect(last!.headers.get('ratelimit-limit')).toBe('3');
      expect(last!.headers.get('ratelimit-remaining')).toBe('0');
      expect(last!.body.success).toBe(false);
    } finally {
      await small.close();
    }
  });

  it('REST and GraphQL admit a token by one path: one bucket, the same RateLimit headers, the same 429', async () => {
    const small = await startTestApp({ env: { RATE_LIMIT_BURST: '3', RATE_LIMIT_PER_SECOND: '1' } });
    try {
      const o = await small.createOrg();
      const token = await small.createToken(o.manageToken, ['manage', 'delivery']);
      // The org's schema is built by another token first, so the four calls below take well
      // under the one second in which the bucket refills a unit.
      await small.json('/graphql', { token: await small.createToken(o.manageToken, ['delivery']), body: { query: '{ __typename }' } });
      const rest = await small.json('/management/v1/sites', { token });
      const graphql = await small.json('/graphql', { token, body: { query: '{ __typename }' } });
      expect([rest.status, graphql.status]).toEqual([200, 200]);
      // Two units gone from one bucket of three, whichever API took them.
      expect([rest.headers.get('ratelimit-remaining'), graphql.headers.get('ratelimit-remaining')]).toEqual(['2', '1']);
      await small.json('/management/v1/sites', { token });
      const refusedGraphql = await small.json('/graphql', { token, body: { query: '{ __typename }' } });
      const refusedRest = await small.json('/management/v1/sites', { token });
      expect([refusedRest.status, refusedGraphql.status]).toEqual([429, 429]);
      for (const refused of [refusedRest, refusedGraphql]) {
        expect(refused.headers.get('ratelimit-limit')).toBe('3');
        expect(refused.headers.get('ratelimit-remaining')).toBe('0');
        expect(Number(refused.headers.get('retry-after'))).toBeGreaterThanOrEqual(1);
      }
      expect(refusedGraphql.body.errors[0].extensions.code).toBe('RATE_LIMITED');
    } finally {
      await small.close();
    }
  });
});
