import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestApp, type TestApp } from '../support/harness.js';
import { ids, setupOrg, type GqlOrg } from './graphql-support.js';

/**
 * Ordering (default, every orderable type, nulls last, thenBy), offset pagination with total,
 * and continuation tokens over several pages.
 */
let app: TestApp;
let o: GqlOrg;
let other: GqlOrg;

// 13 items: ranks with ties and missing values; publishedAt with ties.
const ITEMS = Array.from({ length: 13 }, (_, i) => ({
  id: `i${String(i).padStart(2, '0')}`,
  title: `Item ${String.fromCharCode(77 - i)}`, // M, L, K, …
  rank: i % 4 === 3 ? undefined : i % 3,
  score: i % 5 === 0 ? undefined : `${(i * 7) % 10}.5`,
  at: i % 6 === 5 ? undefined : `2026-0${(i % 3) + 1}-01T00:00:00.000Z`,
  flag: i % 2 === 0,
  kind: i % 2 === 0 ? 'even' : 'odd',
  publishedAt: `2026-03-${String(10 + Math.floor(i / 2)).padStart(2, '0')}T00:00:00.000Z`,
}));

beforeAll(async () => {
  app = await startTestApp({ workers: false });
  [o, other] = await Promise.all([setupOrg(app), setupOrg(app)]);
  const fields = [
    { alias: 'title', type: 'text' },
    { alias: 'rank', type: 'number' },
    { alias: 'score', type: 'number', numberFormat: 'decimal' },
    { alias: 'at', type: 'datetime' },
    { alias: 'flag', type: 'boolean' },
    { alias: 'kind', type: 'tag' },
  ];
  await o.m('PUT', '/models/item', { titleField: 'title', fields });
  await other.m('PUT', '/models/item', { titleField: 'title', fields });
  await o.m('PUT', '/models/note', { titleField: 'text', fields: [{ alias: 'text', type: 'text' }] });
  for (const it of ITEMS) {
    const { id, publishedAt, ...values } = it;
    await o.m('PUT', `/entries/${id}`, { model: 'item', siteId: o.siteId, fields: values, status: 'PUBLISHED', publishedAt });
  }
  await o.m('PUT', '/entries/n1', { model: 'note', siteId: o.siteId, fields: { text: 'Note' }, status: 'PUBLISHED', publishedAt: '2026-03-30T00:00:00.000Z' });
  await other.m('PUT', '/entries/x1', { model: 'item', siteId: other.siteId, fields: { title: 'Foreign' }, status: 'PUBLISHED' });
  // Sub-millisecond ties (Postgres keeps microseconds, JS dates do not): the API sets these
  // timestamps itself, so the test writes them directly to make the case deterministic.
  await app.services.db.query(
    `UPDATE entries SET created_at = '2026-01-01T00:00:00Z'::timestamptz + (CASE id WHEN 'i00' THEN 300 WHEN 'i01' THEN 100 ELSE 200 END) * interval '1 microsecond'
     WHERE org_id = $1 AND model_alias = 'item'`,
    [o.orgId],
  );
});

afterAll(async () => {
  await app?.close();
});

type Page = { itemCollection: { items: Array<{ id: string }>; total: number; offset: number; limit: number; continuationToken: string | null } };
const PAGE = 'query($o: ItemOrder, $w: ItemFilter, $off: Int, $l: Int, $t: String) { itemCollection(order: $o, where: $w, offset: $off, limit: $l, continuationToken: $t) { total offset limit continuationToken items { id } } }';

/** Expected ids: sort by keys (nulls last whatever the direction), ties by id ASC. */
function expected(keys: Array<[(x: (typeof ITEMS)[number]) => string | number | boolean | undefined, 'ASC' | 'DESC']>): string[] {
  return [...ITEMS]
    .sort((a, b) => {
      for (const [get, dir] of keys) {
        const x = get(a);
        const y = get(b);
        if (x === y) continue;
        if (x === undefined) return 1;
        if (y === undefined) return -1;
        const c = x < y ? -1 : 1;
        return dir === 'ASC' ? c : -c;
      }
      return a.id < b.id ? -1 : 1;
    })
    .map((i) => i.id);
}

describe('ordering', () => {
  it('defaults to system.publishedAt DESC with ties by id ASC', async () => {
    const d = await o.d<Page>(PAGE, { l: 100 });
    expect(ids(d.itemCollection)).toEqual(expected([[(x) => x.publishedAt, 'DESC']]));
  });

  it.each([
    ['rank', (x: (typeof ITEMS)[number]) => x.rank],
    ['score', (x: (typeof ITEMS)[number]) => (x.score === undefined ? undefined : Number(x.score))],
    ['at', (x: (typeof ITEMS)[number]) => x.at],
    ['title', (x: (typeof ITEMS)[number]) => x.title],
    ['flag', (x: (typeof ITEMS)[number]) => (x.flag ? 1 : 0)],
    ['kind', (x: (typeof ITEMS)[number]) => x.kind],
  ] as const)('orders by %s in both directions, nulls last', async (field, get) => {
    for (const dir of ['ASC', 'DESC'] as const) {
      const d = await o.d<Page>(PAGE, { l: 100, o: { [field]: dir } });
      expect(ids(d.itemCollection)).toEqual(expected([[get, dir]]));
    }
  });

  it('orders by id and by system fields', async () => {
    expect(ids((await o.d<Page>(PAGE, { l: 100, o: { id: 'DESC' } })).itemCollection)).toEqual(ITEMS.map((i) => i.id).reverse());
    expect(ids((await o.d<Page>(PAGE, { l: 100, o: { system: { title: 'ASC' } } })).itemCollection)).toEqual(expected([[(x) => x.title, 'ASC']]));
    expect(ids((await o.d<Page>(PAGE, { l: 100, o: { system: { publishedAt: 'ASC' } } })).itemCollection)).toEqual(expected([[(x) => x.publishedAt, 'ASC']]));
  });

  it('thenBy breaks ties only among equal values, and nests', async () => {
    const d = await o.d<Page>(PAGE, { l: 100, o: { rank: 'DESC', thenBy: [{ kind: 'ASC' }, { title: 'DESC' }] } });
    expect(ids(d.itemCollection)).toEqual(expected([[(x) => x.rank, 'DESC'], [(x) => x.kind, 'ASC'], [(x) => x.title, 'DESC']]));
    const nested = await o.d<Page>(PAGE, { l: 100, o: { flag: 'ASC', thenBy: [{ at: 'DESC', thenBy: [{ id: 'DESC' }] }] } });
    expect(ids(nested.itemCollection)).toEqual(
      [...ITEMS].sort((a, b) => Number(a.flag) - Number(b.flag) || cmpDesc(a.at, b.at) || (a.id < b.id ? 1 : -1)).map((i) => i.id),
    );
  });

  it('two keys in one order object is BAD_USER_INPUT, also inside system', async () => {
    for (const order of [{ rank: 'ASC', title: 'DESC' }, { system: { publishedAt: 'ASC', createdAt: 'DESC' } }, { rank: 'ASC', thenBy: [{ title: 'ASC', kind: 'ASC' }] }]) {
      const r = await o.q(PAGE, { o: order });
      expect(r.body.errors?.[0].extensions?.code).toBe('BAD_USER_INPUT');
      expect(r.body.errors?.[0].message).toMatch(/one key per order object/);
    }
  });
});

function cmpDesc(a?: string, b?: string): number {
  if (a === b) return 0;
  if (a === undefined) return 1;
  if (b === undefined) return -1;
  return a < b ? 1 : -1;
}

describe('offset pagination', () => {
  it('skips, limits and totals', async () => {
    const all = expected([[(x) => x.publishedAt, 'DESC']]);
    const d = await o.d<Page>(PAGE, { off: 5, l: 4 });
    expect(d.itemCollection).toMatchObject({ total: 13, offset: 5, limit: 4, continuationToken: null });
    expect(ids(d.itemCollection)).toEqual(all.slice(5, 9));
    const end = await o.d<Page>(PAGE, { off: 12, l: 4 });
    expect(ids(end.itemCollection)).toEqual(all.slice(12));
    const past = await o.d<Page>(PAGE, { off: 50 });
    expect(past.itemCollection.items).toEqual([]);
    expect(past.itemCollection.total).toBe(13);
    const none = await o.d<Page>(PAGE, { l: 0 });
    expect(none.itemCollection.items).toEqual([]);
  });

  it('defaults to 20 and allows 500; larger or negative values are BAD_USER_INPUT, never capped', async () => {
    const d = await o.d<Page>(PAGE, {});
    expect(d.itemCollection.limit).toBe(20);
    expect((await o.q(PAGE, { l: 500 })).body.errors).toBeUndefined();
    for (const v of [{ l: 501 }, { l: -1 }, { off: -1 }]) {
      const r = await o.q(PAGE, v);
      expect(r.body.errors?.[0].extensions?.code).toBe('BAD_USER_INPUT');
      expect(r.body.data ?? null).toBeNull();
    }
  });
});

describe('continuation tokens', () => {
  const walk = async (variables: Record<string, unknown>, limit: number) => {
    const seen: string[] = [];
    let page = await o.d<Page>(PAGE, { ...variables, l: limit, off: 0 });
    seen.push(...ids(page.itemCollection));
    let guard = 0;
    while (page.itemCollection.continuationToken && guard++ < 50) {
      page = await o.d<Page>(PAGE, { ...variables, l: limit, off: 7, t: page.itemCollection.continuationToken });
      seen.push(...ids(page.itemCollection));
    }
    return seen;
  };

  it.each([
    [{}, 3],
    [{ o: { rank: 'ASC', thenBy: [{ title: 'DESC' }] } }, 4],
    [{ o: { rank: 'DESC' } }, 2],
    [{ o: { score: 'ASC' } }, 5],
    [{ o: { at: 'DESC', thenBy: [{ flag: 'ASC' }] } }, 3],
    [{ o: { id: 'DESC' } }, 6],
    [{ o: { flag: 'DESC' }, w: { rank: { exists: true } } }, 2],
    [{ o: { rank: 'ASC' }, w: { title: { contains: 'ITEM' } } }, 4],
    [{ o: { system: { createdAt: 'ASC' } } }, 1],
    [{ o: { system: { createdAt: 'DESC' } }, w: { title: { contains: 'item' } } }, 2],
    [{ w: { system: { title: { startsWith: 'item' } } } }, 5],
  ])('walks %j in pages of %i with no duplicates or gaps', async (variables, limit) => {
    const all = ids((await o.d<Page>(PAGE, { ...variables, l: 100 })).itemCollection);
    expect(await walk(variables, limit)).toEqual(all);
  });

  it('is given at offset 0 only when more items exist, ends with null, and offset > 0 gets none', async () => {
    expect((await o.d<Page>(PAGE, { l: 13 })).itemCollection.continuationToken).toBeNull();
    expect((await o.d<Page>(PAGE, { l: 5, off: 3 })).itemCollection.continuationToken).toBeNull();
    const first = await o.d<Page>(PAGE, { l: 12 });
    expect(first.itemCollection.continuationToken).toEqual(expect.any(String));
    const last = await o.d<Page>(PAGE, { l: 12, t: first.itemCollection.continuationToken });
    expect(last.itemCollection.items).toHaveLength(1);
    expect(last.itemCollection.continuationToken).toBeNull();
    expect(last.itemCollection.total).toBe(13);
  });

  it('is given when asked for through a fragment or an alias, and resumes exactly', async () => {
    const viaFragment = await o.d<{ itemCollection: { next: string; items: Array<{ id: string }> } }>(
      `query { itemCollection(limit: 5, order: {rank: ASC}) { items { id } ...P } } fragment P on ItemCollection { next: continuationToken }`,
    );
    expect(viaFragment.itemCollection.next).toEqual(expect.any(String));
    const rest = await o.d<Page>(PAGE, { l: 100, o: { rank: 'ASC' }, t: viaFragment.itemCollection.next });
    const all = ids((await o.d<Page>(PAGE, { l: 100, o: { rank: 'ASC' } })).itemCollection);
    expect([...viaFragment.itemCollection.items.map((i) => i.id), ...ids(rest.itemCollection)]).toEqual(all);
  });

  it('rejects tampered, mismatched and foreign tokens with BAD_USER_INPUT', async () => {
    const first = await o.d<Page>(PAGE, { l: 3, o: { rank: 'ASC' } });
    const token = first.itemCollection.continuationToken as string;
    const [body, mac] = token.split('.');
    const forged = Buffer.from(JSON.stringify({ ...JSON.parse(Buffer.from(body, 'base64url').toString()), k: [0, 'i00'] })).toString('base64url');
    const flipped = mac.slice(0, -2) + (mac.endsWith('AA') ? 'BB' : 'AA');
    const cases: Array<[Record<string, unknown>, GqlOrg]> = [
      [{ t: `${forged}.${mac}` }, o],
      [{ t: `${body}.${flipped}` }, o],
      [{ t: 'garbage' }, o],
      [{ t: token }, o], // order differs (default)
      [{ t: token, o: { rank: 'DESC' } }, o],
      [{ t: token, o: { rank: 'ASC' }, w: { flag: { eq: true } } }, o],
      [{ t: token, o: { rank: 'ASC' } }, other],
    ];
    for (const [variables, org] of cases) {
      const r = await org.q(PAGE, { l: 3, ...variables });
      expect(r.body.errors?.[0].extensions?.code, JSON.stringify(variables)).toBe('BAD_USER_INPUT');
    }
    const onOtherCollection = await o.q('query($t: String) { entryCollection(continuationToken: $t) { total } }', { t: token });
    expect(onOtherCollection.body.errors?.[0].extensions?.code).toBe('BAD_USER_INPUT');
    // the genuine token still works with the same query
    expect((await o.q(PAGE, { l: 3, o: { rank: 'ASC' }, t: token })).body.errors).toBeUndefined();
  });
});

describe('generic entryCollection', () => {
  it('returns every model with fragments, pages with tokens, and never another org', async () => {
    const Q = `query($t: String, $l: Int) { entryCollection(limit: $l, continuationToken: $t) { total continuationToken items {
      id system { modelAlias } ... on Item { title rank } ... on Note { text } } } }`;
    const first = await o.d(Q, { l: 10 });
    expect(first.entryCollection.total).toBe(14);
    expect(first.entryCollection.items[0]).toEqual({ id: 'n1', system: { modelAlias: 'note' }, text: 'Note' });
    expect(first.entryCollection.items[1]).toMatchObject({ system: { modelAlias: 'item' }, title: expect.stringMatching(/^Item /) });
    const second = await o.d(Q, { l: 10, t: first.entryCollection.continuationToken });
    const all = [...first.entryCollection.items, ...second.entryCollection.items].map((i: { id: string }) => i.id);
    expect(new Set(all).size).toBe(14);
    expect(all).not.toContain('x1');
    expect(second.entryCollection.continuationToken).toBeNull();
  });

  it('orders by id and system keys with thenBy', async () => {
    const d = await o.d('{ entryCollection(limit: 3, order: {system: {title: DESC}, thenBy: [{id: ASC}]}) { items { id } } }');
    expect(ids(d.entryCollection)).toEqual(['n1', 'i00', 'i01']);
  });
});
