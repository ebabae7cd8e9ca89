import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestApp, type TestApp, type TestOrg } from '../support/harness.js';

/**
 * `GET /management/v1/entries`: the org's entries in creation order, filtered by model, status
 * and time of change, paged in the envelope — pages that do not shift under concurrent writes.
 */
describe('listing entries', () => {
  let t: TestApp;
  let org: TestOrg;
  let other: TestOrg;
  let site: string;
  const m = (p: string, o: { method?: string; body?: unknown } = {}, token = org.manageToken) => t.json(`/management/v1${p}`, { token, ...o });
  const put = (id: string, model: string, extra: Record<string, unknown> = {}) =>
    m(`/entries/${id}`, { method: 'PUT', body: { model, siteId: site, fields: { title: id }, ...extra } });

  beforeAll(async () => {
    t = await startTestApp();
    [org, other] = await Promise.all([t.createOrg(), t.createOrg()]);
    site = (await m('/sites', { body: { name: 'Web' } })).body.result.id;
    for (const model of ['article', 'page']) {
      expect((await m(`/models/${model}`, { method: 'PUT', body: { titleField: 'title', fields: [{ alias: 'title', type: 'text', required: true }] } })).status).toBe(201);
    }
  });
  afterAll(async () => t?.close());

  it('lists in creation order with filters, in the envelope; another org sees only its own', async () => {
    await put('l1', 'article');
    await put('l2', 'page', { status: 'PUBLISHED' });
    await put('l3', 'article', { status: 'PUBLISHED' });
    const since = new Date();
    await new Promise((r) => setTimeout(r, 20));
    await m('/entries/l1', { method: 'PATCH', body: { fields: { title: 'l1, edited' } } });
    await m('/entries/l3', { method: 'PATCH', body: { fields: { title: 'l3, edited' } } });

    const all = await m('/entries?pageSize=2');
    expect(all.body.result.map((e: { id: string }) => e.id)).toEqual(['l1', 'l2']);
    expect(all.body.resultInfo).toMatchObject({ totalCount: 3, pageIndex: 1, pageSize: 2, totalPages: 2, hasNextPage: true });
    expect((await m('/entries?pageIndex=2&pageSize=2')).body.result.map((e: { id: string }) => e.id)).toEqual(['l3']);
    const l3 = (await m('/entries?model=article&status=EDITED')).body.result;
    expect(l3).toMatchObject([{ id: 'l3', status: 'EDITED', title: 'l3, edited' }]);
    // the version delivery reads, as GET /entries/:id gives it
    expect(l3[0].publishedVersionId).toBe((await m('/entries/l3')).body.result.publishedVersionId);
    expect(l3[0].publishedVersionId).not.toBe(l3[0].versionId);
    expect((await m('/entries?status=PUBLISHED')).body.result.map((e: { id: string; publishedVersionId: string; versionId: string }) => [e.id, e.publishedVersionId === e.versionId])).toEqual([['l2', true]]);
    expect((await m(`/entries?updatedSince=${encodeURIComponent(since.toISOString())}`)).body.result.map((e: { id: string }) => e.id)).toEqual(['l1', 'l3']);
    expect((await m('/entries?model=nope')).body).toMatchObject({ success: true, result: [], resultInfo: { totalCount: 0 } });
    expect((await m('/entries', {}, other.manageToken)).body.result).toEqual([]);
  });

  it('refuses bad filters and paging with 400, and tokens without manage with 403', async () => {
    for (const q of ['status=LIVE', 'updatedSince=yesterday', 'pageSize=0', 'pageIndex=-1', 'pageSize=101']) {
      const res = await m(`/entries?${q}`);
      expect(res.status, q).toBe(400);
      expect(res.body.success).toBe(false);
    }
    expect((await m('/entries', {}, await t.createToken(org.manageToken, ['delivery']))).status).toBe(403);
  });

  it('pages without gaps or duplicates while entries are edited, published and created', async () => {
    const ids = Array.from({ length: 40 }, (_, i) => `c${String(i).padStart(2, '0')}`);
    // published, so that every edit writes a new row for the entry's draft (which keeps the entry's number)
    for (const id of ids) await put(id, 'page', { status: 'PUBLISHED' });
    const listed = (await m('/entries?model=page&pageSize=100')).body.result.map((e: { id: string }) => e.id);
    const before = listed.filter((id: string) => id.startsWith('c'));
    expect(before).toEqual(ids);

    let writing = true;
    let n = 0;
    const writer = (async () => {
      while (writing) {
        const id = ids[(n * 7) % ids.length];
        if (n % 3 === 0) await m(`/entries/${id}`, { method: 'PATCH', body: { fields: { title: `${id} v${n}` } } });
        else if (n % 3 === 1) await m(`/entries/${ids[(n * 11) % ids.length]}/publish`, { method: 'POST' });
        else await put(`new-${n}`, 'page');
        n++;
      }
    })();
    const seen: string[] = [];
    for (let page = 1; ; page++) {
      const res = await m(`/entries?model=page&pageSize=7&pageIndex=${page}`);
      seen.push(...res.body.result.map((e: { id: string }) => e.id));
      if (!res.body.resultInfo.hasNextPage) break;
      // at least one write between two pages, however slow the writer's requests are on a busy machine
      const writes = n;
      while (n === writes) await new Promise((r) => setTimeout(r, 5));
    }
    writing = false;
    await writer;
    expect(n).toBeGreaterThan(5);
    // every entry that existed throughout exactly once, in order; entries created meanwhile after them
    expect(seen.filter((id) => id.startsWith('c'))).toEqual(ids);
    expect(new Set(seen).size).toBe(seen.length);
    const firstNew = seen.findIndex((id) => id.startsWith('new-'));
    if (firstNew >= 0) expect(seen.slice(firstNew).every((id) => id.startsWith('new-'))).toBe(true);
  });
});
