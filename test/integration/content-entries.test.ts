import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { publishDueEntries, unpublishDueEntries } from '../../shared/content/entry-lifecycle.js';
import { createEntry } from '../../shared/content/entries.js';
import { interceptDb } from '../support/intercept-db.js';
import { insertTestAsset } from '../support/test-assets.js';
import { startTestApp, type TestApp, type TestOrg } from '../support/harness.js';

let t: TestApp;
let org: TestOrg;
let other: TestOrg;
let siteId: string;
let otherSiteId: string;
let imageId: string;
let fileId: string;
let sectionId: string;
let authorId: string;
let labelId: string;

const m = (path: string, o: { method?: string; body?: unknown; token?: string } = {}) => t.json(`/management/v1${path}`, { token: org.manageToken, ...o });


const rowsOf = async (id: string) =>
  (
    await t.services.db.query<{ in_preview: boolean; in_delivery: boolean; status: string; version_id: string; fields: Record<string, unknown>; row_id: number }>(
      'SELECT row_id, in_preview, in_delivery, status, version_id, fields FROM entries WHERE org_id = $1 AND id = $2 ORDER BY row_id',
      [org.orgId, id],
    )
  ).rows;
const contentVersion = async () =>
  (await t.services.db.query<{ v: number }>('SELECT content_version AS v FROM organizations WHERE id = $1', [org.orgId])).rows[0].v;

const addAsset = (orgId: string, type: 'IMAGE' | 'FILE', fileName: string) => insertTestAsset(t.services.db, orgId, type, fileName);

beforeAll(async () => {
  t = await startTestApp();
  org = await t.createOrg('Entries');
  other = await t.createOrg('Other');
  siteId = (await m('/sites', { body: { name: 'Main' } })).body.result.id;
  otherSiteId = (await t.json('/management/v1/sites', { token: other.manageToken, body: { name: 'X' } })).body.result.id;
  imageId = await addAsset(org.orgId, 'IMAGE', 'red.png');
  fileId = await addAsset(org.orgId, 'FILE', 'notes.txt');
  sectionId = (await m('/sections', { body: { title: 'News' } })).body.result.id;
  authorId = (await m('/authors', { body: { firstName: 'Ada', lastName: 'Lovelace' } })).body.result.id;
  labelId = (await m('/labels', { body: { name: 'Featured' } })).body.result.id;
  const author = await m('/models/person', { method: 'PUT', body: { titleField: 'name', fields: [{ alias: 'name', type: 'text', required: true }] } });
  expect(author.status).toBe(201);
  const article = await m('/models/article', {
    method: 'PUT',
    body: {
      titleField: 'title',
      fields: [
        { alias: 'title', type: 'text', required: true },
        { alias: 'price', type: 'number', numberFormat: 'decimal' },
        { alias: 'count', type: 'number' },
        { alias: 'at', type: 'datetime' },
        { alias: 'writer', type: 'reference', allowedModels: ['person'] },
        { alias: 'related', type: 'reference', valueType: 'list' },
        { alias: 'hero', type: 'media' },
        { alias: 'gallery', type: 'media', valueType: 'list' },
        { alias: 'section', type: 'section' },
        { alias: 'authors', type: 'author', valueType: 'list' },
        { alias: 'body', type: 'richcontent' },
        { alias: 'tags', type: 'tag', valueType: 'list' },
      ],
    },
  });
  expect(article.status).toBe(201);
  await t.json('/management/v1/models/thing', { method: 'PUT', token: other.manageToken, body: { fields: [{ alias: 'name', type: 'text' }] } });
});
afterAll(async () => {
  await t?.close();
});

describe('create, read, replace, patch', () => {
  it('creates a DRAFT with a generated id, normalized fields, metrics and edges', async () => {
    const person = await m('/entries', { body: { model: 'person', siteId, fields: { name: 'Ada' } } });
    expect(person.status).toBe(201);
    const res = await m('/entries', {
      body: {
        model: 'article',
        siteId,
        slug: 'hello',
        labels: [labelId],
        attrs: { origin: 'test' },
        fields: {
          title: 'Hello world. Again!',
          price: 12.5,
          at: '2024-05-01T14:00:00+02:00',
          writer: person.body.result.id,
          related: [person.body.result.id],
          hero: imageId,
          gallery: [fileId, imageId],
          section: sectionId,
          authors: [authorId],
          body: {
            type: 'doc',
            content: [
              { type: 'paragraph', content: [{ type: 'text', text: 'Some body text.' }] },
              { type: 'cms_media', attrs: { id: imageId } },
              { type: 'cms_reference', attrs: { id: person.body.result.id } },
            ],
          },
        },
      },
    });
    expect(res.status).toBe(201);
    const e = res.body.result;
    expect(e.id).toMatch(/^[0-9A-Za-z]{20}$/);
    expect(e).toMatchObject({
      model: 'article',
      status: 'DRAFT',
      title: 'Hello world. Again!',
      slug: 'hello',
      labels: [labelId],
      attrs: { origin: 'test' },
      publishedAt: null,
      firstPublishedAt: null,
      unpublishedAt: null,
      publishedVersionId: null,
    });
    expect(e.fields.price).toBe('12.5');
    expect(e.fields.at).toBe('2024-05-01T12:00:00.000Z');
    expect(e.createdAt).toBe(e.updatedAt);
    expect(e.metrics).toEqual({ wordCount: 6, characterCount: 34, sentenceCount: 3, imageCount: 3, readingTime: 1 });
    const rows = await rowsOf(e.id);
    expect(rows).toMatchObject([{ in_preview: true, in_delivery: false, status: 'DRAFT' }]);
    const edges = await t.services.db.query<{ field: string; kind: string; target_id: string; position: number }>(
      'SELECT field, kind, target_id, position FROM entry_edges WHERE row_id = $1 ORDER BY field, kind, position',
      [rows[0].row_id],
    );
    const pid = person.body.result.id;
    expect(edges.rows).toEqual([
      { field: 'authors', kind: 'author', target_id: authorId, position: 0 },
      { field: 'body', kind: 'rich_entry', target_id: pid, position: 0 },
      { field: 'body', kind: 'rich_media', target_id: imageId, position: 0 },
      { field: 'gallery', kind: 'media', target_id: fileId, position: 0 },
      { field: 'gallery', kind: 'media', target_id: imageId, position: 1 },
      { field: 'hero', kind: 'media', target_id: imageId, position: 0 },
      { field: 'related', kind: 'reference', target_id: pid, position: 0 },
      { field: 'section', kind: 'section', target_id: sectionId, position: 0 },
      { field: 'writer', kind: 'reference', target_id: pid, position: 0 },
    ]);
    const read = await m(`/entries/${e.id}`);
    expect(read.body.result).toEqual(e);
  });

  it('PUT creates with a client id (201), then replaces (200) with a new version and the same createdAt', async () => {
    const created = await m('/entries/client-1', { method: 'PUT', body: { model: 'article', siteId, fields: { title: 'One' } } });
    expect(created.status).toBe(201);
    expect(created.body.result.id).toBe('client-1');
    const replaced = await m('/entries/client-1', { method: 'PUT', body: { model: 'article', siteId, fields: { title: 'Two', count: 2 } } });
    expect(replaced.status).toBe(200);
    expect(replaced.body.result.fields).toEqual({ title: 'Two', count: 2 });
    expect(replaced.body.result.versionId).not.toBe(created.body.result.versionId);
    expect(replaced.body.result.createdAt).toBe(created.body.result.createdAt);
    expect(Date.parse(replaced.body.result.updatedAt)).toBeGreaterThanOrEqual(Date.parse(created.body.result.updatedAt));
    const bad = await m('/entries/bad id!', { method: 'PUT', body: { model: 'article', siteId, fields: { title: 'x' } } });
    expect(bad.status).toBe(400);
    const otherModel = await m('/entries/client-1', { method: 'PUT', body: { model: 'person', siteId, fields: { name: 'x' } } });
    expect(otherModel.status).toBe(422);
    expect(otherModel.body.errors.join()).toContain('model: entry "client-1" is a "article"');
  });

  it('PATCH merges fields and null clears one', async () => {
    await m('/entries/patch-1', { method: 'PUT', body: { model: 'article', siteId, fields: { title: 'P', count: 1, tags: ['a'] } } });
    const res = await m('/entries/patch-1', { method: 'PATCH', body: { fields: { count: 5, tags: null }, slug: 'p' } });
    expect(res.status).toBe(200);
    expect(res.body.result.fields).toEqual({ title: 'P', count: 5 });
    expect(res.body.result.slug).toBe('p');
    const bad = await m('/entries/patch-1', { method: 'PATCH', body: { fields: { title: null } } });
    expect(bad.status).toBe(422);
    expect(bad.body.errors).toContain('fields.title: required');
  });

  it('creates PUBLISHED with explicit dates (import of existing content)', async () => {
    const res = await m('/entries', {
      body: { model: 'article', siteId, status: 'PUBLISHED', createdAt: '2020-01-01T00:00:00Z', publishedAt: '2020-02-01T00:00:00+01:00', fields: { title: 'Old' } },
    });
    expect(res.status).toBe(201);
    expect(res.body.result).toMatchObject({
      status: 'PUBLISHED',
      createdAt: '2020-01-01T00:00:00.000Z',
      publishedAt: '2020-01-31T23:00:00.000Z',
      firstPublishedAt: '2020-01-31T23:00:00.000Z',
    });
    expect(await rowsOf(res.body.result.id)).toMatchObject([{ in_preview: true, in_delivery: true, status: 'PUBLISHED' }]);
    const draftWithDate = await m('/entries', { body: { model: 'article', siteId, publishedAt: '2020-02-01T00:00:00Z', fields: { title: 'x' } } });
    expect(draftWithDate.status).toBe(422);
    expect(draftWithDate.body.errors.join()).toContain('publishedAt: allowed only with status PUBLISHED');
  });
});

describe('validation (each error names the field and the rule)', () => {
  it.each([
    [{ model: 'ghost', fields: {} }, 'model: model "ghost" not found'],
    [{ fields: { title: null } }, 'fields.title: required'],
    [{ fields: { title: 'x', nope: 1 } }, 'fields.nope: unknown field'],
    [{ fields: { title: 'x', price: '1'.repeat(39) } }, 'fields.price: has more than 38 significant digits'],
    [{ fields: { title: 'x', count: 1.5 } }, 'fields.count: must be an integer'],
    [{ fields: { title: 'x', at: '2024-05-01 12:00' } }, 'fields.at: "2024-05-01 12:00" needs a time zone offset'],
    [{ fields: { title: 'x', related: 'abc' } }, 'fields.related: must be a list'],
    [{ fields: { title: 'x', hero: ['some-asset'] } }, 'fields.hero: must be a single value, not a list'],
    [{ fields: { title: 'x', related: ['missing-entry'] } }, 'fields.related[0]: entry "missing-entry" not found'],
    [{ fields: { title: 'x', hero: 'missing-asset' } }, 'fields.hero: asset "missing-asset" not found'],
    [{ fields: { title: 'x', section: 'missing' } }, 'fields.section: section "missing" not found'],
    [{ fields: { title: 'x', authors: ['missing'] } }, 'fields.authors[0]: author "missing" not found'],
    [{ fields: { title: 'x', body: { type: 'doc', content: [{ type: 'cms_media', attrs: { id: 'nope' } }] } } }, 'fields.body (cms_media block 0): asset "nope" not found'],
    [{ labels: ['nope'], fields: { title: 'x' } }, 'labels[0]: label "nope" not found'],
    [{ siteId: 'nope', fields: { title: 'x' } }, 'siteId: site "nope" not found'],
    [{ status: 'EDITED', fields: { title: 'x' } }, 'status:'],
  ])('%j → %s', async (body, message) => {
    const res = await m('/entries', { body: { model: 'article', siteId, ...body } });
    expect(res.status).toBe(message === 'status:' ? 400 : 422);
    expect(res.body.success).toBe(false);
    expect(res.body.errors.join('\n')).toContain(message);
  });

  it('refuses a reference to a model outside allowedModels', async () => {
    const article = await m('/entries', { body: { model: 'article', siteId, fields: { title: 'a' } } });
    const res = await m('/entries', { body: { model: 'article', siteId, fields: { title: 'x', writer: article.body.result.id } } });
    expect(res.status).toBe(422);
    expect(res.body.errors.join()).toContain(`fields.writer: entry "${article.body.result.id}" is a "article", not one of the allowed models (person)`);
  });

  it('answers 400 for malformed bodies', async () => {
    expect((await m('/entries', { body: { model: 'article' } })).status).toBe(400);
    expect((await m('/entries', { body: { model: 'article', siteId, fields: [], extra: 1 } })).status).toBe(400);
    expect((await m('/entries/x/schedule', { body: {} })).status).toBe(400);
  });
});

describe('other organizations', () => {
  it("never reveals another org's entries (404) and refuses them as values (422)", async () => {
    const mine = await m('/entries', { body: { model: 'person', siteId, fields: { name: 'Mine' } } });
    const id = mine.body.result.id;
    const as = (path: string, method = 'GET', body?: unknown) => t.json(`/management/v1${path}`, { token: other.manageToken, method, body });
    expect((await as(`/entries/${id}`)).status).toBe(404);
    expect((await as(`/entries/${id}`, 'PATCH', { fields: {} })).status).toBe(404);
    for (const action of ['publish', 'unpublish', 'archive']) expect((await as(`/entries/${id}/${action}`, 'POST', {})).status).toBe(404);
    expect((await as(`/entries/${id}/schedule`, 'POST', { at: '2030-01-01T00:00:00Z' })).status).toBe(404);
    expect((await as(`/entries/${id}`, 'DELETE')).status).toBe(404);
    // The same id through PUT in the other org is simply a new entry there, not a write to ours.
    const put = await as(`/entries/${id}`, 'PUT', { model: 'thing', siteId: otherSiteId, fields: { name: 'theirs' } });
    expect(put.status).toBe(201);
    expect((await m(`/entries/${id}`)).body.result.fields).toEqual({ name: 'Mine' });

    await t.json('/management/v1/models/holder', {
      method: 'PUT',
      token: other.manageToken,
      body: { fields: [{ alias: 'ref', type: 'reference' }, { alias: 'img', type: 'media' }, { alias: 'sec', type: 'section' }, { alias: 'who', type: 'author' }] },
    });
    const refs = await as('/entries', 'POST', { model: 'holder', siteId: otherSiteId, labels: [labelId], fields: { ref: mine.body.result.id + 'x', img: imageId, sec: sectionId, who: authorId } });
    expect(refs.status).toBe(422);
    const errors = refs.body.errors.join('\n');
    expect(errors).toContain(`fields.img: asset "${imageId}" not found`);
    expect(errors).toContain(`fields.sec: section "${sectionId}" not found`);
    expect(errors).toContain(`fields.who: author "${authorId}" not found`);
    expect(errors).toContain(`labels[0]: label "${labelId}" not found`);
    const site = await as('/entries', 'POST', { model: 'holder', siteId, fields: {} });
    expect(site.status).toBe(422);
    expect(site.body.errors.join()).toContain(`siteId: site "${siteId}" not found`);
  });
});

describe('lifecycle', () => {
  it('DRAFT → PUBLISHED → EDITED (delivery keeps the published version) → PUBLISHED → UNPUBLISHED → ARCHIVED → DELETED', async () => {
    const draft = (await m('/entries/life-1', { method: 'PUT', body: { model: 'article', siteId, fields: { title: 'v1' } } })).body.result;
    const v0 = await contentVersion();

    const published = await m('/entries/life-1/publish', { method: 'POST' });
    expect(published.status).toBe(200);
    const p = published.body.result;
    expect(p.status).toBe('PUBLISHED');
    expect(p.publishedAt).not.toBeNull();
    expect(p.firstPublishedAt).toBe(p.publishedAt);
    expect(p.versionId).not.toBe(draft.versionId);
    expect(p.publishedVersionId).toBe(p.versionId);
    expect(p.createdAt).toBe(draft.createdAt);
    expect(await rowsOf('life-1')).toMatchObject([{ in_preview: true, in_delivery: true, status: 'PUBLISHED' }]);
    expect(await contentVersion()).toBeGreaterThan(v0);

    const edited = (await m('/entries/life-1', { method: 'PATCH', body: { fields: { title: 'v2' } } })).body.result;
    expect(edited.status).toBe('EDITED');
    expect(edited.publishedVersionId).toBe(p.versionId);
    expect(edited.publishedAt).toBe(p.publishedAt);
    let rows = await rowsOf('life-1');
    expect(rows).toMatchObject([
      { in_preview: false, in_delivery: true, status: 'PUBLISHED', fields: { title: 'v1' }, version_id: p.versionId },
      { in_preview: true, in_delivery: false, status: 'EDITED', fields: { title: 'v2' }, version_id: edited.versionId },
    ]);
    const edited2 = (await m('/entries/life-1', { method: 'PATCH', body: { fields: { title: 'v3' } } })).body.result;
    expect(edited2.versionId).not.toBe(edited.versionId);
    expect(await rowsOf('life-1')).toHaveLength(2);

    const again = (await m('/entries/life-1/publish', { method: 'POST' })).body.result;
    expect(again.status).toBe('PUBLISHED');
    expect(again.firstPublishedAt).toBe(p.firstPublishedAt);
    expect(Date.parse(again.publishedAt)).toBeGreaterThanOrEqual(Date.parse(p.publishedAt));
    rows = await rowsOf('life-1');
    expect(rows).toMatchObject([{ in_preview: true, in_delivery: true, status: 'PUBLISHED', fields: { title: 'v3' } }]);

    const unpublished = (await m('/entries/life-1/unpublish', { method: 'POST' })).body.result;
    expect(unpublished.status).toBe('UNPUBLISHED');
    expect(unpublished.unpublishedAt).not.toBeNull();
    expect(unpublished.publishedVersionId).toBeNull();
    expect(await rowsOf('life-1')).toMatchObject([{ in_preview: true, in_delivery: false }]);
    const twice = await m('/entries/life-1/unpublish', { method: 'POST' });
    expect(twice.status).toBe(409);

    const archived = (await m('/entries/life-1/archive', { method: 'POST' })).body.result;
    expect(archived.status).toBe('ARCHIVED');
    const deleted = await m('/entries/life-1', { method: 'DELETE' });
    expect(deleted.status).toBe(200);
    expect(deleted.body.result.status).toBe('DELETED');
    expect((await m('/entries/life-1')).body.result.status).toBe('DELETED');
    expect(await rowsOf('life-1')).toMatchObject([{ in_preview: true, in_delivery: false, status: 'DELETED' }]);
    expect((await m('/entries/life-1', { method: 'PATCH', body: { fields: {} } })).status).toBe(409);
    expect((await m('/entries/life-1/publish', { method: 'POST' })).status).toBe(409);
    expect((await m('/entries/life-1/archive', { method: 'POST' })).status).toBe(409);
    expect((await m('/entries/life-1', { method: 'PUT', body: { model: 'article', siteId, fields: { title: 'x' } } })).status).toBe(409);
  });

  it('archiving or deleting a published entry removes it from delivery and keeps the row', async () => {
    await m('/entries/life-2', { method: 'PUT', body: { model: 'article', siteId, status: 'PUBLISHED', fields: { title: 'a' } } });
    await m('/entries/life-2', { method: 'PATCH', body: { fields: { title: 'b' } } });
    expect(await rowsOf('life-2')).toHaveLength(2);
    const res = await m('/entries/life-2', { method: 'DELETE' });
    expect(res.body.result.status).toBe('DELETED');
    expect(await rowsOf('life-2')).toMatchObject([{ in_preview: true, in_delivery: false, status: 'DELETED', fields: { title: 'b' } }]);
  });

  it('PUT with status PUBLISHED on an existing entry writes and publishes', async () => {
    await m('/entries/life-3', { method: 'PUT', body: { model: 'article', siteId, fields: { title: 'a' } } });
    const res = await m('/entries/life-3', { method: 'PUT', body: { model: 'article', siteId, status: 'PUBLISHED', fields: { title: 'b' } } });
    expect(res.body.result).toMatchObject({ status: 'PUBLISHED', fields: { title: 'b' } });
    expect(await rowsOf('life-3')).toMatchObject([{ in_preview: true, in_delivery: true }]);
    const archive = await m('/entries/life-3', { method: 'PUT', body: { model: 'article', siteId, status: 'ARCHIVED', fields: { title: 'b' } } });
    expect(archive.status).toBe(422);
  });

  it('schedules and publishes at the time (direct run), refusing bad times and published entries', async () => {
    await m('/entries/sched-1', { method: 'PUT', body: { model: 'article', siteId, fields: { title: 's' } } });
    expect((await m('/entries/sched-1/schedule', { body: { at: 'tomorrow' } })).status).toBe(422);
    const scheduled = await m('/entries/sched-1/schedule', { body: { at: '2000-01-01T00:00:00Z' } });
    expect(scheduled.body.result).toMatchObject({ status: 'SCHEDULED', scheduledAt: '2000-01-01T00:00:00.000Z' });
    await m('/entries/sched-2', { method: 'PUT', body: { model: 'article', siteId, fields: { title: 's' } } });
    await m('/entries/sched-2/schedule', { body: { at: '2999-01-01T00:00:00Z' } });
    await publishDueEntries(t.services);
    const done = (await m('/entries/sched-1')).body.result;
    expect(done).toMatchObject({ status: 'PUBLISHED', publishedAt: '2000-01-01T00:00:00.000Z', scheduledAt: null });
    expect((await m('/entries/sched-2')).body.result.status).toBe('SCHEDULED');
    expect(await publishDueEntries(t.services)).toBe(0);
    const onPublished = await m('/entries/sched-1/schedule', { body: { at: '2999-01-01T00:00:00Z' } });
    expect(onPublished.status).toBe(409);
  });

  it('the scheduled-publish worker publishes due entries on its own', async () => {
    await m('/entries/sched-3', { method: 'PUT', body: { model: 'article', siteId, fields: { title: 's' } } });
    await m('/entries/sched-3/schedule', { body: { at: new Date(Date.now() + 500).toISOString() } });
    let status = '';
    for (let i = 0; i < 60 && status !== 'PUBLISHED'; i++) {
      await new Promise((r) => setTimeout(r, 500));
      status = (await m('/entries/sched-3')).body.result.status;
    }
    expect(status).toBe('PUBLISHED');
  });

  it('schedules an unpublish: refused in the past, before "at", on a draft; fires once (direct run), cancellable', async () => {
    const future = new Date(Date.now() + 3_600_000).toISOString();
    await m('/entries/unpub-1', { method: 'PUT', body: { model: 'article', siteId, status: 'PUBLISHED', fields: { title: 'u' } } });
    for (const [body, status, reason] of [
      [{}, 400, 'unpublishAt'],
      [{ unpublishAt: 'soon' }, 422, 'unpublishAt'],
      [{ unpublishAt: '2000-01-01T00:00:00Z' }, 422, 'in the future'],
      [{ at: '2999-01-02T00:00:00Z', unpublishAt: '2999-01-01T00:00:00Z' }, 422, 'must come after "at"'],
      // a published, unchanged entry has nothing to publish
      [{ at: '2999-01-01T00:00:00Z', unpublishAt: '2999-01-02T00:00:00Z' }, 409, 'already published'],
    ] as const) {
      const res = await m('/entries/unpub-1/schedule', { body });
      expect(res.status, JSON.stringify(body)).toBe(status);
      expect(res.body.errors.join(' ')).toContain(reason);
    }
    await m('/entries/unpub-draft', { method: 'PUT', body: { model: 'article', siteId, fields: { title: 'd' } } });
    expect((await m('/entries/unpub-draft/schedule', { body: { unpublishAt: future } })).status).toBe(409);
    expect((await m('/entries/unpub-1/schedule', { body: { unpublishAt: future } })).status).toBe(200);
    expect((await m('/entries/unpub-1/schedule', { body: { unpublishAt: future }, token: other.manageToken })).status).toBe(404);

    const scheduled = await m('/entries/unpub-1');
    expect(scheduled.body.result).toMatchObject({ status: 'PUBLISHED', unpublishAt: future });
    // an edit keeps the schedule (the draft row carries it; the published version stays live)
    expect((await m('/entries/unpub-1', { method: 'PATCH', body: { fields: { title: 'u, edited' } } })).body.result).toMatchObject({ status: 'EDITED', unpublishAt: scheduled.body.result.unpublishAt });
    const later = new Date(Date.now() + 2 * 3_600_000);
    expect(await unpublishDueEntries(t.services, new Date())).toBe(0);
    expect(await unpublishDueEntries(t.services, later)).toBe(1);
    expect(await unpublishDueEntries(t.services, later)).toBe(0);
    expect((await m('/entries/unpub-1')).body.result).toMatchObject({ status: 'UNPUBLISHED', unpublishAt: null, publishedVersionId: null });
    const { rows } = await t.services.db.query<{ type: string }>(
      `SELECT type FROM events WHERE org_id = $1 AND subject = 'entry:unpub-1' AND type = 'entry.unpublished'`,
      [org.orgId],
    );
    expect(rows).toHaveLength(1);

    // cancelled: nothing happens when its time comes
    await m('/entries/unpub-2', { method: 'PUT', body: { model: 'article', siteId, status: 'PUBLISHED', fields: { title: 'v' } } });
    await m('/entries/unpub-2/schedule', { body: { unpublishAt: future } });
    expect((await m('/entries/unpub-2/schedule', { body: { unpublishAt: null } })).body.result.unpublishAt).toBeNull();
    expect(await unpublishDueEntries(t.services, later)).toBe(0);
    expect((await m('/entries/unpub-2')).body.result.status).toBe('PUBLISHED');
  });

  it('a scheduled publish and unpublish of one entry: published, then withdrawn by the worker on its own', async () => {
    await m('/entries/window-1', { method: 'PUT', body: { model: 'article', siteId, fields: { title: 'w' } } });
    const at = new Date(Date.now() + 300).toISOString();
    const unpublishAt = new Date(Date.now() + 1500).toISOString();
    expect((await m('/entries/window-1/schedule', { body: { at, unpublishAt } })).body.result).toMatchObject({ status: 'SCHEDULED', unpublishAt });
    const seen = new Set<string>();
    for (let i = 0; i < 60 && !seen.has('UNPUBLISHED'); i++) {
      await new Promise((r) => setTimeout(r, 250));
      seen.add((await m('/entries/window-1')).body.result.status);
    }
    expect([...seen]).toEqual(expect.arrayContaining(['UNPUBLISHED']));
    const { rows } = await t.services.db.query<{ type: string }>(`SELECT type FROM events WHERE org_id = $1 AND subject = 'entry:window-1' ORDER BY id`, [org.orgId]);
    expect(rows.map((r) => r.type)).toEqual(['entry.created', 'entry.scheduled', 'entry.published', 'entry.unpublished']);
  });

  it('unknown ids are 404 for every call', async () => {
    expect((await m('/entries/nope')).status).toBe(404);
    expect((await m('/entries/nope', { method: 'PATCH', body: {} })).status).toBe(404);
    expect((await m('/entries/nope/publish', { method: 'POST' })).status).toBe(404);
    expect((await m('/entries/nope', { method: 'DELETE' })).status).toBe(404);
  });
});

describe('concurrency', () => {
  it('concurrent writes to a published entry leave exactly one preview and one delivery row', async () => {
    await m('/entries/conc-1', { method: 'PUT', body: { model: 'article', siteId, status: 'PUBLISHED', fields: { title: 'v0' } } });
    const results = await Promise.all(
      Array.from({ length: 8 }, (_, i) => m('/entries/conc-1', { method: 'PATCH', body: { fields: { title: `v${i + 1}` } } })),
    );
    expect(results.map((r) => r.status)).toEqual(Array(8).fill(200));
    const rows = await rowsOf('conc-1');
    expect(rows).toHaveLength(2);
    expect(rows.filter((r) => r.in_delivery)).toMatchObject([{ in_preview: false, status: 'PUBLISHED', fields: { title: 'v0' } }]);
    expect(rows.filter((r) => r.in_preview)).toMatchObject([{ in_delivery: false, status: 'EDITED' }]);
    const [publishA, publishB] = await Promise.all([m('/entries/conc-1/publish', { method: 'POST' }), m('/entries/conc-1/publish', { method: 'POST' })]);
    expect([publishA.status, publishB.status]).toEqual([200, 200]);
    expect(await rowsOf('conc-1')).toMatchObject([{ in_preview: true, in_delivery: true, status: 'PUBLISHED' }]);
  });

  it('concurrent PUTs of a new id create it once and replace it after', async () => {
    const results = await Promise.all(
      Array.from({ length: 4 }, (_, i) => m('/entries/conc-2', { method: 'PUT', body: { model: 'article', siteId, fields: { title: `t${i}` } } })),
    );
    expect(results.map((r) => r.status).sort()).toEqual([200, 200, 200, 201]);
    expect(await rowsOf('conc-2')).toHaveLength(1);
  });
});

describe('atomicity', () => {
  it('a write that fails midway leaves nothing behind', async () => {
    // A database fault after the entry row was inserted (the edge insert fails): the only way to
    // cause it is to inject it, so the transaction is wrapped to throw on that statement.
    const db = t.services.db;
    const faulty = interceptDb(db, (sql) => {
      if (sql.includes('INSERT INTO entry_edges')) throw new Error('injected fault');
    });
    const before = await contentVersion();
    const count = async () => (await db.query<{ n: number }>('SELECT count(*)::int AS n FROM entries WHERE org_id = $1', [org.orgId])).rows[0].n;
    const n = await count();
    await expect(
      createEntry({ db: faulty }, org.orgId, { model: 'article', siteId, fields: { title: 'x', section: sectionId } }),
    ).rejects.toThrow('injected fault');
    expect(await count()).toBe(n);
    expect(await contentVersion()).toBe(before);
    // and a validation failure writes nothing either
    expect((await m('/entries', { body: { model: 'article', siteId, fields: { title: 'x', hero: 'nope' } } })).status).toBe(422);
    expect(await count()).toBe(n);
    expect(await contentVersion()).toBe(before);
  });
});

describe('auth', () => {
  it('answers 401 without a token and 403 without the manage scope', async () => {
    const preview = await t.createToken(org.manageToken, ['preview']);
    const calls: [string, string][] = [
      ['POST', '/management/v1/entries'],
      ['PUT', '/management/v1/entries/x'],
      ['GET', '/management/v1/entries/x'],
      ['PATCH', '/management/v1/entries/x'],
      ['DELETE', '/management/v1/entries/x'],
      ['POST', '/management/v1/entries/x/publish'],
      ['POST', '/management/v1/entries/x/unpublish'],
      ['POST', '/management/v1/entries/x/archive'],
      ['POST', '/management/v1/entries/x/schedule'],
    ];
    for (const [method, path] of calls) {
      const body = method === 'GET' ? undefined : {};
      expect((await t.json(path, { method, body })).status, `${method} ${path}`).toBe(401);
      expect((await t.json(path, { method, token: preview, body })).status, `${method} ${path}`).toBe(403);
    }
  });
});
