import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { publishDueEntries } from '../../shared/content/entry-lifecycle.js';
import { pruneVersions } from '../../shared/content/version-repository.js';
import { startTestApp, type TestApp, type TestOrg } from '../support/harness.js';

/**
 * Version history: every version an entry takes is kept (written by triggers on `entries`, so
 * the REST writes, the lifecycle and the bulk import all keep theirs), listed, read and restored
 * as a new draft; retention per organization.
 */
describe('entry versions', () => {
  let t: TestApp;
  let org: TestOrg;
  let other: TestOrg;
  let site: string;
  const m = (p: string, o: { method?: string; body?: unknown; rawBody?: BodyInit; headers?: Record<string, string> } = {}, token = org.manageToken) =>
    t.json(`/management/v1${p}`, { token, ...o });
  const versions = async (id: string) => (await m(`/entries/${id}/versions?pageSize=100`)).body.result as { versionId: string; status: string; title: string; current: boolean }[];

  beforeAll(async () => {
    t = await startTestApp();
    [org, other] = await Promise.all([t.createOrg(), t.createOrg()]);
    site = (await m('/sites', { body: { name: 'Web' } })).body.result.id;
    expect((await m('/models/article', { method: 'PUT', body: { titleField: 'title', fields: [{ alias: 'title', type: 'text', required: true }, { alias: 'body', type: 'text' }] } })).status).toBe(201);
  });
  afterAll(async () => t?.close());

  it('keeps every version, newest first, and reads one back with its fields', async () => {
    await m('/entries/a1', { method: 'PUT', body: { model: 'article', siteId: site, fields: { title: 'One' } } });
    await m('/entries/a1', { method: 'PATCH', body: { fields: { body: 'first body' } } });
    await m('/entries/a1/publish', { method: 'POST' });
    await m('/entries/a1', { method: 'PATCH', body: { fields: { title: 'One, edited' } } });
    // a schedule change that is not a new version (unpublishAt) adds none
    await m('/entries/a1/schedule', { body: { unpublishAt: new Date(Date.now() + 86_400_000).toISOString() } });
    const list = await versions('a1');
    expect(list.map((v) => [v.status, v.title, v.current])).toEqual([
      ['EDITED', 'One, edited', true],
      ['PUBLISHED', 'One', false],
      ['DRAFT', 'One', false],
      ['DRAFT', 'One', false],
    ]);
    const entry = (await m('/entries/a1')).body.result;
    expect(list[0].versionId).toBe(entry.versionId);
    expect(list[1].versionId).toBe(entry.publishedVersionId);
    const first = await m(`/entries/a1/versions/${list[3].versionId}`);
    expect(first.body.result).toMatchObject({ versionId: list[3].versionId, status: 'DRAFT', model: 'article', siteId: site, fields: { title: 'One' }, current: false });
    expect(first.body.result.fields.body).toBeUndefined();
    const paged = await m('/entries/a1/versions?pageIndex=2&pageSize=3');
    expect([paged.body.result.length, paged.body.resultInfo.totalCount]).toEqual([1, 4]);
  });

  it('restores a version as a new draft, clearing fields it had no value for; the published version stays live', async () => {
    const list = await versions('a1');
    const oldest = list[list.length - 1];
    const restored = await m(`/entries/a1/versions/${oldest.versionId}/restore`, { method: 'POST' });
    expect(restored.status).toBe(200);
    expect(restored.body.result).toMatchObject({ status: 'EDITED', fields: { title: 'One' } });
    expect(restored.body.result.fields.body).toBeUndefined();
    expect(restored.body.result.versionId).not.toBe(oldest.versionId);
    const after = await versions('a1');
    expect(after).toHaveLength(list.length + 1);
    expect(after[0]).toMatchObject({ versionId: restored.body.result.versionId, current: true, title: 'One' });
    // delivery still reads the published version, with its body
    const delivery = await t.createToken(org.manageToken, ['delivery']);
    const read = await t.json('/graphql', { token: delivery, body: { query: '{ article(id: "a1") { title body } }' } });
    expect(read.body.data.article).toEqual({ title: 'One', body: 'first body' });
  });

  it('checks a restore against the model as it is now', async () => {
    await m('/entries/a2', { method: 'PUT', body: { model: 'article', siteId: site, fields: { title: 'Two' } } });
    const [v1] = await versions('a2');
    await m('/models/article', { method: 'PUT', body: { titleField: 'title', fields: [{ alias: 'title', type: 'text', required: true }, { alias: 'body', type: 'text' }, { alias: 'kicker', type: 'text' }] } });
    await m('/entries/a2', { method: 'PATCH', body: { fields: { kicker: 'new' } } });
    await m('/models/article', { method: 'PUT', body: { titleField: 'title', fields: [{ alias: 'title', type: 'text', required: true }, { alias: 'body', type: 'text' }, { alias: 'kicker', type: 'text', required: true }] } });
    const refused = await m(`/entries/a2/versions/${v1.versionId}/restore`, { method: 'POST' });
    expect(refused.status).toBe(422);
    expect(refused.body.errors.join(' ')).toContain('kicker');
    expect(await versions('a2')).toHaveLength(2);
    await m('/models/article', { method: 'PUT', body: { titleField: 'title', fields: [{ alias: 'title', type: 'text', required: true }, { alias: 'body', type: 'text' }] } });
  });

  it('keeps the versions the bulk import writes', async () => {
    const ndjson = ['b1', 'b2', 'b3'].map((id) => JSON.stringify({ type: 'entry', id, model: 'article', siteId: site, status: 'PUBLISHED', fields: { title: id } })).join('\n');
    const imported = await m('/import', { method: 'POST', rawBody: ndjson, headers: { 'content-type': 'application/x-ndjson' } });
    expect(imported.status).toBe(200);
    for (const id of ['b1', 'b2', 'b3']) expect((await versions(id)).map((v) => [v.status, v.current])).toEqual([['PUBLISHED', true]]);
  });

  it('names the token that saved each version; the scheduler\'s publication has none', async () => {
    const editor = (await m('/tokens', { body: { name: 'editor', scopes: ['manage'] } })).body.result as { id: string; token: string };
    const initial = (await m('/tokens')).body.result.find((k: { name: string }) => k.name === 'initial manage token') as { id: string };
    await m('/entries/s1', { method: 'PUT', body: { model: 'article', siteId: site, fields: { title: 'S' } } });
    await m('/entries/s1', { method: 'PATCH', body: { fields: { body: 'by the editor' } } }, editor.token);
    await m('/entries/s1/schedule', { body: { at: '2000-01-01T00:00:00Z' } }, editor.token);
    await publishDueEntries(t.services);
    const list = (await m('/entries/s1/versions')).body.result as { status: string; savedBy: { tokenId: string; name: string } | null }[];
    expect(list.map((v) => [v.status, v.savedBy])).toEqual([
      ['PUBLISHED', null],
      ['SCHEDULED', { type: 'token', id: editor.id, tokenId: editor.id, name: 'editor' }],
      ['DRAFT', { type: 'token', id: editor.id, tokenId: editor.id, name: 'editor' }],
      ['DRAFT', { type: 'token', id: initial.id, tokenId: initial.id, name: 'initial manage token' }],
    ]);
    const [published] = list;
    expect((await m(`/entries/s1/versions/${(await m('/entries/s1')).body.result.versionId}`)).body.result.savedBy).toBe(published.savedBy);
  });

  it('answers 404 for unknown entries and versions and for another organization, 400 for bad paging', async () => {
    const [v] = await versions('a1');
    expect((await m('/entries/nope/versions')).status).toBe(404);
    expect((await m('/entries/a1/versions/nope')).status).toBe(404);
    expect((await m('/entries/a1/versions/nope/restore', { method: 'POST' })).status).toBe(404);
    expect((await m('/entries/a1/versions', {}, other.manageToken)).status).toBe(404);
    expect((await m(`/entries/a1/versions/${v.versionId}`, {}, other.manageToken)).status).toBe(404);
    expect((await m(`/entries/a1/versions/${v.versionId}/restore`, { method: 'POST' }, other.manageToken)).status).toBe(404);
    expect((await m('/entries/a1/versions?pageSize=0')).status).toBe(400);
    expect((await m('/entries/a1/versions', {}, await t.createToken(org.manageToken, ['delivery']))).status).toBe(403);
  });

  it('prunes past the organization\'s retention, never the current version, and refuses bad settings', async () => {
    expect((await m('/version-retention')).body.result).toEqual({ versionsKept: 100, versionsDays: null });
    for (const body of [{}, { versionsKept: 0 }, { versionsDays: -1 }, { versionsKept: 'x' }]) {
      const res = await m('/version-retention', { method: 'PATCH', body });
      expect(res.status, JSON.stringify(body)).toBe(400);
    }
    await m('/entries/c1', { method: 'PUT', body: { model: 'article', siteId: site, fields: { title: 'c' } } });
    for (let i = 0; i < 4; i++) await m('/entries/c1', { method: 'PATCH', body: { fields: { body: `b${i}` } } });
    const before = await versions('c1');
    expect(before).toHaveLength(5);
    // another org's versions are not this org's business
    const theirs = (await m('/sites', { body: { name: 'W' } }, other.manageToken)).body.result.id;
    await m('/models/note', { method: 'PUT', body: { fields: [{ alias: 'x', type: 'text' }] } }, other.manageToken);
    await m('/entries/n1', { method: 'PUT', body: { model: 'note', siteId: theirs, fields: { x: '1' } } }, other.manageToken);
    await m('/entries/n1', { method: 'PATCH', body: { fields: { x: '2' } } }, other.manageToken);

    expect((await m('/version-retention', { method: 'PATCH', body: { versionsKept: 2 } })).body.result).toEqual({ versionsKept: 2, versionsDays: null });
    expect(await pruneVersions(t.services.db)).toBeGreaterThan(0);
    const after = await versions('c1');
    expect(after.map((v) => v.versionId)).toEqual(before.slice(0, 2).map((v) => v.versionId));
    expect(after[0].current).toBe(true);
    expect((await m('/entries/n1/versions', {}, other.manageToken)).body.result).toHaveLength(2);
    expect((await m('/version-retention', {}, other.manageToken)).body.result.versionsKept).toBe(100);
  });
});
