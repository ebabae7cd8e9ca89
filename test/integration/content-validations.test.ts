import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { insertTestAsset } from '../support/test-assets.js';
import { startTestApp, type TestApp, type TestOrg } from '../support/harness.js';

let t: TestApp;
let org: TestOrg;
let siteId: string;
let imageId: string;
let fileId: string;
let delivery: string;

const m = (path: string, o: { method?: string; body?: unknown; token?: string } = {}) => t.json(`/management/v1${path}`, { token: org.manageToken, ...o });
const ndjson = (lines: unknown[]) => lines.map((l) => JSON.stringify(l)).join('\n') + '\n';

const PRODUCT_FIELDS = [
  { alias: 'name', type: 'text', required: true, validations: [{ size: { min: 3, max: 20 } }] },
  { alias: 'sku', type: 'text', validations: [{ unique: true }, { pattern: { regex: '^[A-Z]{3}-\\d{3}$', message: 'must look like ABC-123' } }] },
  { alias: 'code', type: 'text', validations: [{ pattern: { regex: '^[a-z]+$', flags: 'i' } }] },
  { alias: 'tags', type: 'tag', valueType: 'list', validations: [{ size: { max: 2 } }, { in: ['red', 'green', 'blue'] }] },
  { alias: 'stock', type: 'number', validations: [{ range: { min: 0, max: 100 } }] },
  { alias: 'price', type: 'number', numberFormat: 'decimal', validations: [{ range: { min: 0.5 } }, { in: ['0.5', '1.25', '9.99'] }] },
  { alias: 'launch', type: 'datetime', validations: [{ range: { min: '2020-01-01T00:00:00Z', max: '2030-12-31T00:00:00Z' } }] },
  { alias: 'photo', type: 'media', validations: [{ assetTypes: ['IMAGE'] }, { imageSize: { width: { min: 2, max: 8 }, height: { max: 8 } } }] },
  { alias: 'big', type: 'media', validations: [{ imageSize: { width: { min: 100 } } }] },
  { alias: 'slug', type: 'text', localized: true, validations: [{ unique: true }] },
];

const product = (fields: Record<string, unknown>, extra: Record<string, unknown> = {}) => ({ model: 'product', siteId, fields: { name: 'Widget', ...fields }, ...extra });

beforeAll(async () => {
  t = await startTestApp();
  org = await t.createOrg('Validations');
  delivery = await t.createToken(org.manageToken, ['delivery']);
  siteId = (await m('/sites', { body: { name: 'Main' } })).body.result.id;
  imageId = await insertTestAsset(t.services.db, org.orgId, 'IMAGE', 'red.png');
  fileId = await insertTestAsset(t.services.db, org.orgId, 'FILE', 'notes.txt');
  await m('/locales', { body: { code: 'en-US', name: 'English' } });
  await m('/locales', { body: { code: 'de-DE', name: 'Deutsch' } });
  const res = await m('/models/product', { method: 'PUT', body: { titleField: 'name', fields: PRODUCT_FIELDS } });
  expect(res.status, JSON.stringify(res.body)).toBe(201);
});
afterAll(async () => {
  await t?.close();
});

describe('validations in a model definition', () => {
  it('are listed in the model answer as normalized', async () => {
    const got = (await m('/models/product')).body.result;
    const field = (alias: string) => got.fields.find((f: { alias: string }) => f.alias === alias);
    expect(field('sku').validations).toEqual([{ unique: true }, { pattern: { regex: '^[A-Z]{3}-\\d{3}$', message: 'must look like ABC-123' } }]);
    expect(field('launch').validations).toEqual([{ range: { min: '2020-01-01T00:00:00.000Z', max: '2030-12-31T00:00:00.000Z' } }]);
    expect(field('photo').validations).toEqual([{ assetTypes: ['IMAGE'] }, { imageSize: { width: { min: 2, max: 8 }, height: { max: 8 } } }]);
  });

  it('refuses rules that do not fit the field or do not hold together, naming the field and the rule', async () => {
    const cases: [unknown, string][] = [
      [{ alias: 'x', type: 'boolean', validations: [{ size: { max: 1 } }] }, 'fields[0] ("x"): validations[0]: size applies only to'],
      [{ alias: 'x', type: 'text', valueType: 'list', validations: [{ unique: true }] }, 'unique applies only to single'],
      [{ alias: 'x', type: 'text', validations: [{ pattern: { regex: '(' } }] }, 'pattern: regex does not compile'],
      [{ alias: 'x', type: 'text', validations: [{ pattern: { regex: 'a', flags: 'g' } }] }, 'pattern: flags may hold each of i, m, s, u once'],
      [{ alias: 'x', type: 'number', validations: [{ range: { min: 5, max: 1 } }] }, 'range: min is greater than max'],
      [{ alias: 'x', type: 'datetime', validations: [{ in: ['a'] }] }, 'in applies only to'],
      [{ alias: 'x', type: 'number', validations: [{ in: ['a'] }] }, 'in[0] must be an integer'],
      [{ alias: 'x', type: 'media', validations: [{ assetTypes: ['PDF'] }] }, 'unknown asset type "PDF"'],
      [{ alias: 'x', type: 'media', validations: [{ imageSize: {} }] }, 'imageSize: needs width, height or both'],
      [{ alias: 'x', type: 'text', validations: [{ size: { min: 1 } }, { size: { max: 2 } }] }, 'rule "size" is given twice'],
      [{ alias: 'x', type: 'text', validations: [{ colour: 'red' }] }, 'must be an object with one member, one of unique, pattern'],
    ];
    for (const [field, message] of cases) {
      const res = await m('/models/bad', { method: 'PUT', body: { fields: [field] } });
      expect(res.status, message).toBe(422);
      expect(res.body.errors.join('\n'), message).toContain(message);
    }
    expect((await m('/models/bad')).status).toBe(404);
  });

  it('travel in the export, so an import restores them', async () => {
    const res = await fetch(`${t.baseUrl}/management/v1/export`, { headers: { authorization: `Bearer ${org.manageToken}` } });
    const lines = (await res.text()).trim().split('\n').map((l) => JSON.parse(l) as { type: string; alias?: string; fields?: { alias: string; validations?: unknown }[] });
    const model = lines.find((l) => l.type === 'model' && l.alias === 'product')!;
    expect(model.fields!.find((f) => f.alias === 'sku')!.validations).toEqual([{ unique: true }, { pattern: { regex: '^[A-Z]{3}-\\d{3}$', message: 'must look like ABC-123' } }]);
  });

  it('are described in the GraphQL schema', async () => {
    const res = await t.json('/graphql', { token: delivery, body: { query: '{ __type(name: "Product") { fields { name description } } }' } });
    const fields = res.body.data.__type.fields as { name: string; description: string | null }[];
    const d = (name: string) => fields.find((f) => f.name === name)?.description;
    expect(d('sku')).toBe('Validations: unique (unique among the entries of the model); pattern (matches /^[A-Z]{3}-\\d{3}$/).');
    expect(d('tags')).toBe('Validations: size (size at most 2); in (one of "red", "green", "blue").');
    expect(d('photo')).toContain('imageSize (image width 2–8 px, height at most 8 px)');
  });
});

describe('every write path keeps the rules', () => {
  const broken: [string, Record<string, unknown>, string][] = [
    ['size (characters)', { name: 'Wi' }, 'fields.name: size: must be between 3 and 20 characters long (is 2)'],
    ['size (items)', { tags: ['red', 'green', 'blue'] }, 'fields.tags: size: must hold at most 2 items (holds 3)'],
    ['in (text)', { tags: ['red', 'pink'] }, 'fields.tags[1]: in: "pink" is not one of the allowed values'],
    ['in (decimal)', { price: '2.00' }, 'fields.price: in: "2" is not one of the allowed values ("0.5", "1.25", "9.99")'],
    ['range (number)', { stock: 101 }, 'fields.stock: range: must be between 0 and 100 (is 101)'],
    ['range (decimal)', { price: '0.25' }, 'fields.price: range: must be at least 0.5 (is 0.25)'],
    ['range (datetime)', { launch: '2019-05-01T00:00:00Z' }, 'fields.launch: range: must be between 2020-01-01T00:00:00.000Z and'],
    ['pattern (custom message)', { sku: 'abc-123' }, 'fields.sku: pattern: must look like ABC-123'],
    ['pattern (flags, generic message)', { code: 'ab1' }, 'fields.code: pattern: must match /^[a-z]+$/i'],
    ['assetTypes', { photo: '<file>' }, 'fields.photo: assetTypes: asset "<file>" is FILE, not one of IMAGE'],
    ['imageSize (not an image)', { big: '<file>' }, 'fields.big: imageSize: asset "<file>" is not an image of known dimensions'],
    ['imageSize (too small)', { big: '<image>' }, 'fields.big: imageSize: asset "<image>" is 4 px in width, outside 100–∞ px'],
  ];
  const fill = (v: Record<string, unknown>) => JSON.parse(JSON.stringify(v).replaceAll('<file>', fileId).replaceAll('<image>', imageId)) as Record<string, unknown>;
  const say = (s: string) => s.replaceAll('<file>', fileId).replaceAll('<image>', imageId);

  it('accepts values that keep every rule', async () => {
    const res = await m('/entries', { body: product({ sku: 'ABC-001', code: 'AbC', tags: ['red', 'blue'], stock: 0, price: '1.25', launch: '2025-01-01T00:00:00Z', photo: imageId }) });
    expect(res.status, JSON.stringify(res.body)).toBe(201);
  });

  it('REST create, replace and patch answer 422 naming fields.<alias> and the rule', async () => {
    const base = (await m('/entries', { body: product({}) })).body.result.id as string;
    for (const [rule, fields, message] of broken) {
      const created = await m('/entries', { body: product(fill(fields)) });
      expect(created.status, rule).toBe(422);
      expect(created.body.errors.join('\n'), rule).toContain(say(message));
      const replaced = await m(`/entries/${base}`, { method: 'PUT', body: product(fill(fields)) });
      expect(replaced.status, rule).toBe(422);
      expect(replaced.body.errors.join('\n'), rule).toContain(say(message));
      const patched = await m(`/entries/${base}`, { method: 'PATCH', body: { fields: fill(fields) } });
      expect(patched.status, rule).toBe(422);
      expect(patched.body.errors.join('\n'), rule).toContain(say(message));
    }
    // nothing of it was stored
    expect((await m(`/entries/${base}`)).body.result.fields).toEqual({ name: 'Widget' });
  });

  it('import refuses each line that breaks a rule, with the same message, and writes the others', async () => {
    const lines = [
      ...broken.map(([, fields], i) => ({ type: 'entry', id: `imp-${i}`, ...product(fill(fields)) })),
      { type: 'entry', id: 'imp-ok', ...product({ sku: 'IMP-001' }) },
      { type: 'entry', id: 'imp-dup', ...product({ sku: 'IMP-001' }) },
    ];
    const res = await t.json('/management/v1/import', { method: 'POST', token: org.manageToken, rawBody: ndjson(lines), headers: { 'content-type': 'application/x-ndjson' } });
    expect(res.status, JSON.stringify(res.body)).toBe(200);
    const results = res.body.result.results as { line: number; ok: boolean; errors?: string[] }[];
    broken.forEach(([rule, , message], i) => {
      expect(results[i].ok, rule).toBe(false);
      expect(results[i].errors!.join('\n'), rule).toContain(say(message));
    });
    expect(results[broken.length].ok).toBe(true);
    expect(results[broken.length + 1].ok).toBe(false);
    expect(results[broken.length + 1].errors!.join('\n')).toContain('fields.sku: unique: "IMP-001" is already used by entry "imp-ok"');
  });
});

describe('unique', () => {
  it('holds among all entries of the model, drafts included, per locale for localized fields; a deleted entry gives its value up', async () => {
    const first = await m('/entries', { body: product({ sku: 'UNQ-001', slug: 'hello' }, { locales: { 'de-DE': { slug: 'hallo' } } }) });
    expect(first.status).toBe(201);
    const firstId = first.body.result.id as string;
    const again = await m('/entries', { body: product({ sku: 'UNQ-001' }) });
    expect(again.status).toBe(422);
    expect(again.body.errors.join('\n')).toContain(`fields.sku: unique: "UNQ-001" is already used by entry "${firstId}"`);
    // per locale: the same word in another locale is another value
    expect((await m('/entries', { body: product({ slug: 'hallo' }, { locales: { 'de-DE': { slug: 'hello' } } }) })).status).toBe(201);
    const deClash = await m('/entries', { body: product({}, { locales: { 'de-DE': { slug: 'hallo' } } }) });
    expect(deClash.status).toBe(422);
    expect(deClash.body.errors.join('\n')).toContain(`locales.de-DE.slug: unique: "hallo" is already used by entry "${firstId}"`);
    // the holder may write its own value again, and the old value is free once it changes
    expect((await m(`/entries/${firstId}`, { method: 'PATCH', body: { fields: { name: 'Widget 2' } } })).status).toBe(200);
    expect((await m(`/entries/${firstId}`, { method: 'PATCH', body: { fields: { sku: 'UNQ-002' } } })).status).toBe(200);
    const taken = await m('/entries', { body: product({ sku: 'UNQ-001' }) });
    expect(taken.status).toBe(201);
    // deleting frees the value
    expect((await m(`/entries/${taken.body.result.id}`, { method: 'DELETE' })).status).toBe(200);
    expect((await m('/entries', { body: product({ sku: 'UNQ-001' }) })).status).toBe(201);
  });

  it('lets exactly one of 20 concurrent writers of the same value win', async () => {
    const answers = await Promise.all(Array.from({ length: 20 }, (_, i) => m(`/entries/race-${i}`, { method: 'PUT', body: product({ sku: 'RAC-001' }) })));
    const statuses = answers.map((a) => a.status).sort();
    expect(statuses.filter((s) => s === 201)).toHaveLength(1);
    expect(statuses.filter((s) => s === 422)).toHaveLength(19);
    const { rows } = await t.services.db.query<{ n: number }>(
      `SELECT count(*)::int AS n FROM entries WHERE org_id = $1 AND in_preview AND fields->>'sku' = 'RAC-001'`,
      [org.orgId],
    );
    expect(rows[0].n).toBe(1);
  });
});

describe('pattern', () => {
  it('answers quickly on a pathological pattern and a long input', async () => {
    const put = await m('/models/evil', { method: 'PUT', body: { fields: [{ alias: 'v', type: 'text', validations: [{ pattern: { regex: '(a+)+$' } }] }] } });
    expect(put.status).toBe(201);
    const started = performance.now();
    const res = await m('/entries', { body: { model: 'evil', siteId, fields: { v: `${'a'.repeat(5_000)}!` } } });
    const took = performance.now() - started;
    expect(res.status).toBe(422);
    expect(res.body.errors.join('\n')).toContain('fields.v: pattern: the value could not be checked within 50 ms');
    expect(took).toBeLessThan(2_000);
    // the same pattern still checks ordinary values
    expect((await m('/entries', { body: { model: 'evil', siteId, fields: { v: 'aaa' } } })).status).toBe(201);
    const miss = await m('/entries', { body: { model: 'evil', siteId, fields: { v: 'b' } } });
    expect(miss.body.errors.join('\n')).toContain('fields.v: pattern: must match /(a+)+$/');
  });
});

describe('adding rules to a model with entries', () => {
  it('is allowed and reports how many entries break each new rule', async () => {
    const fields = [
      { alias: 'title', type: 'text' },
      { alias: 'n', type: 'number' },
    ];
    const created = await m('/models/note', { method: 'PUT', body: { fields } });
    expect(created.status).toBe(201);
    // a field without rules answers as before: no `validations` member
    expect(created.body.result.fields.some((f: object) => 'validations' in f)).toBe(false);
    expect(created.body.result.brokenEntries).toBeUndefined();
    for (const [title, n] of [['same', 1], ['same', 2], ['same', 3], ['other', 50], ['x', 60]] as const) {
      expect((await m('/entries', { body: { model: 'note', siteId, fields: { title, n } } })).status).toBe(201);
    }
    const res = await m('/models/note', {
      method: 'PUT',
      body: { fields: [{ alias: 'title', type: 'text', validations: [{ unique: true }, { size: { min: 2 } }] }, { alias: 'n', type: 'number', validations: [{ range: { max: 10 } }] }] },
    });
    expect(res.status).toBe(200);
    expect(res.body.result.brokenEntries).toEqual([
      { field: 'title', rule: 'unique', entries: 2 },
      { field: 'title', rule: 'size', entries: 1 },
      { field: 'n', rule: 'range', entries: 2 },
    ]);
    // the rule holds from now on: the oldest "same" keeps the value
    const dup = await m('/entries', { body: { model: 'note', siteId, fields: { title: 'other', n: 1 } } });
    expect(dup.status).toBe(422);
    expect(dup.body.errors.join('\n')).toContain('fields.title: unique: "other"');
    // unchanged rules are not counted again; dropping unique frees the values
    const same = await m('/models/note', { method: 'PUT', body: { fields: [{ alias: 'title', type: 'text', validations: [{ size: { min: 2 } }] }, { alias: 'n', type: 'number', validations: [{ range: { max: 10 } }] }] } });
    expect(same.body.result.brokenEntries).toBeUndefined();
    expect((await m('/entries', { body: { model: 'note', siteId, fields: { title: 'other', n: 1 } } })).status).toBe(201);
  });
});
