import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { startTestApp, type TestApp, type TestOrg } from '../support/harness.js';

/** Token expiry, when tokens were last used, and rotation with an overlap. */
let t: TestApp;
let a: TestOrg;
let b: TestOrg;

beforeAll(async () => {
  t = await startTestApp({ workers: false });
  [a, b] = [await t.createOrg('Tokens A'), await t.createOrg('Tokens B')];
});
afterAll(() => t.close());

const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));
const inSeconds = (s: number) => new Date(Date.now() + s * 1000).toISOString();
const create = async (body: Record<string, unknown>) => {
  const res = await t.json('/management/v1/tokens', { token: a.manageToken, body: { name: 'lifecycle', scopes: ['manage'], ...body } });
  expect(res.status, JSON.stringify(res.body)).toBe(201);
  return res.body.result as { id: string; token: string; expiresAt: string | null };
};
const listed = async (org: TestOrg, id: string) => {
  const res = await t.json('/management/v1/tokens?pageSize=100', { token: org.manageToken });
  expect(res.status).toBe(200);
  return (res.body.result as Array<Record<string, unknown>>).find((x) => x.id === id);
};
const sites = (token: string) => t.json('/management/v1/sites', { token });

describe('expiry', () => {
  it('a token works until its expiresAt, then answers 401 saying it expired (also from the cache)', async () => {
    const expiresAt = inSeconds(1.5);
    const created = await create({ expiresAt });
    expect(created.expiresAt).toBe(expiresAt);
    expect((await sites(created.token)).status).toBe(200); // now cached
    expect((await listed(a, created.id))?.expiresAt).toBe(expiresAt);
    await sleep(Math.max(0, new Date(expiresAt).getTime() - Date.now()) + 50);
    const after = await sites(created.token);
    expect(after.status).toBe(401);
    expect(after.headers.get('www-authenticate')).toMatch(/^Bearer /);
    expect(after.body).toMatchObject({ success: false, result: null });
    expect(after.body.errors[0]).toBe(`The access token expired at ${expiresAt}.`);
    const graphql = await t.json('/graphql', { token: created.token, body: { query: '{ __typename }' } });
    expect(graphql.status).toBe(401);
    expect(JSON.stringify(graphql.body)).toMatch(/expired at/);
  });

  it('a token without expiresAt never expires (null in the list)', async () => {
    const created = await create({});
    expect(created.expiresAt).toBeNull();
    expect((await listed(a, created.id))?.expiresAt).toBeNull();
  });

  it.each([
    ['in the past', { expiresAt: inSeconds(-60) }, /expiresAt: must be in the future/],
    ['not a date-time', { expiresAt: 'tomorrow' }, /expiresAt: an RFC 3339 date-time/],
    ['without an offset', { expiresAt: '2030-01-01T00:00:00' }, /expiresAt: an RFC 3339 date-time/],
    ['more than a year away', { expiresAt: inSeconds(400 * 86400) }, /expiresAt: at most a year/],
    ['a number', { expiresAt: Date.now() + 60_000 }, /expiresAt/],
  ])('expiresAt %s → 400 in the envelope', async (_what, body, reason) => {
    const res = await t.json('/management/v1/tokens', { token: a.manageToken, body: { name: 'bad', scopes: ['manage'], ...body } });
    expect(res.status).toBe(400);
    expect(res.body).toMatchObject({ success: false, result: null, messages: [] });
    expect(res.body.errors.join('\n')).toMatch(reason);
  });
});

describe('lastUsedAt', () => {
  it('is recorded without a write per request: one statement, then none within the minute', async () => {
    const created = await create({});
    expect((await listed(a, created.id))?.lastUsedAt).toBeNull();
    await t.services.tokenUsage.flush(); // the manage token's use so far
    const spy = vi.spyOn(t.services.db, 'query');
    const usageWrites = () => spy.mock.calls.filter(([sql]) => /SET last_used_at/.test(sql)).length;
    try {
      const before = Date.now();
      for (let i = 0; i < 5; i++) expect((await sites(created.token)).status).toBe(200);
      expect(usageWrites()).toBe(0); // the requests themselves write nothing
      await t.services.tokenUsage.flush();
      expect(usageWrites()).toBe(1);
      const first = (await listed(a, created.id))?.lastUsedAt as string;
      expect(new Date(first).getTime()).toBeGreaterThanOrEqual(before - 1000);
      expect(new Date(first).getTime()).toBeLessThanOrEqual(Date.now());

      for (let i = 0; i < 20; i++) expect((await sites(created.token)).status).toBe(200);
      await t.services.tokenUsage.flush();
      // within the minute: nothing noted for this token (the manage token was noted already)
      expect(usageWrites()).toBe(1);
      expect((await listed(a, created.id))?.lastUsedAt).toBe(first);
    } finally {
      spy.mockRestore();
    }
  });
});

describe('rotation', () => {
  const rotate = (id: string, body?: unknown, token = a.manageToken) => t.json(`/management/v1/tokens/${id}/rotate`, { method: 'POST', token, body });

  it('issues a new token; the old one keeps working until the overlap ends, then 401 naming its replacement', async () => {
    const old = await create({ name: 'deploy key', scopes: ['manage', 'delivery'] });
    expect((await sites(old.token)).status).toBe(200); // cached on this instance
    const res = await rotate(old.id, { overlapSeconds: 2 });
    expect(res.status).toBe(201);
    const { result } = res.body;
    expect(result).toMatchObject({ name: 'deploy key', scopes: ['manage', 'delivery'], expiresAt: null, replacedBy: null });
    expect(result.token).toMatch(/^folio_/);
    expect(result.id).not.toBe(old.id);
    expect(result.previous).toMatchObject({ id: old.id, replacedBy: result.id });
    const ends = new Date(result.previous.expiresAt).getTime();
    expect(ends).toBeGreaterThan(Date.now() + 500);
    expect(ends).toBeLessThanOrEqual(Date.now() + 2000);
    expect((await sites(old.token)).status).toBe(200);
    expect((await sites(result.token)).status).toBe(200);
    expect(await listed(a, old.id)).toMatchObject({ replacedBy: result.id, expiresAt: result.previous.expiresAt });

    await sleep(ends - Date.now() + 50);
    const after = await sites(old.token);
    expect(after.status).toBe(401);
    expect(after.headers.get('www-authenticate')).toMatch(/^Bearer /);
    expect(after.body.errors[0]).toMatch(new RegExp(`expired at .*rotated.*${result.id}`));
    expect((await sites(result.token)).status).toBe(200);
  });

  it('overlapSeconds 0 stops the old token at once, though this instance had cached it', async () => {
    const old = await create({});
    expect((await sites(old.token)).status).toBe(200);
    const res = await rotate(old.id, { overlapSeconds: 0 });
    expect(res.status).toBe(201);
    expect((await sites(old.token)).status).toBe(401);
    expect((await sites(res.body.result.token)).status).toBe(200);
  });

  it('without a body: an hour of overlap; the new token lives as long as the old one did', async () => {
    const old = await create({ expiresAt: inSeconds(7200) });
    const res = await t.json(`/management/v1/tokens/${old.id}/rotate`, { method: 'POST', token: a.manageToken });
    expect(res.status).toBe(201);
    const overlapEnd = new Date(res.body.result.previous.expiresAt).getTime();
    expect(Math.abs(overlapEnd - (Date.now() + 3600_000))).toBeLessThan(10_000);
    const lifetime = new Date(res.body.result.expiresAt).getTime() - Date.now();
    expect(Math.abs(lifetime - 7200_000)).toBeLessThan(10_000);
    const chosen = await rotate(res.body.result.id, { expiresAt: inSeconds(600), overlapSeconds: 60 });
    expect(chosen.status).toBe(201);
    expect(Math.abs(new Date(chosen.body.result.expiresAt).getTime() - (Date.now() + 600_000))).toBeLessThan(10_000);
  });

  it('a revoked, expired or already rotated token is not rotated (409); the list shows the chain', async () => {
    const first = await create({});
    const second = await rotate(first.id, { overlapSeconds: 60 });
    expect(second.status).toBe(201);
    const again = await rotate(first.id, {});
    expect(again.status).toBe(409);
    expect(again.body.errors[0]).toMatch(/already rotated/);
    const revoked = await create({});
    expect((await t.json(`/management/v1/tokens/${revoked.id}`, { method: 'DELETE', token: a.manageToken })).status).toBe(200);
    const r = await rotate(revoked.id, {});
    expect(r.status).toBe(409);
    expect(r.body.errors[0]).toMatch(/revoked/);
    const short = await create({ expiresAt: inSeconds(1) });
    await sleep(1100);
    const e = await rotate(short.id, {});
    expect(e.status).toBe(409);
    expect(e.body.errors[0]).toMatch(/expired/);
  });

  it.each([
    ['a negative overlap', { overlapSeconds: -1 }],
    ['a fractional overlap', { overlapSeconds: 1.5 }],
    ['an overlap over 30 days', { overlapSeconds: 31 * 86400 }],
    ['an overlap as a string', { overlapSeconds: '60' }],
    ['an unknown field', { overlap: 60 }],
    ['an expiry in the past', { expiresAt: inSeconds(-5) }],
    ['an array', [1]],
  ])('%s → 400 in the envelope, the token untouched', async (_what, body) => {
    const token = await create({});
    const res = await rotate(token.id, body);
    expect(res.status).toBe(400);
    expect(res.body).toMatchObject({ success: false, result: null, messages: [] });
    expect(res.body.errors.length).toBeGreaterThan(0);
    expect(await listed(a, token.id)).toMatchObject({ replacedBy: null, expiresAt: null });
  });

  it("another organization's token → 404, and it keeps working unchanged; an unknown id → 404", async () => {
    const bToken = (await t.json('/management/v1/tokens', { token: b.manageToken, body: { name: 'b', scopes: ['manage'] } })).body.result;
    const res = await rotate(bToken.id, { overlapSeconds: 0 });
    expect(res.status).toBe(404);
    expect(res.body).toMatchObject({ success: false, result: null });
    expect((await sites(bToken.token)).status).toBe(200);
    expect(await listed(b, bToken.id)).toMatchObject({ replacedBy: null, expiresAt: null });
    expect((await rotate('no-such-token', {})).status).toBe(404);
    const delivery = await t.createToken(a.manageToken, ['delivery']);
    expect((await rotate(bToken.id, {}, delivery)).status).toBe(403);
  });
});
