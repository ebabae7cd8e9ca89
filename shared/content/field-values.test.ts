import { describe, expect, it } from 'vitest';
import { edgesOf } from './edges.js';
import { normalizeFields } from './field-values.js';
import type { FieldDefinition, ModelDefinition } from './model-types.js';

const f = (alias: string, type: FieldDefinition['type'], extra: Partial<FieldDefinition> = {}): FieldDefinition => ({
  alias,
  type,
  valueType: 'single',
  allowedModels: [],
  required: false,
  ...extra,
});
const model: ModelDefinition = {
  id: 'm1',
  alias: 'article',
  name: 'Article',
  titleField: 'title',
  fields: [
    f('title', 'text', { required: true }),
    f('tags', 'tag', { valueType: 'list' }),
    f('count', 'number', { numberFormat: 'int' }),
    f('price', 'number', { numberFormat: 'decimal' }),
    f('prices', 'number', { numberFormat: 'decimal', valueType: 'list' }),
    f('at', 'datetime'),
    f('flag', 'boolean'),
    f('data', 'json'),
    f('place', 'location'),
    f('related', 'reference', { valueType: 'list' }),
    f('image', 'media'),
    f('body', 'richcontent'),
    f('link', 'url'),
    f('section', 'section'),
    f('authors', 'author', { valueType: 'list' }),
  ],
};
const problems = (fields: Record<string, unknown>) => normalizeFields(model, { title: 'T', ...fields }).problems;

describe('normalizeFields', () => {
  it('stores every type in its normalized shape', () => {
    const r = normalizeFields(model, {
      title: 'Hello',
      tags: ['a', 'b'],
      count: 3,
      price: 10.5,
      prices: ['1.10', 2],
      at: '2024-05-01T14:00:00+02:00',
      flag: false,
      data: { any: [1, 'x'] },
      place: { address: 'Main St', latitude: 48.1, longitude: '11.5' },
      related: ['e1', 'e2'],
      image: 'a1',
      body: { type: 'doc', content: [{ type: 'paragraph', content: [{ type: 'text', text: 'Hi' }] }] },
      link: 'https://example.com/x',
      section: 's1',
      authors: ['au1'],
    });
    expect(r.problems).toEqual([]);
    expect(r.fields).toMatchObject({
      price: '10.5',
      prices: ['1.1', '2'],
      at: '2024-05-01T12:00:00.000Z',
      flag: false,
      place: { address: 'Main St', latitude: '48.1', longitude: '11.5' },
    });
  });

  it.each([
    [{ title: null }, 'fields.title: required'],
    [{ title: '' }, 'fields.title: required'],
    [{ nope: 1 }, 'fields.nope: unknown field'],
    [{ title: 5 }, 'fields.title: must be a string'],
    [{ tags: 'a' }, 'fields.tags: must be a list'],
    [{ tags: ['a', 3] }, 'fields.tags[1]: must be a string'],
    [{ tags: ['a', null] }, 'fields.tags[1]: must not be null'],
    [{ count: 1.5 }, 'fields.count: must be an integer'],
    [{ count: 2 ** 60 }, 'fields.count: must be an integer'],
    [{ count: '3' }, 'fields.count: must be an integer'],
    [{ price: '1'.repeat(39) }, 'fields.price: has more than 38 significant digits'],
    [{ price: 'ten' }, 'fields.price: "ten" is not a decimal number'],
    [{ at: '2024-05-01T12:00:00' }, 'fields.at: "2024-05-01T12:00:00" needs a time zone offset'],
    [{ at: '2024-13-01' }, 'fields.at: "2024-13-01" is not a valid calendar date-time'],
    [{ flag: 'yes' }, 'fields.flag: must be true or false'],
    [{ place: { latitude: 91, longitude: 0 } }, 'fields.place: latitude must be a number between -90 and 90'],
    [{ place: { lat: 1 } }, 'fields.place: unknown member "lat"'],
    [{ related: 'e1' }, 'fields.related: must be a list'],
    [{ image: ['a1'] }, 'fields.image: must be a single value, not a list'],
    [{ image: '' }, undefined],
    [{ body: { type: 'paragraph' } }, 'fields.body: must be a document'],
    [{ body: { type: 'doc', content: [{ text: 'x' }] } }, 'fields.body: content[0]: a block needs a string "type"'],
    [{ body: { type: 'doc', content: [{ type: 'cms_reference' }] } }, 'fields.body: content[0]: a cms_reference block needs attrs.id'],
    [{ link: 'not a url' }, 'fields.link: "not a url" is not an absolute URL'],
    [{ section: 7 }, 'fields.section: must be an id'],
  ])('%j → %s', (fields, message) => {
    if (message === undefined) expect(problems(fields)).toEqual([]);
    else expect(problems(fields).join('\n')).toContain(message);
  });

  it('refuses a non-object', () => expect(normalizeFields(model, []).problems).toEqual(['fields: must be an object keyed by field alias']));
});

describe('edgesOf', () => {
  it('lists reference, media, section, author and rich-content edges with positions', () => {
    const { fields } = normalizeFields(model, {
      title: 'x',
      related: ['e1', 'e2'],
      image: 'a1',
      section: 's1',
      authors: ['au1'],
      body: {
        type: 'doc',
        content: [
          { type: 'cms_media', attrs: { id: 'a2' } },
          { type: 'paragraph', content: [{ type: 'cms_reference', attrs: { id: 'e3' } }] },
          { type: 'cms_reference', attrs: { id: 'e4' } },
        ],
      },
    });
    expect(edgesOf(model, fields)).toEqual([
      { field: 'related', kind: 'reference', targetId: 'e1', position: 0 },
      { field: 'related', kind: 'reference', targetId: 'e2', position: 1 },
      { field: 'image', kind: 'media', targetId: 'a1', position: 0 },
      { field: 'body', kind: 'rich_entry', targetId: 'e3', position: 0 },
      { field: 'body', kind: 'rich_entry', targetId: 'e4', position: 1 },
      { field: 'body', kind: 'rich_media', targetId: 'a2', position: 0 },
      { field: 'section', kind: 'section', targetId: 's1', position: 0 },
      { field: 'authors', kind: 'author', targetId: 'au1', position: 0 },
    ]);
  });
});
