import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestApp, type TestApp, type TestOrg } from '../support/harness.js';

let t: TestApp;
let org: TestOrg;
let other: TestOrg;
let siteId: string;

const schemaVersion = async (orgId: string) =>
  (await t.services.db.query<{ v: number }>('SELECT schema_version AS v FROM organizations WHERE id = $1', [orgId])).rows[0].v;

beforeAll(async () => {
  t = await startTestApp();
  org = await t.createOrg('Models');
  other = await t.createOrg('Other');
  siteId = (await t.json('/management/v1/sites', { token: org.manageToken, body: { name: 'Main' } })).body.result.id;
});
afterAll(async () => {
  await t?.close();
});

const put = (alias: string, body: unknown, token = org.manageToken) => t.json(`/management/v1/models/${alias}`, { method: 'PUT', token, body });

describe('PUT /management/v1/models/:alias', () => {
  it('creates (201) and replaces (200) a model, bumping the schema version and announcing it', async () => {
    const seen: unknown[] = [];
    const stop = t.services.bus.subscribe('schema-changed', (m) => seen.push(m));
    const before = await schemaVersion(org.orgId);
    const created = await put('author1', { name: 'Writer', titleField: 'name', fields: [{ alias: 'name', type: 'text', required: true }] });
    expect(created.status).toBe(201);
    expect(created.body.result).toMatchObject({
      alias: 'author1',
      name: 'Writer',
      titleField: 'name',
      fields: [{ alias: 'name', type: 'text', valueType: 'single', allowedModels: [], required: true }],
    });
    expect(created.body.result.id).toMatch(/^[0-9A-Za-z]{20}$/);
    expect(await schemaVersion(org.orgId)).toBe(before + 1);

    const replaced = await put('author1', { titleField: 'name', fields: [{ alias: 'name', type: 'text' }, { alias: 'age', type: 'number' }] });
    expect(replaced.status).toBe(200);
    expect(replaced.body.result.id).toBe(created.body.result.id);
    expect(replaced.body.result.fields[1]).toMatchObject({ alias: 'age', numberFormat: 'int' });
    expect(await schemaVersion(org.orgId)).toBe(before + 2);
    await new Promise((r) => setTimeout(r, 200));
    stop();
    expect(seen).toContainEqual({ orgId: org.orgId, schemaVersion: before + 2 });
  });

  it('refuses invalid models with 422 naming each problem, and stores nothing', async () => {
    const before = await schemaVersion(org.orgId);
    const cases: [string, unknown, string][] = [
      ['cmsThing', { fields: [] }, 'may not begin with "cms"'],
      ['CMSthing', { fields: [] }, 'must match'],
      ['query', { fields: [] }, 'reserved name "Query"'],
      ['author1Collection', { fields: [] }, 'which model "author1" already produces'],
      ['thing', { fields: [{ alias: 'x', type: 'colour' }] }, 'fields[0] ("x"): unknown type "colour"'],
      ['thing', { fields: [{ alias: 'x', type: 'boolean', valueType: 'list' }] }, 'fields[0] ("x"): type "boolean" has no list form'],
      ['thing', { fields: [{ alias: 'x', type: 'reference', allowedModels: ['ghost'] }] }, 'allowedModels names unknown model "ghost"'],
      ['thing', { fields: [{ alias: 'system', type: 'text' }] }, 'alias "system" is reserved'],
      ['thing', { fields: [{ alias: 'x', type: 'text' }], titleField: 'y' }, 'titleField: "y" is not a field'],
    ];
    for (const [alias, body, message] of cases) {
      const res = await put(alias, body);
      expect(res.status, alias).toBe(422);
      expect(res.body.success).toBe(false);
      expect(res.body.errors.join('\n'), alias).toContain(message);
    }
    const shape = await put('thing', { fields: 'nope' });
    expect(shape.status).toBe(422);
    expect(shape.body.errors.join('\n')).toContain('fields:');
    expect((await t.json('/management/v1/models/thing', { token: org.manageToken })).status).toBe(404);
    expect(await schemaVersion(org.orgId)).toBe(before);
  });

  it('allows a self-reference and references to existing models', async () => {
    const res = await put('post', {
      titleField: 'title',
      fields: [
        { alias: 'title', type: 'text' },
        { alias: 'writer', type: 'reference', allowedModels: ['author1'] },
        { alias: 'related', type: 'reference', valueType: 'list', allowedModels: ['post'] },
      ],
    });
    expect(res.status).toBe(201);
  });
});

describe('GET and DELETE', () => {
  it('lists and reads models of the org only', async () => {
    const list = await t.json('/management/v1/models', { token: org.manageToken });
    expect(list.status).toBe(200);
    expect(list.body.result.map((m: { alias: string }) => m.alias)).toEqual(['author1', 'post']);
    const one = await t.json('/management/v1/models/post', { token: org.manageToken });
    expect(one.body.result.alias).toBe('post');
    expect((await t.json('/management/v1/models', { token: other.manageToken })).body.result).toEqual([]);
    expect((await t.json('/management/v1/models/post', { token: other.manageToken })).status).toBe(404);
    expect((await t.json('/management/v1/models/post', { method: 'DELETE', token: other.manageToken })).status).toBe(404);
  });

  it('refuses to delete a model that has entries (409) or that another model allows (409)', async () => {
    expect((await t.json('/management/v1/models/author1', { method: 'DELETE', token: org.manageToken })).status).toBe(409);
    await put('note', { fields: [{ alias: 'text', type: 'text' }] });
    const entry = await t.json('/management/v1/entries', { token: org.manageToken, body: { model: 'note', siteId, fields: { text: 'x' } } });
    expect(entry.status).toBe(201);
    const res = await t.json('/management/v1/models/note', { method: 'DELETE', token: org.manageToken });
    expect(res.status).toBe(409);
    expect(res.body.errors[0]).toContain('still has entries');
    // a field type cannot change under existing entries
    const change = await put('note', { fields: [{ alias: 'text', type: 'number' }] });
    expect(change.status).toBe(422);
    expect(change.body.errors.join()).toContain('field "text": type, valueType and numberFormat cannot change while entries of the model exist');
    // a field can be removed: the entry's next PATCH drops the old value instead of refusing it
    expect((await put('note', { fields: [{ alias: 'other', type: 'text' }] })).status).toBe(200);
    const patched = await t.json(`/management/v1/entries/${entry.body.result.id}`, { method: 'PATCH', token: org.manageToken, body: { fields: { other: 'y' } } });
    expect(patched.status).toBe(200);
    expect(patched.body.result.fields).toEqual({ other: 'y' });
  });

  it('deletes an unused model and bumps the schema version', async () => {
    await put('temp', { fields: [] });
    const before = await schemaVersion(org.orgId);
    const res = await t.json('/management/v1/models/temp', { method: 'DELETE', token: org.manageToken });
    expect(res.status).toBe(200);
    expect(await schemaVersion(org.orgId)).toBe(before + 1);
    expect((await t.json('/management/v1/models/temp', { token: org.manageToken })).status).toBe(404);
  });
});

describe('GET /management/v1/models/:alias/graphql', () => {
  it("prints the model's GraphQL type as delivery builds it, with the components its fields name", async () => {
    const component = await t.json('/management/v1/components/quote', { method: 'PUT', token: org.manageToken, body: { fields: [{ alias: 'said', type: 'text', required: true }] } });
    expect(component.status).toBe(201);
    expect((await put('essay', { name: 'Essay', fields: [{ alias: 'heading', type: 'text', required: true }, { alias: 'pull', type: 'component', components: ['quote'] }] })).status).toBe(201);
    const res = await t.json('/management/v1/models/essay/graphql', { token: org.manageToken });
    expect(res.status).toBe(200);
    expect(res.body.result).toMatchObject({ alias: 'essay', typeName: 'Essay' });
    expect(res.body.result.sdl).toMatch(/type Essay implements CmsEntry/);
    expect(res.body.result.sdl).toMatch(/\n {2}heading: String\n/);
    expect(res.body.result.sdl).toMatch(/\n {2}pull: Quote\n/);
    expect(res.body.result.sdl).toMatch(/type Quote \{[^}]*said: String\n/);
  });

  it('answers 404 in the envelope for an unknown model and for the model of another organization', async () => {
    for (const [path, token] of [
      ['/management/v1/models/ghost/graphql', org.manageToken],
      ['/management/v1/models/essay/graphql', other.manageToken],
    ]) {
      const res = await t.json(path, { token });
      expect(res.status).toBe(404);
      expect(res.body).toMatchObject({ success: false, result: null });
      expect(res.body.errors[0]).toMatch(/not found/i);
    }
  });
});

describe('concurrency', () => {
  it('model writes and entry writes running together neither deadlock nor leave an entry without its model', async () => {
    const fields = [{ alias: 'text', type: 'text' }];
    await put('race', { fields });
    const calls = await Promise.all([
      ...Array.from({ length: 4 }, (_, i) => t.json('/management/v1/entries', { token: org.manageToken, body: { model: 'race', siteId, fields: { text: `e${i}` } } })),
      put('race', { fields: [...fields, { alias: 'more', type: 'text' }] }),
      put('race', { fields: [...fields, { alias: 'other', type: 'text' }] }),
    ]);
    expect(calls.map((c) => c.status)).toEqual([201, 201, 201, 201, 200, 200]);

    await put('gone', { fields });
    const [created, deleted] = await Promise.all([
      t.json('/management/v1/entries', { token: org.manageToken, body: { model: 'gone', siteId, fields: { text: 'x' } } }),
      t.json('/management/v1/models/gone', { method: 'DELETE', token: org.manageToken }),
    ]);
    // Either order is fine; both succeeding is not.
    expect([created.status, deleted.status]).toContainEqual(created.status === 201 ? 201 : 422);
    if (created.status === 201) expect(deleted.status).toBe(409);
    else expect(deleted.status).toBe(200);
  });
});

describe('auth', () => {
  it('answers 401 without a token and 403 without the manage scope', async () => {
    const delivery = await t.createToken(org.manageToken, ['delivery']);
    for (const [method, path] of [
      ['GET', '/management/v1/models'],
      ['GET', '/management/v1/models/post'],
      ['PUT', '/management/v1/models/post'],
      ['DELETE', '/management/v1/models/post'],
      ['GET', '/management/v1/models/post/graphql'],
    ]) {
      expect((await t.json(path, { method, body: method === 'PUT' ? { fields: [] } : undefined })).status).toBe(401);
      expect((await t.json(path, { method, token: delivery, body: method === 'PUT' ? { fields: [] } : undefined })).status).toBe(403);
    }
  });
});
