import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createEntry } from '../../shared/content/entries.js';
import { interceptDb } from '../support/intercept-db.js';
import { insertTestAsset } from '../support/test-assets.js';
import { startTestApp, type TestApp, type TestOrg } from '../support/harness.js';

let t: TestApp;
let org: TestOrg;
let other: TestOrg;
let siteId: string;
let imageId: string;
let fileId: string;

const m = (path: string, o: { method?: string; body?: unknown; token?: string } = {}) => t.json(`/management/v1${path}`, { token: org.manageToken, ...o });
const asOther = (path: string, o: { method?: string; body?: unknown } = {}) => m(path, { ...o, token: other.manageToken });

const addAsset = (orgId: string, type: 'IMAGE' | 'FILE', fileName: string) => insertTestAsset(t.services.db, orgId, type, fileName);

beforeAll(async () => {
  t = await startTestApp();
  org = await t.createOrg('Resources');
  other = await t.createOrg('Other');
  siteId = (await m('/sites', { body: { name: 'Main' } })).body.result.id;
  imageId = await addAsset(org.orgId, 'IMAGE', 'b.png');
  fileId = await addAsset(org.orgId, 'FILE', 'a.txt');
  await m('/models/page', { method: 'PUT', body: { fields: [{ alias: 'section', type: 'section' }, { alias: 'by', type: 'author' }] } });
});
afterAll(async () => {
  await t?.close();
});

describe('sections', () => {
  it('builds a tree and refuses moves that would create a cycle', async () => {
    const root = (await m('/sections', { body: { id: 'root', title: 'Root', siteId } })).body.result;
    expect(root).toMatchObject({ id: 'root', title: 'Root', parentId: null, siteId, mediaIds: [] });
    await m('/sections', { body: { id: 'child', parentId: 'root', title: 'Child' } });
    await m('/sections', { body: { id: 'grandchild', parentId: 'child', title: 'Grandchild' } });
    const cycle = await m('/sections/root', { method: 'PATCH', body: { parentId: 'grandchild' } });
    expect(cycle.status).toBe(422);
    expect(cycle.body.errors.join()).toContain('parentId: moving under "grandchild" would create a cycle');
    const self = await m('/sections/child', { method: 'PATCH', body: { parentId: 'child' } });
    expect(self.body.errors.join()).toContain('parentId: a section cannot be its own parent');
    const missing = await m('/sections', { body: { parentId: 'nope' } });
    expect(missing.status).toBe(422);
    expect(missing.body.errors.join()).toContain('parentId: section "nope" not found');
    const moved = await m('/sections/grandchild', { method: 'PATCH', body: { parentId: 'root', description: 'moved' } });
    expect(moved.body.result).toMatchObject({ parentId: 'root', description: 'moved', title: 'Grandchild' });
    expect((await m('/sections', { body: { id: 'root' } })).status).toBe(409);
    const list = await m('/sections?pageSize=2');
    expect(list.body.result).toHaveLength(2);
    expect(list.body.resultInfo).toMatchObject({ totalCount: 3, pageSize: 2, hasNextPage: true });
  });

  it('two concurrent moves cannot close a cycle between them', async () => {
    await m('/sections', { body: { id: 'left' } });
    await m('/sections', { body: { id: 'right' } });
    const [a, b] = await Promise.all([
      m('/sections/left', { method: 'PATCH', body: { parentId: 'right' } }),
      m('/sections/right', { method: 'PATCH', body: { parentId: 'left' } }),
    ]);
    expect([a.status, b.status].sort()).toEqual([200, 422]);
    for (const id of ['left', 'right']) await m(`/sections/${id}`, { method: 'PATCH', body: { parentId: null } });
    await m('/sections/left', { method: 'DELETE' });
    await m('/sections/right', { method: 'DELETE' });
  });

  it("orders siblings by position (then title) in the management list and in delivery's children; refuses a bad one", async () => {
    await m('/sections', { body: { id: 'shelf', title: 'Shelf' } });
    for (const [id, title] of [['s-a', 'Alpha'], ['s-b', 'Beta'], ['s-c', 'Gamma']]) await m('/sections', { body: { id, title, parentId: 'shelf' } });
    const token = await t.createToken(org.manageToken, ['delivery']);
    const children = async () =>
      (await t.json('/graphql', { token, body: { query: '{ cmsSection(id: "shelf") { children { items { id } } } }' } })).body.data.cmsSection.children.items.map((s: { id: string }) => s.id);
    expect(await children()).toEqual(['s-a', 's-b', 's-c']);
    // the placed ones first, lowest first; the others after them by title as before
    expect((await m('/sections/s-c', { method: 'PATCH', body: { position: 0 } })).body.result.position).toBe(0);
    await m('/sections/s-b', { method: 'PATCH', body: { position: 1 } });
    expect(await children()).toEqual(['s-c', 's-b', 's-a']);
    const listed = (await m('/sections?pageSize=100')).body.result.map((s: { id: string }) => s.id);
    expect(listed.indexOf('s-c')).toBeLessThan(listed.indexOf('s-b'));
    expect(listed.indexOf('s-b')).toBeLessThan(listed.indexOf('s-a'));
    for (const position of [-1, 1.5, 'first']) {
      const bad = await m('/sections/s-a', { method: 'PATCH', body: { position } });
      expect(bad.status, String(position)).toBe(400);
      expect(bad.body.success).toBe(false);
      expect(bad.body.errors.join()).toContain('position');
    }
    expect((await asOther('/sections/s-a', { method: 'PATCH', body: { position: 0 } })).status).toBe(404);
    expect((await m('/sections/s-a')).body.result.position).toBeNull();
  });

  it('sets section media in order, validating assets', async () => {
    const res = await m('/sections/root/media', { method: 'PUT', body: [imageId, fileId] });
    expect(res.status).toBe(200);
    expect(res.body.result.mediaIds).toEqual([imageId, fileId]);
    expect((await m('/sections/root')).body.result.mediaIds).toEqual([imageId, fileId]);
    const bad = await m('/sections/root/media', { method: 'PUT', body: { assetIds: ['nope'] } });
    expect(bad.status).toBe(422);
    expect(bad.body.errors.join()).toContain('[0]: asset "nope" not found');
    expect((await asOther('/sections/root/media', { method: 'PUT', body: [] })).status).toBe(404);
  });

  it('refuses to delete a section with children or entries (409), deletes a leaf', async () => {
    expect((await m('/sections/root', { method: 'DELETE' })).status).toBe(409);
    await m('/sections', { body: { id: 'used' } });
    await m('/entries', { body: { model: 'page', siteId, fields: { section: 'used' } } });
    expect((await m('/sections/used', { method: 'DELETE' })).body.errors[0]).toContain('is used by entries');
    expect((await m('/sections/child', { method: 'DELETE' })).status).toBe(200);
    expect((await m('/sections/child')).status).toBe(404);
  });
});

describe('authors', () => {
  it('stores every CmsAuthor field and validates imageId', async () => {
    const body = {
      id: 'ada',
      userId: 'u1',
      byline: 'By Ada',
      externalId: 'x1',
      firstName: 'Ada',
      lastName: 'Lovelace',
      url: 'https://example.com/ada',
      imageId,
      biography: 'Mathematician.',
      profession: ['writer', 'analyst'],
      email: 'ada@example.com',
      website: 'https://ada.example.com',
      facebook: 'ada.fb',
      instagram: 'ada.ig',
      twitter: 'ada_tw',
      linkedin: 'ada-li',
      tiktok: 'ada.tt',
      telegram: 'ada_tg',
    };
    const res = await m('/authors', { body });
    expect(res.status).toBe(201);
    expect(res.body.result).toMatchObject(body);
    expect((await m('/authors', { body: { imageId: 'nope' } })).body.errors.join()).toContain('imageId: asset "nope" not found');
    expect((await m('/authors', { body: { imageId: fileId } })).body.errors.join()).toContain('is not an image');
    expect((await m('/authors', { body: { email: 'not-an-email' } })).status).toBe(400);
    const patched = await m('/authors/ada', { method: 'PATCH', body: { byline: null, profession: [] } });
    expect(patched.body.result).toMatchObject({ byline: null, profession: [], firstName: 'Ada' });
    await m('/entries', { body: { model: 'page', siteId, fields: { by: 'ada' } } });
    expect((await m('/authors/ada', { method: 'DELETE' })).status).toBe(409);
  });
});

describe('labels', () => {
  it('creates, renames, refuses deletion while used, deletes when unused', async () => {
    const res = await m('/labels', { body: { id: 'hot', name: 'Hot', color: '#f00', siteId } });
    expect(res.body.result).toMatchObject({ id: 'hot', name: 'Hot', color: '#f00' });
    expect((await m('/labels', { body: {} })).status).toBe(400);
    expect((await m('/labels', { body: { name: 'x', siteId: 'nope' } })).body.errors.join()).toContain('siteId: site "nope" not found');
    expect((await m('/labels/hot', { method: 'PATCH', body: { name: 'Very hot' } })).body.result.name).toBe('Very hot');
    const entry = await m('/entries', { body: { model: 'page', siteId, labels: ['hot'], fields: {} } });
    expect((await m('/labels/hot', { method: 'DELETE' })).status).toBe(409);
    await m(`/entries/${entry.body.result.id}`, { method: 'DELETE' });
    expect((await m('/labels/hot', { method: 'DELETE' })).status).toBe(200);
  });
});

describe('lists', () => {
  it('orders entries with display windows and refuses endAt before startAt', async () => {
    const a = (await m('/entries', { body: { model: 'page', siteId, fields: {} } })).body.result.id;
    const b = (await m('/entries', { body: { model: 'page', siteId, fields: {} } })).body.result.id;
    const list = await m('/lists', { body: { id: 'front', name: 'Front page', siteId } });
    expect(list.status).toBe(201);
    const put = await m('/lists/front/entries', {
      method: 'PUT',
      body: [{ entryId: b, startAt: '2024-01-01T00:00:00+01:00', endAt: '2024-02-01T00:00:00Z' }, { entryId: a }],
    });
    expect(put.status).toBe(200);
    expect((await m('/lists/front')).body.result.entries).toEqual([
      { entryId: b, startAt: '2023-12-31T23:00:00.000Z', endAt: '2024-02-01T00:00:00.000Z' },
      { entryId: a, startAt: null, endAt: null },
    ]);
    const backwards = await m('/lists/front/entries', { method: 'PUT', body: [{ entryId: a, startAt: '2024-02-01T00:00:00Z', endAt: '2024-01-01T00:00:00Z' }] });
    expect(backwards.status).toBe(422);
    expect(backwards.body.errors.join()).toContain('[0].endAt: must be after startAt');
    const missing = await m('/lists/front/entries', { method: 'PUT', body: { entries: [{ entryId: 'nope' }] } });
    expect(missing.body.errors.join()).toContain('[0].entryId: entry "nope" not found');
    const badDate = await m('/lists/front/entries', { method: 'PUT', body: [{ entryId: a, startAt: 'soon' }] });
    expect(badDate.body.errors.join()).toContain('[0].startAt:');
    expect((await m('/lists/front')).body.result.entries).toHaveLength(2);
    expect((await m('/lists/front', { method: 'PATCH', body: { name: 'Front' } })).body.result.name).toBe('Front');
  });

  it("refuses another org's entries in a list", async () => {
    const theirs = await asOther('/lists', { body: { id: 'theirs', name: 'T' } });
    expect(theirs.status).toBe(201);
    const mine = (await m('/entries', { body: { model: 'page', siteId, fields: {} } })).body.result.id;
    const res = await asOther('/lists/theirs/entries', { method: 'PUT', body: [{ entryId: mine }] });
    expect(res.status).toBe(422);
  });
});

describe('tenancy and auth on every resource', () => {
  it("answers 404 for another org's ids, 401 without a token, 403 without manage", async () => {
    for (const [path] of [['/sections/root'], ['/authors/ada'], ['/labels/nope'], ['/lists/front']]) {
      expect((await asOther(path)).status, path).toBe(404);
      expect((await asOther(path, { method: 'PATCH', body: {} })).status, path).toBe(404);
      expect((await asOther(path, { method: 'DELETE' })).status, path).toBe(404);
    }
    expect((await asOther('/lists/front/entries', { method: 'PUT', body: [] })).status).toBe(404);
    const analytics = await t.createToken(org.manageToken, ['analytics']);
    for (const base of ['/sections', '/authors', '/labels', '/lists']) {
      for (const [method, path, body] of [
        ['GET', base, undefined],
        ['POST', base, {}],
        ['GET', `${base}/x`, undefined],
        ['PATCH', `${base}/x`, {}],
        ['DELETE', `${base}/x`, undefined],
      ] as const) {
        expect((await t.json(`/management/v1${path}`, { method, body })).status, `${method} ${path}`).toBe(401);
        expect((await t.json(`/management/v1${path}`, { method, body, token: analytics })).status, `${method} ${path}`).toBe(403);
      }
    }
    expect((await t.json('/management/v1/sections/x/media', { method: 'PUT', body: [] })).status).toBe(401);
    expect((await t.json('/management/v1/lists/x/entries', { method: 'PUT', body: [], token: analytics })).status).toBe(403);
  });
});

describe('deleting what an entry being written uses', () => {
  const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));
  it.each([
    ['labels', (id: string) => ({ labels: [id], fields: {} })],
    ['sections', (id: string) => ({ labels: [], fields: { section: id } })],
    ['authors', (id: string) => ({ labels: [], fields: { by: id } })],
  ] as const)('%s: the delete waits for the write, then refuses (409); the entry keeps it', async (kind, uses) => {
    const id = `in-use-${kind}`;
    expect((await m(`/${kind}`, { body: kind === 'labels' ? { id, name: id } : { id } })).status).toBe(201);
    // The write checked the target and holds its transaction open just before inserting the
    // entry, while the delete runs.
    let release!: () => void;
    const gate = new Promise<void>((r) => (release = r));
    let paused!: () => void;
    const atInsert = new Promise<void>((r) => (paused = r));
    const db = interceptDb(t.services.db, async (sql) => {
      if (sql.trimStart().startsWith('INSERT INTO entries')) {
        paused();
        await gate;
      }
    });
    const write = createEntry({ db }, org.orgId, { model: 'page', siteId, ...uses(id) });
    await atInsert;
    const deleting = m(`/${kind}/${id}`, { method: 'DELETE' });
    const early = await Promise.race([deleting.then((r) => `answered ${r.status}`), sleep(400).then(() => 'waiting')]);
    release();
    const entry = await write;
    expect(early).toBe('waiting');
    const deleted = await deleting;
    expect(deleted.status).toBe(409);
    expect(deleted.body.errors[0]).toContain('is used by entries');
    expect((await m(`/${kind}/${id}`)).status).toBe(200);
    expect((await m(`/entries/${entry.id}`)).body.result).toMatchObject(uses(id).labels.length ? { labels: [id] } : { fields: uses(id).fields });
  });
});

