import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestApp, type TestApp, type TestOrg } from '../support/harness.js';

/**
 * CORS on the read side: preflights, the headers of answers to cross-origin requests (including
 * refusals, so a page can read them), and an organization's list of allowed origins, enforced at
 * admission for GraphQL and REST alike.
 */
describe('CORS', () => {
  let t: TestApp;
  let org: TestOrg;
  let other: TestOrg;
  let delivery: string;
  let video: string;
  let projectId: string;
  const query = { query: '{ __typename }' };
  const page = 'https://app.example.com';

  beforeAll(async () => {
    t = await startTestApp();
    [org, other] = await Promise.all([t.createOrg(), t.createOrg()]);
    [delivery, video] = await Promise.all([t.createToken(org.manageToken, ['delivery']), t.createToken(org.manageToken, ['video'])]);
    projectId = (await t.json('/management/v1/projects', { token: org.manageToken, body: { name: 'P' } })).body.result.id;
  });
  afterAll(async () => t?.close());

  const preflight = (path: string, method = 'POST') =>
    t.fetch(path, { method: 'OPTIONS', headers: { origin: page, 'access-control-request-method': method, 'access-control-request-headers': 'authorization, content-type' } });

  it('answers preflights on /graphql and /api/v1 with 204 and what the browser needs', async () => {
    for (const [path, method] of [['/graphql', 'POST'], [`/api/v1/projects/${projectId}/outputgroups`, 'GET']]) {
      const res = await preflight(path, method);
      expect(res.status, path).toBe(204);
      expect(res.headers.get('access-control-allow-origin')).toBe(page);
      expect(res.headers.get('access-control-allow-methods')).toContain(method);
      expect(res.headers.get('access-control-allow-headers')).toBe('authorization, content-type');
      expect(res.headers.get('access-control-max-age')).toBe('86400');
      expect(res.headers.get('vary')).toContain('Origin');
    }
    // not the management API: a browser may not call it from another origin
    const manage = await preflight('/management/v1/webhooks');
    expect(manage.headers.get('access-control-allow-origin')).toBeNull();
  });

  it('marks answers to cross-origin requests, refusals too; same-origin and server calls get no CORS headers', async () => {
    const post = await t.fetch('/graphql', { token: delivery, body: query, headers: { origin: page } });
    expect(post.status).toBe(200);
    expect(post.headers.get('access-control-allow-origin')).toBe(page);
    expect(post.headers.get('vary')).toContain('Origin');
    expect(post.headers.get('access-control-expose-headers')).toContain('RateLimit-Remaining');
    const get = await t.fetch(`/graphql?query=${encodeURIComponent('{ __typename }')}`, { token: delivery, headers: { origin: page } });
    expect(get.status).toBe(200);
    expect(get.headers.get('access-control-allow-origin')).toBe(page);
    expect(get.headers.get('vary')).toContain('Origin');
    const unauthenticated = await t.fetch('/graphql', { body: query, headers: { origin: page } });
    expect(unauthenticated.status).toBe(401);
    expect(unauthenticated.headers.get('access-control-allow-origin')).toBe(page);
    const rest = await t.fetch(`/api/v1/projects/${projectId}/outputgroups`, { token: video, headers: { origin: page } });
    expect(rest.status).toBe(200);
    expect(rest.headers.get('access-control-allow-origin')).toBe(page);
    expect((await t.fetch('/graphql', { token: delivery, body: query })).headers.get('access-control-allow-origin')).toBeNull();
  });

  it('an organization with allowed origins refuses pages elsewhere with 403, GraphQL and REST alike', async () => {
    const set = await t.json('/management/v1/allowed-origins', { method: 'PUT', token: org.manageToken, body: { allowedOrigins: ['https://APP.example.com/', 'http://localhost:5173'] } });
    expect(set.status).toBe(200);
    expect(set.body.result).toEqual({ allowedOrigins: [page, 'http://localhost:5173'] });
    expect((await t.json('/management/v1/allowed-origins', { token: org.manageToken })).body.result).toEqual({ allowedOrigins: [page, 'http://localhost:5173'] });
    // tokens verified before the change are cached up to TOKEN_CACHE_TTL_MS; fresh ones see it at once
    const [restrictedDelivery, restrictedVideo] = await Promise.all([t.createToken(org.manageToken, ['delivery']), t.createToken(org.manageToken, ['video'])]);

    const evil = await t.json('/graphql', { token: restrictedDelivery, body: query, headers: { origin: 'https://evil.example' } });
    expect(evil.status).toBe(403);
    expect(evil.body.errors[0].extensions.code).toBe('FORBIDDEN');
    expect(evil.body.errors[0].message).toContain('https://evil.example');
    expect(evil.headers.get('access-control-allow-origin')).toBe('https://evil.example');
    const evilRest = await t.json(`/api/v1/projects/${projectId}/outputgroups`, { token: restrictedVideo, headers: { origin: 'https://evil.example' } });
    expect(evilRest.status).toBe(403);
    expect(evilRest.body).toMatchObject({ success: false, errors: [expect.stringContaining('https://evil.example')] });

    expect((await t.json('/graphql', { token: restrictedDelivery, body: query, headers: { origin: page } })).status).toBe(200);
    expect((await t.json('/graphql', { token: restrictedDelivery, body: query })).status).toBe(200); // a server: no Origin
    const own = new URL(t.baseUrl).origin; // Folio's own pages (GraphiQL)
    expect((await t.json('/graphql', { token: restrictedDelivery, body: query, headers: { origin: own } })).status).toBe(200);
    expect((await t.json(`/api/v1/projects/${projectId}/outputgroups`, { token: restrictedVideo, headers: { origin: 'http://localhost:5173' } })).status).toBe(200);

    // another organization's list is its own
    expect((await t.json('/management/v1/allowed-origins', { token: other.manageToken })).body.result).toEqual({ allowedOrigins: null });
    const otherDelivery = await t.createToken(other.manageToken, ['delivery']);
    expect((await t.json('/graphql', { token: otherDelivery, body: query, headers: { origin: 'https://evil.example' } })).status).toBe(200);

    // null: any origin again
    expect((await t.json('/management/v1/allowed-origins', { method: 'PUT', token: org.manageToken, body: { allowedOrigins: null } })).body.result).toEqual({ allowedOrigins: null });
    const again = await t.createToken(org.manageToken, ['delivery']);
    expect((await t.json('/graphql', { token: again, body: query, headers: { origin: 'https://evil.example' } })).status).toBe(200);
  });

  it('refuses bad lists (400) and tokens without the manage scope (403)', async () => {
    const put = (body: unknown, token = org.manageToken) => t.json('/management/v1/allowed-origins', { method: 'PUT', token, body });
    for (const bad of [
      { allowedOrigins: ['not a url'] },
      { allowedOrigins: ['https://example.com/path'] },
      { allowedOrigins: ['ftp://example.com'] },
      { allowedOrigins: ['https://user:pw@example.com'] },
      { allowedOrigins: 'https://example.com' },
      { allowedOrigins: Array.from({ length: 101 }, (_, i) => `https://s${i}.example.com`) },
      { allowedOrigins: [], extra: true },
      {},
    ]) {
      const res = await put(bad);
      expect(res.status, JSON.stringify(bad).slice(0, 80)).toBe(400);
      expect(res.body.success).toBe(false);
    }
    expect((await put({ allowedOrigins: ['not a url'] })).body.errors.join(' ')).toContain('is not an origin');
    expect((await put({ allowedOrigins: null }, delivery)).status).toBe(403);
    expect((await t.json('/management/v1/allowed-origins', { token: delivery })).status).toBe(403);
    expect((await t.json('/management/v1/allowed-origins', { token: org.manageToken })).body.result).toEqual({ allowedOrigins: null });
  });
});
