import { readFile } from 'node:fs/promises';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildAssetUrl, type UrlAsset } from '../../shared/assets/build-asset-url.js';
import { generateTraffic, ndjson, toCanonical } from '../fixtures/cdn-logs/traffic.js';
import { randomBase62 } from '../../shared/ids.js';
import { startTestApp, type TestApp, type TestOrg } from '../support/harness.js';
import { createAnalyticsOrg, createDistribution, pushLogs, waitForSpool, type AnalyticsOrg } from './ingest-support.js';

/**
 * The platform operator on one organization: a new manage token (recovering a lost one),
 * suspension at every door, and deletion that leaves nothing of it behind.
 */
let t: TestApp;

beforeAll(async () => {
  t = await startTestApp();
});
afterAll(() => t.close());

const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));
const admin = (path: string, options: { method?: string; body?: unknown; token?: string } = {}) =>
  t.json(`/admin/v1/organizations/${path}`, { method: options.method ?? (options.body === undefined ? 'GET' : 'POST'), token: options.token ?? t.adminToken, body: options.body });
const envelopeError = (res: { body: unknown }) => expect(res.body).toMatchObject({ success: false, result: null, messages: [] });

/** An organization with something behind every door: content, an image, tokens, analytics. */
interface FullOrg extends AnalyticsOrg {
  deliveryToken: string;
  image: UrlAsset & { url: string };
  imageUrl: string;
}

async function fullOrg(name: string): Promise<FullOrg> {
  const org = await createAnalyticsOrg(t);
  await createDistribution(t, org, `d-${name}`);
  const site = await t.json('/management/v1/sites', { token: org.manageToken, body: { name } });
  expect(site.status).toBe(201);
  expect((await t.json('/management/v1/models/note', { method: 'PUT', token: org.manageToken, body: { fields: [{ alias: 'text', type: 'text' }] } })).status).toBe(201);
  const entry = await t.json('/management/v1/entries', { token: org.manageToken, body: { model: 'note', siteId: site.body.result.id, fields: { text: name } } });
  expect(entry.status).toBe(201);
  const png = await readFile(new URL('../fixtures/images/goldfish.png', import.meta.url));
  const upload = await t.json('/management/v1/assets?fileName=fish.png', { method: 'POST', token: org.manageToken, rawBody: new Uint8Array(png) });
  expect(upload.status).toBe(201);
  const image = upload.body.result as UrlAsset & { url: string };
  const imageUrl = buildAssetUrl({ asset: image, orgId: org.orgId, transformation: { width: 40 } }, { baseUrl: t.baseUrl, secret: t.services.secrets.signing, presets: new Map() as never })!;
  expect((await fetch(imageUrl)).status).toBe(200); // a derivative in the blob store
  const logs = ndjson(generateTraffic({ count: 30, startMs: Date.now() - 3_600_000, spanMs: 1_800_000, seed: name.length }).map(toCanonical));
  expect((await pushLogs(t, org.ingestToken, `d-${name}`, logs)).status).toBe(200);
  await waitForSpool(t, org.orgId);
  return { ...org, deliveryToken: await t.createToken(org.manageToken, ['delivery']), image, imageUrl };
}

/** Every door of the organization, and the status each answered. */
async function doors(org: FullOrg) {
  const rest = await t.json('/management/v1/sites', { token: org.manageToken });
  const graphql = await t.json('/graphql', { token: org.deliveryToken, body: { query: '{ __typename }' } });
  const image = await fetch(org.imageUrl);
  const file = await fetch(org.image.url);
  const ingest = await pushLogs(t, org.ingestToken, 'nowhere', '{}\n');
  const analytics = await t.json(`/api/v1/projects/${org.projectId}/distributions/d-x/analytics`, { token: org.analyticsToken });
  return {
    statuses: { rest: rest.status, graphql: graphql.status, image: image.status, file: file.status, ingest: ingest.status, analytics: analytics.status },
    messages: [rest.body.errors?.[0], graphql.body.errors?.[0]?.message, (await image.json().catch(() => null))?.errors?.[0], (await file.json().catch(() => null))?.errors?.[0], ingest.body.errors?.[0]],
    graphqlCode: graphql.body.errors?.[0]?.extensions?.code,
  };
}

describe('a new manage token for an organization (recovering a lost one)', () => {
  let org: TestOrg;
  let other: TestOrg;
  beforeAll(async () => {
    [org, other] = [await t.createOrg('Lost token'), await t.createOrg('Bystander')];
  });

  it('201 with a manage token that works; the old one keeps working', async () => {
    const res = await admin(`${org.orgId}/tokens`, { body: { name: 'recovered' } });
    expect(res.status).toBe(201);
    expect(res.body.result).toMatchObject({ name: 'recovered', scopes: ['manage'], publishable: false, expiresAt: null });
    expect(res.body.messages[0]).toMatch(/not shown again/);
    const listed = await t.json('/management/v1/tokens', { token: res.body.result.token });
    expect(listed.status).toBe(200);
    expect(listed.body.result.map((x: { id: string }) => x.id)).toContain(res.body.result.id);
    expect((await t.json('/management/v1/sites', { token: org.manageToken })).status).toBe(200);
    // the other organization's tokens do not see it
    const others = await t.json('/management/v1/tokens', { token: other.manageToken });
    expect(others.body.result.map((x: { id: string }) => x.id)).not.toContain(res.body.result.id);
  });

  it('with an expiry', async () => {
    const expiresAt = new Date(Date.now() + 3_600_000).toISOString();
    const res = await admin(`${org.orgId}/tokens`, { body: { name: 'for an hour', expiresAt } });
    expect(res.status).toBe(201);
    expect(res.body.result.expiresAt).toBe(expiresAt);
  });

  it.each([
    ['no body', undefined],
    ['no name', {}],
    ['an empty name', { name: '  ' }],
    ['a number as name', { name: 5 }],
    ['an unknown field', { name: 'x', scopes: ['manage'] }],
    ['an expiry in the past', { name: 'x', expiresAt: '2001-01-01T00:00:00Z' }],
  ])('%s → 400 in the envelope, no token made', async (_what, body) => {
    const before = (await t.json('/management/v1/tokens?pageSize=100', { token: org.manageToken })).body.resultInfo.totalCount;
    const res = await t.json(`/admin/v1/organizations/${org.orgId}/tokens`, { method: 'POST', token: t.adminToken, body });
    expect(res.status).toBe(400);
    envelopeError(res);
    expect((await t.json('/management/v1/tokens?pageSize=100', { token: org.manageToken })).body.resultInfo.totalCount).toBe(before);
  });

  it("an unknown organization → 404; an organization's own manage token, or none → 401", async () => {
    const unknown = await admin('no-such-org/tokens', { body: { name: 'x' } });
    expect(unknown.status).toBe(404);
    envelopeError(unknown);
    const asTenant = await admin(`${org.orgId}/tokens`, { body: { name: 'x' }, token: org.manageToken });
    expect(asTenant.status).toBe(401);
    envelopeError(asTenant);
    const asOther = await admin(`${org.orgId}/tokens`, { body: { name: 'x' }, token: other.manageToken });
    expect(asOther.status).toBe(401);
    const none = await t.json(`/admin/v1/organizations/${org.orgId}/tokens`, { body: { name: 'x' } });
    expect(none.status).toBe(401);
  });
});

describe('suspension', () => {
  let s: FullOrg;
  let other: FullOrg;
  beforeAll(async () => {
    [s, other] = [await fullOrg('suspended'), await fullOrg('bystander')];
  }, 120_000);

  it('every door answers 403 naming the reason, until resumed; another organization is untouched', async () => {
    const open = await doors(s);
    expect(open.statuses).toEqual({ rest: 200, graphql: 200, image: 200, file: 200, ingest: 404, analytics: 404 });

    const res = await admin(`${s.orgId}/suspend`, { body: { reason: 'Unpaid invoice #42.' } });
    expect(res.status).toBe(200);
    expect(res.body.result).toMatchObject({ id: s.orgId, status: 'suspended', suspendedReason: 'Unpaid invoice #42.' });
    const closed = await doors(s);
    expect(closed.statuses).toEqual({ rest: 403, graphql: 403, image: 403, file: 403, ingest: 403, analytics: 403 });
    expect(closed.messages).toEqual(Array(5).fill('This organization is suspended: Unpaid invoice #42.'));
    expect(closed.graphqlCode).toBe('FORBIDDEN');
    expect((await admin(s.orgId)).body.result).toMatchObject({ status: 'suspended', suspendedReason: 'Unpaid invoice #42.', deletion: null });

    expect((await doors(other)).statuses).toEqual(open.statuses);

    const resumed = await admin(`${s.orgId}/resume`, { body: {} });
    expect(resumed.status).toBe(200);
    expect(resumed.body.result).toMatchObject({ status: 'active', suspendedReason: null });
    expect((await doors(s)).statuses).toEqual(open.statuses);
  });

  it('without a reason, the message says to contact the operator; resuming twice is harmless', async () => {
    expect((await t.json(`/admin/v1/organizations/${s.orgId}/suspend`, { method: 'POST', token: t.adminToken })).status).toBe(200);
    const rest = await t.json('/management/v1/sites', { token: s.manageToken });
    expect(rest.status).toBe(403);
    expect(rest.body.errors[0]).toBe('This organization is suspended; contact the platform operator.');
    expect((await t.json(`/admin/v1/organizations/${s.orgId}/resume`, { method: 'POST', token: t.adminToken })).status).toBe(200);
    expect((await t.json(`/admin/v1/organizations/${s.orgId}/resume`, { method: 'POST', token: t.adminToken })).status).toBe(200);
    expect((await t.json('/management/v1/sites', { token: s.manageToken })).status).toBe(200);
  });

  it('a suspension written by another instance (its bus message lost) is applied here within 5 s', async () => {
    await t.services.db.query("UPDATE organizations SET suspended_at = now(), suspended_reason = 'elsewhere' WHERE id = $1", [s.orgId]);
    const started = Date.now();
    let status = 200;
    while (status !== 403 && Date.now() - started < 5000) {
      status = (await t.json('/management/v1/sites', { token: s.manageToken })).status;
      if (status !== 403) await sleep(100);
    }
    expect(status).toBe(403);
    await t.services.db.query('UPDATE organizations SET suspended_at = NULL, suspended_reason = NULL WHERE id = $1', [s.orgId]);
    await t.services.suspensions.refresh();
    expect((await t.json('/management/v1/sites', { token: s.manageToken })).status).toBe(200);
  });

  it.runIf(process.env.DATABASE_URL && process.env.REDIS_URL)('two API processes on Redis: a suspension and a resumption reach the other within 5 s', { timeout: 60_000 }, async () => {
    const namespace = 'adm' + randomBase62(8);
    const [one, two] = [await startTestApp({ workers: false, namespace }), await startTestApp({ workers: false, namespace })];
    try {
      const org = await one.createOrg('Two instances');
      const seenBy = async (app: TestApp, want: number) => {
        const started = Date.now();
        for (;;) {
          const res = await app.json('/management/v1/sites', { token: org.manageToken });
          if (res.status === want) return Date.now() - started;
          if (Date.now() - started > 5000) throw new Error(`still ${res.status} after 5 s`);
          await sleep(50);
        }
      };
      expect(await seenBy(two, 200)).toBeLessThan(5000); // cached on the second instance
      const suspended = await one.json(`/admin/v1/organizations/${org.orgId}/suspend`, { method: 'POST', token: one.adminToken, body: { reason: 'Maintenance.' } });
      expect(suspended.status).toBe(200);
      expect((await one.json('/management/v1/sites', { token: org.manageToken })).status).toBe(403); // this instance: at once
      expect(await seenBy(two, 403)).toBeLessThan(5000);
      expect((await two.json('/management/v1/sites', { token: org.manageToken })).body.errors[0]).toBe('This organization is suspended: Maintenance.');
      expect((await one.json(`/admin/v1/organizations/${org.orgId}/resume`, { method: 'POST', token: one.adminToken })).status).toBe(200);
      expect(await seenBy(two, 200)).toBeLessThan(5000);
    } finally {
      await one.close();
      await two.close();
    }
  });

  it.each([
    ['a reason too long', { reason: 'x'.repeat(501) }],
    ['an empty reason', { reason: '' }],
    ['a number as reason', { reason: 42 }],
    ['an unknown field', { reason: 'x', until: 'tomorrow' }],
    ['an array', ['x']],
  ])('suspend with %s → 400 in the envelope, not suspended', async (_what, body) => {
    const res = await admin(`${s.orgId}/suspend`, { body });
    expect(res.status).toBe(400);
    envelopeError(res);
    expect((await t.json('/management/v1/sites', { token: s.manageToken })).status).toBe(200);
  });

  it("resume with a body → 400; unknown organization → 404; an organization's token → 401", async () => {
    const withBody = await admin(`${s.orgId}/resume`, { body: { reason: 'x' } });
    expect(withBody.status).toBe(400);
    envelopeError(withBody);
    for (const action of ['suspend', 'resume']) {
      const unknown = await admin(`no-such-org/${action}`, { body: {} });
      expect(unknown.status).toBe(404);
      envelopeError(unknown);
      const asTenant = await admin(`${other.orgId}/${action}`, { body: {}, token: s.manageToken });
      expect(asTenant.status).toBe(401);
      envelopeError(asTenant);
    }
    expect((await t.json('/management/v1/sites', { token: other.manageToken })).status).toBe(200);
  });
});

/** Rows, objects and analytics rows of `orgId`, found by where they live, not by what deletion knows. */
async function holdings(orgId: string) {
  const { rows: tables } = await t.services.db.query<{ table_name: string }>(
    `SELECT c.table_name FROM information_schema.columns c JOIN information_schema.tables t USING (table_schema, table_name)
     WHERE c.table_schema = current_schema() AND c.column_name = 'org_id' AND t.table_type = 'BASE TABLE' ORDER BY 1`,
  );
  const rows: Record<string, number> = {};
  for (const { table_name } of tables) {
    const { rows: r } = await t.services.db.query<{ n: number }>(`SELECT count(*)::int AS n FROM "${table_name}" WHERE org_id = $1`, [orgId]);
    if (r[0].n > 0) rows[table_name] = r[0].n;
  }
  const org = await t.services.db.query('SELECT 1 FROM organizations WHERE id = $1', [orgId]);
  if (org.rows.length > 0) rows.organizations = 1;
  let blobs = 0;
  for await (const key of t.services.blobs.list('')) if (key.split('/').includes(orgId)) blobs++;
  // every table holding rows (views only read their target tables)
  const chTables = await t.services.analytics.query<{ tbl: string }>(
    `SELECT c.table AS tbl FROM system.columns c INNER JOIN system.tables t ON t.database = c.database AND t.name = c.table
     WHERE c.database = currentDatabase() AND c.name = 'org_id' AND t.engine NOT IN ('MaterializedView', 'View') ORDER BY tbl`,
  );
  const analytics: Record<string, number> = {};
  for (const { tbl: name } of chTables) {
    const [{ n }] = await t.services.analytics.query<{ n: number }>(`SELECT count() AS n FROM \`${name}\` WHERE org_id = {org:String}`, { org: orgId });
    if (n > 0) analytics[name] = n;
  }
  return { rows, blobs, analytics };
}

describe('deletion', () => {
  let d: FullOrg;
  let keep: FullOrg;
  beforeAll(async () => {
    [d, keep] = [await fullOrg('deleted'), await fullOrg('kept')];
  }, 120_000);

  it('202, refused at once, then a job removes every row, object and analytics row of it; another organization is untouched', { timeout: 90_000 }, async () => {
    const before = await holdings(d.orgId);
    expect(Object.keys(before.rows)).toEqual(expect.arrayContaining(['organizations', 'tokens', 'sites', 'projects', 'distributions', 'entries', 'assets', 'ingest_batches']));
    expect(before.blobs).toBeGreaterThanOrEqual(2); // the original and its derivative
    expect(Object.keys(before.analytics)).toContain('cdn_logs');
    const kept = await holdings(keep.orgId);

    const res = await admin(d.orgId, { method: 'DELETE' });
    expect(res.status).toBe(202);
    expect(res.headers.get('location')).toBe(`/admin/v1/organizations/${d.orgId}`);
    expect(res.body.result).toMatchObject({ id: d.orgId, status: 'deleting', finishedAt: null });
    const refused = await t.json('/management/v1/sites', { token: d.manageToken });
    if (refused.status === 403) expect(refused.body.errors[0]).toMatch(/being deleted/);
    else expect(refused.status).toBe(401); // the job was already done

    let state = (await admin(d.orgId)).body.result;
    for (const deadline = Date.now() + 60_000; state.status !== 'deleted' && Date.now() < deadline; ) {
      await sleep(200);
      const polled = await admin(d.orgId);
      expect(polled.status).toBe(200);
      state = polled.body.result;
    }
    expect(state).toMatchObject({ id: d.orgId, slug: d.slug, status: 'deleted' });
    const rowCount = Object.values(before.rows).reduce((x, y) => x + y, 0);
    const analyticsCount = Object.values(before.analytics).reduce((x, y) => x + y, 0);
    expect(state.deletion).toMatchObject({ status: 'deleted', error: null, removed: { rows: rowCount, blobs: before.blobs, analyticsRows: analyticsCount } });

    expect(await holdings(d.orgId)).toEqual({ rows: {}, blobs: 0, analytics: {} });
    expect(await holdings(keep.orgId)).toEqual(kept);
    expect((await doors(keep)).statuses).toEqual({ rest: 200, graphql: 200, image: 200, file: 200, ingest: 404, analytics: 404 });

    // refused (403) while a token cache may still hold its token, then unknown (401)
    let gone = await t.json('/management/v1/sites', { token: d.manageToken });
    for (const deadline = Date.now() + 6000; gone.status === 403 && Date.now() < deadline; ) {
      await sleep(200);
      gone = await t.json('/management/v1/sites', { token: d.manageToken });
    }
    expect(gone.status).toBe(401);
    expect((await admin(d.orgId, { method: 'DELETE' })).status).toBe(404);
    expect((await admin(`${d.orgId}/tokens`, { body: { name: 'too late' } })).status).toBe(404);
    expect((await admin(`${d.orgId}/suspend`, { body: {} })).status).toBe(404);
  });

  it("an unknown organization → 404; an organization's token → 401 and nothing is deleted", async () => {
    const unknown = await admin('no-such-org', { method: 'DELETE' });
    expect(unknown.status).toBe(404);
    envelopeError(unknown);
    expect((await admin('no-such-org')).status).toBe(404);
    const asTenant = await admin(keep.orgId, { method: 'DELETE', token: keep.manageToken });
    expect(asTenant.status).toBe(401);
    envelopeError(asTenant);
    expect((await admin(keep.orgId, { token: keep.manageToken })).status).toBe(401);
    expect((await admin(keep.orgId)).body.result).toMatchObject({ status: 'active', deletion: null });
  });
});
