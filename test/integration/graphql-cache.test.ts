import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { SchemaCache } from '../../api/graphql/schema-cache.js';
import { startTestApp, type TestApp } from '../support/harness.js';
import { setupOrg, type GqlOrg } from './graphql-support.js';

/** Schema cache (invalidation, single flight, bus) and constant SQL statement counts (DataLoader). */
let app: TestApp;
let o: GqlOrg;

beforeAll(async () => {
  app = await startTestApp({ workers: false });
  o = await setupOrg(app);
  await o.m('PUT', '/models/person', { titleField: 'name', fields: [{ alias: 'name', type: 'text' }] });
  await o.m('PUT', '/models/article', {
    titleField: 'title',
    fields: [
      { alias: 'title', type: 'text' },
      { alias: 'author', type: 'reference', allowedModels: ['person'] },
      { alias: 'related', type: 'reference', valueType: 'list' },
    ],
  });
  for (let p = 0; p < 20; p++) await o.m('PUT', `/entries/p${p}`, { model: 'person', siteId: o.siteId, fields: { name: `Person ${p}` }, status: 'PUBLISHED' });
  for (let a = 0; a < 25; a++) {
    await o.m('PUT', `/entries/a${a}`, {
      model: 'article',
      siteId: o.siteId,
      fields: { title: `Article ${a}`, author: `p${a % 20}`, related: [`p${(a + 1) % 20}`, `p${(a + 2) % 20}`] },
      status: 'PUBLISHED',
    });
  }
});

afterAll(async () => {
  await app?.close();
});

const cache = () => app.graphql.cache;

describe('schema cache', () => {
  it('shows a model change in the next request', async () => {
    const Q = '{ articleCollection(limit: 1) { items { subtitle } } }';
    expect((await o.q(Q)).body.errors?.[0].extensions?.code).toBe('GRAPHQL_VALIDATION_FAILED');
    const model = await o.m('GET', '/models/article');
    await o.m('PUT', '/models/article', { titleField: 'title', fields: [...model.fields, { alias: 'subtitle', type: 'text' }] });
    expect((await o.q(Q)).body).toEqual({ data: { articleCollection: { items: [{ subtitle: null }] } }, extensions: { cost: 1 } });
  });

  it('validates a document again for another org and after a model change', async () => {
    const Q = '{ gadgetCollection { items { size } } }';
    const a = await setupOrg(app);
    const b = await setupOrg(app);
    await a.m('PUT', '/models/gadget', { fields: [{ alias: 'size', type: 'number' }] });
    await b.m('PUT', '/models/gadget', { fields: [{ alias: 'weight', type: 'number' }] });
    for (let i = 0; i < 2; i++) {
      expect((await a.q(Q)).body.errors).toBeUndefined();
      expect((await b.q(Q)).body.errors?.[0].extensions?.code).toBe('GRAPHQL_VALIDATION_FAILED');
    }
    await a.m('PUT', '/models/gadget', { fields: [{ alias: 'weight', type: 'number' }] });
    expect((await a.q(Q)).body.errors?.[0].extensions?.code).toBe('GRAPHQL_VALIDATION_FAILED');
  });

  it('builds the schema once for 50 concurrent first requests of an org', async () => {
    const fresh = await setupOrg(app);
    await fresh.m('PUT', '/models/thing', { fields: [{ alias: 'name', type: 'text' }] });
    const before = cache().stats.builds;
    const results = await Promise.all(Array.from({ length: 50 }, () => fresh.q('{ thingCollection { total } }')));
    expect(results.every((r) => r.status === 200 && r.body.data?.thingCollection.total === 0)).toBe(true);
    expect(cache().stats.builds - before).toBe(1);
  });

  it('is invalidated through the event bus (Redis pub/sub when configured) on every instance', async () => {
    // A second cache on the same bus stands for another API instance; it never re-checks by time.
    const other = new SchemaCache({ db: app.services.db, bus: app.services.bus, recheckMs: 3_600_000 });
    try {
      const first = await other.get(o.orgId);
      const announced = new Promise<void>((resolve) => {
        const off = app.services.bus.subscribe('schema-changed', ({ orgId }) => {
          if (orgId === o.orgId) {
            off();
            resolve();
          }
        });
      });
      await o.m('PUT', '/models/extra', { fields: [{ alias: 'x', type: 'text' }] });
      await announced;
      const second = await other.get(o.orgId);
      expect(second?.schemaVersion).toBeGreaterThan(first?.schemaVersion ?? Infinity);
      expect(second?.schema.getType('Extra')).toBeDefined();
      expect(first?.schema.getType('Extra')).toBeUndefined();
    } finally {
      other.close();
    }
  });

  it("applies the org's limit overrides and returns null for an unknown org", async () => {
    const local = new SchemaCache({ db: app.services.db, bus: app.services.bus, recheckMs: 0 });
    try {
      expect((await local.get(o.orgId))?.limits.maxDepth).toBe(12);
      await app.services.db.query(`UPDATE organizations SET limits = '{"maxDepth": 3, "maxCost": 50}' WHERE id = $1`, [o.orgId]);
      const updated = await local.get(o.orgId);
      expect(updated?.limits).toMatchObject({ maxDepth: 3, maxCost: 50, maxAliases: 30 });
      expect(await local.get('no-such-org')).toBeNull();
    } finally {
      await app.services.db.query(`UPDATE organizations SET limits = '{}' WHERE id = $1`, [o.orgId]);
      local.close();
    }
  });
});

describe('response cache', () => {
  const Q = '{ articleCollection(limit: 3, order: {id: ASC}) { total items { id title } } }';

  it('answers a repeated read without a statement and sees the next write at once', async () => {
    const first = await o.q(Q); // seen once: executed, not cached
    await o.q(Q); // repeated: executed and cached (its content version read once, then kept)
    // the version is kept once the listener is in place (it starts with the first cached read)
    await expect.poll(async () => {
      const before = app.services.db.stats.queries;
      await o.q(Q);
      return app.services.db.stats.queries - before;
    }).toBe(0);
    const before = app.services.db.stats.queries;
    const again = await o.q(Q);
    expect(app.services.db.stats.queries - before).toBe(0);
    expect(again.body).toEqual(first.body);
    await o.m('PATCH', '/entries/a0', { fields: { title: 'Changed title' } });
    await o.m('POST', '/entries/a0/publish');
    const after = await o.q(Q);
    expect(after.body.data.articleCollection.items[0]).toEqual({ id: 'a0', title: 'Changed title' });
  });

  it('keeps scopes apart', async () => {
    await o.m('PUT', '/entries/zz-draft', { model: 'article', siteId: o.siteId, fields: { title: 'Draft' }, status: 'DRAFT' });
    const D = '{ articleCollection(where: {id: {eq: "zz-draft"}}) { total } }';
    expect((await o.d(D)).articleCollection.total).toBe(0);
    expect((await o.d(D, {}, o.preview)).articleCollection.total).toBe(1);
    expect((await o.d(D)).articleCollection.total).toBe(0);
  });
});

describe('response cache off (GRAPHQL_RESPONSE_CACHE=false)', () => {
  it('executes every repeat of a read', async () => {
    const off = await startTestApp({ workers: false, env: { GRAPHQL_RESPONSE_CACHE: 'false' } });
    try {
      const org = await setupOrg(off);
      await org.m('PUT', '/models/note', { fields: [{ alias: 'text', type: 'text' }] });
      await org.m('PUT', '/entries/n1', { model: 'note', siteId: org.siteId, fields: { text: 'one' }, status: 'PUBLISHED' });
      const Q = '{ noteCollection { total items { id text } } }';
      const first = await org.q(Q);
      await org.q(Q);
      for (let i = 0; i < 3; i++) {
        const before = off.services.db.stats.queries;
        const again = await org.q(Q);
        // page and total every time (with the cache, a repeat costs no statement)
        expect(off.services.db.stats.queries - before).toBe(2);
        expect(again.body).toEqual(first.body);
      }
      expect(first.body.data.noteCollection.items).toEqual([{ id: 'n1', text: 'one' }]);
    } finally {
      await off.close();
    }
  });
});

describe('SQL statements per request', () => {
  const PAGE = `query($l: Int) { articleCollection(limit: $l) { total items { id title
      author { name relations { articleCollection(limit: 3) { total items { id } } } }
      related { total items { id } }
      relations { entryCollection { total } } } } }`;

  async function once(limit: number): Promise<number> {
    await o.q('{ __typename }'); // token and schema warm
    const before = app.services.db.stats.queries;
    const res = await o.q(PAGE, { l: limit });
    expect(res.body.errors).toBeUndefined();
    expect(res.body.data.articleCollection.items).toHaveLength(limit);
    return app.services.db.stats.queries - before;
  }

  /**
   * The fewer of two pages (of `limit` and one more, so neither is a response-cache hit): the
   * token cache lives 5 s, and on a loaded machine it can expire between the warm-up and the
   * page, adding the token's lookup to one count.
   */
  async function statements(limit: number): Promise<number> {
    return Math.min(await once(limit), await once(limit + 1));
  }

  it('is the same for a page of 20 as for a page of 2 (references and reverse relations batched)', async () => {
    const small = await statements(2);
    const page = await statements(20);
    expect(page).toBe(small);
    // items (with their authors, read in the same statement) + total, author relations page
    // (counting its total), related page + total, relations total (no page: items are not
    // selected); first occurrence: no response-cache lookup
    expect(page).toBe(6);
  });
});
