import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestApp, type TestApp, type TestOrg } from '../support/harness.js';

/**
 * Surfaces a caller reaches without a valid token: failed authentications are limited per client
 * address, and the metrics are an operator's.
 */
let app: TestApp;
let org: TestOrg;
let delivery: string;

beforeAll(async () => {
  // the product's defaults (the harness raises them for the other suites)
  app = await startTestApp({ workers: false, env: { AUTH_FAILURES_BURST: '30', AUTH_FAILURES_PER_MINUTE: '30' } });
  org = await app.createOrg();
  delivery = await app.createToken(org.manageToken, ['delivery']);
});
afterAll(async () => app?.close());

const BURST = 30;
const from = (address: string) => ({ 'x-forwarded-for': address });
const unknownToken = (i: number) => `folio_unknown_${i}_${'x'.repeat(40)}`;

describe('failed authentication', () => {
  it(`is limited per client address: ${BURST} failures, then 429 with Retry-After on REST and GraphQL`, async () => {
    const address = '198.51.100.7';
    // the manage token is verified (and cached) before the address runs out
    expect((await app.json('/management/v1/models', { token: org.manageToken, headers: from(address) })).status).toBe(200);
    for (let i = 0; i < BURST; i++) {
      const res = await app.json('/management/v1/models', { token: unknownToken(i), headers: from(address) });
      expect(res.status).toBe(401);
    }
    const refused = await app.json('/management/v1/models', { token: unknownToken(99), headers: from(address) });
    expect(refused.status).toBe(429);
    expect(Number(refused.headers.get('retry-after'))).toBeGreaterThanOrEqual(1);
    expect(refused.body).toEqual({ success: false, errors: ['Too many failed authentications from this address; retry later.'], messages: [], result: null, resultInfo: null });

    // GraphQL reads the same address and the same bucket
    const gql = await app.json('/graphql', { token: unknownToken(100), headers: from(address), body: { query: '{ __typename }' } });
    expect(gql.status).toBe(429);
    expect(gql.headers.get('retry-after')).toMatch(/^\d+$/);
    expect(gql.body.errors[0].extensions.code).toBe('RATE_LIMITED');

    // a token that verifies passes from that address — one verified before, and one never seen
    // (another user behind the same NAT); another address is unaffected
    expect((await app.json('/management/v1/models', { token: org.manageToken, headers: from(address) })).status).toBe(200);
    const neighbour = await app.createToken(org.manageToken, ['delivery']);
    expect((await app.json('/graphql', { token: neighbour, headers: from(address), body: { query: '{ __typename }' } })).status).toBe(200);
    expect((await app.json('/management/v1/models', { token: unknownToken(102), headers: from(address) })).status).toBe(429);
    expect((await app.json('/management/v1/models', { token: unknownToken(101), headers: from('198.51.100.8') })).status).toBe(401);
    expect((await app.json('/graphql', { token: delivery, headers: from('198.51.100.8'), body: { query: '{ __typename }' } })).status).toBe(200);
  });

  it('GraphQL failures count once per request (the fast lane hands its refusal to yoga instead of asking again)', async () => {
    const address = '198.51.100.9';
    for (let i = 0; i < BURST; i++) {
      const res = await app.json('/graphql', { token: unknownToken(i), headers: from(address), body: { query: '{ __typename }' } });
      expect([i, res.status]).toEqual([i, 401]);
    }
    expect((await app.json('/graphql', { token: unknownToken(0), headers: from(address), body: { query: '{ __typename }' } })).status).toBe(429);
  });
});

describe('the client address (TRUST_PROXY)', () => {
  it('is the nearest hop that is not a trusted proxy: forged X-Forwarded-For entries before it change nothing', async () => {
    // the socket's peer (loopback) is a trusted proxy by default; 198.51.100.20 is what it saw
    for (let i = 0; i < BURST; i++) {
      const res = await app.json('/management/v1/models', { token: unknownToken(i), headers: from(`6.6.6.${i}, 198.51.100.20`) });
      expect(res.status).toBe(401);
    }
    expect((await app.json('/management/v1/models', { token: unknownToken(0), headers: from('7.7.7.7, 198.51.100.20') })).status).toBe(429);
  });

  it('TRUST_PROXY=false: X-Forwarded-For is ignored, the peer is the client', async () => {
    const direct = await startTestApp({ workers: false, env: { AUTH_FAILURES_BURST: '3', TRUST_PROXY: 'false' } });
    try {
      for (let i = 0; i < 3; i++) expect((await direct.json('/management/v1/models', { token: unknownToken(i), headers: from(`203.0.113.${i}`) })).status).toBe(401);
      expect((await direct.json('/management/v1/models', { token: unknownToken(9), headers: from('203.0.113.99') })).status).toBe(429);
    } finally {
      await direct.close();
    }
  });
});

describe('/metrics', () => {
  it('asks for the METRICS_TOKEN', async () => {
    expect((await app.fetch('/metrics')).status).toBe(401);
    expect((await app.fetch('/metrics', { token: org.manageToken })).status).toBe(401);
    expect((await app.fetch('/metrics', { token: app.adminToken })).status).toBe(401);
    const res = await app.fetch('/metrics', { token: app.metricsToken });
    expect(res.status).toBe(200);
    expect(await res.text()).toContain('folio_http_request_duration_seconds');
  });

  it('is closed without a METRICS_TOKEN: 403 saying how to open it', async () => {
    const closed = await startTestApp({ workers: false, env: { METRICS_TOKEN: '' } });
    try {
      const res = await closed.json('/metrics', { token: closed.metricsToken });
      expect(res.status).toBe(403);
      expect(res.body.errors[0]).toMatch(/set METRICS_TOKEN/);
    } finally {
      await closed.close();
    }
  });
});

describe('/admin/v1 without PLATFORM_ADMIN_TOKEN', () => {
  it('answers 403 saying the admin API is disabled (not the 401 of a wrong token)', async () => {
    // What a production start (DATABASE_URL set) without PLATFORM_ADMIN_TOKEN resolves to.
    const closed = await startTestApp({ workers: false });
    closed.services.adminToken = undefined;
    try {
      for (const token of [undefined, closed.adminToken, 'anything']) {
        const res = await closed.json('/admin/v1/organizations', { token });
        expect(res.status).toBe(403);
        expect(res.body).toEqual({ success: false, errors: ['The admin API is disabled: set PLATFORM_ADMIN_TOKEN (32+ characters) to enable it.'], messages: [], result: null, resultInfo: null });
      }
    } finally {
      await closed.close();
    }
  });
});
