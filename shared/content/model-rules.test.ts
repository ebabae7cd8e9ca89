import { describe, expect, it } from 'vitest';
import { checkModel, type ModelCheckContext } from './model-rules.js';
import type { ModelInput } from './model-input.js';
import type { ModelDefinition } from './model-types.js';

const none: ModelCheckContext = { others: [], previous: null, hasEntries: false };
const model = (alias: string, fields: ModelDefinition['fields'] = []): ModelDefinition => ({ id: alias, alias, name: alias, titleField: null, fields });
const problemsOf = (alias: string, input: ModelInput, ctx = none) => {
  const r = checkModel(alias, input, ctx);
  return 'problems' in r ? r.problems : [];
};

describe('model alias rules', () => {
  it.each([
    ['Post', 'must match'],
    ['1post', 'must match'],
    ['blog-post', 'must match'],
    ['cmsPost', 'may not begin with "cms"'],
    ['cMSthing', 'may not begin with "cms"'],
    ['query', 'reserved name "Query"'],
    ['string', 'reserved name "String"'],
    ['dateTime', 'reserved name "DateTime"'],
    ['json', 'reserved name "Json"'],
    ['decimal', 'reserved name "Decimal"'],
    ['long', 'reserved name "Long"'],
    ['media', 'reserved name "Media"'],
    ['entry', 'reserved name "Entry"'],
    ['entryRelations', 'reserved name "EntryRelations"'],
  ])('refuses %s', (alias, message) => {
    expect(problemsOf(alias, { fields: [] }).join('\n')).toContain(message);
  });

  it("refuses names that collide with another model's generated names", () => {
    const ctx = { ...none, others: [model('post')] };
    expect(problemsOf('postCollection', { fields: [] }, ctx).join()).toContain('"PostCollection", which model "post" already produces');
    expect(problemsOf('postFilter', { fields: [] }, ctx).join()).toContain('PostFilter');
    expect(problemsOf('postOrder', { fields: [] }, ctx).join()).toContain('PostOrder');
    expect(problemsOf('postRelations', { fields: [] }, ctx).join()).toContain('PostRelations');
    expect(problemsOf('nextPostEntry', { fields: [] }, ctx).join()).toContain('nextPostEntryCollection');
    expect(problemsOf('article', { fields: [] }, ctx)).toEqual([]);
  });

  it('accepts a model using every field type', () => {
    const r = checkModel(
      'article',
      {
        titleField: 'title',
        fields: [
          { alias: 'title', type: 'text', required: true },
          { alias: 'tags', type: 'tag', valueType: 'list' },
          { alias: 'price', type: 'number', numberFormat: 'decimal' },
          { alias: 'count', type: 'number' },
          { alias: 'at', type: 'datetime' },
          { alias: 'flag', type: 'boolean' },
          { alias: 'data', type: 'json' },
          { alias: 'place', type: 'location' },
          { alias: 'related', type: 'reference', valueType: 'list', allowedModels: ['article'] },
          { alias: 'image', type: 'media' },
          { alias: 'summary', type: 'richtext' },
          { alias: 'body', type: 'richcontent' },
          { alias: 'author', type: 'author' },
          { alias: 'section', type: 'section', valueType: 'list' },
          { alias: 'link', type: 'url' },
        ],
      },
      none,
    );
    if (!('model' in r)) throw new Error(r.problems.join('\n'));
    expect(r.model.fields.find((f) => f.alias === 'count')).toMatchObject({ numberFormat: 'int', valueType: 'single', required: false });
    expect(r.model.fields.find((f) => f.alias === 'price')).toMatchObject({ numberFormat: 'decimal' });
    expect(r.model.titleField).toBe('title');
  });
});

describe('field definition rules', () => {
  const one = (f: ModelInput['fields'][number], extra: Partial<ModelInput> = {}, ctx = none) => problemsOf('thing', { fields: [f], ...extra }, ctx).join('\n');

  it('names unknown types', () => expect(one({ alias: 'x', type: 'color' })).toContain('fields[0] ("x"): unknown type "color"'));
  it.each(['datetime', 'boolean', 'json', 'location', 'richtext', 'richcontent', 'url'])('refuses a list of %s', (type) => {
    expect(one({ alias: 'x', type, valueType: 'list' })).toContain(`type "${type}" has no list form`);
  });
  it.each(['text', 'number', 'reference', 'media', 'author', 'tag', 'section'])('accepts a list of %s', (type) => {
    expect(one({ alias: 'x', type, valueType: 'list' })).toBe('');
  });
  it('refuses a bad valueType', () => expect(one({ alias: 'x', type: 'text', valueType: 'many' })).toContain('valueType must be'));
  it('refuses numberFormat off numbers and bad formats', () => {
    expect(one({ alias: 'x', type: 'text', numberFormat: 'int' })).toContain('numberFormat applies only to number fields');
    expect(one({ alias: 'x', type: 'number', numberFormat: 'float' })).toContain('numberFormat must be "int" or "decimal"');
  });
  it('refuses allowedModels that do not exist or are off references', () => {
    expect(one({ alias: 'x', type: 'reference', allowedModels: ['ghost'] })).toContain('allowedModels names unknown model "ghost"');
    expect(one({ alias: 'x', type: 'media', allowedModels: ['thing'] })).toContain('allowedModels applies only to reference fields');
    expect(one({ alias: 'x', type: 'reference', allowedModels: ['thing', 'post'] }, {}, { ...none, others: [model('post')] })).toBe('');
  });
  it.each(['id', 'system', 'attrs', 'relations', 'and', 'or', 'thenBy'])('refuses the reserved field alias %s', (alias) => {
    expect(one({ alias, type: 'text' })).toContain(`alias "${alias}" is reserved`);
  });
  it('refuses bad and duplicate aliases and the _v2 collision', () => {
    expect(one({ alias: '9x', type: 'text' })).toContain('alias must match');
    expect(one({ alias: '__x', type: 'text' })).toContain('may not begin with "__"');
    expect(problemsOf('thing', { fields: [{ alias: 'a', type: 'text' }, { alias: 'a', type: 'number' }] }).join()).toContain('fields[1] ("a"): alias is used by another field');
    expect(problemsOf('thing', { fields: [{ alias: 'body', type: 'richcontent' }, { alias: 'body_v2', type: 'text' }] }).join()).toContain(
      'field "body_v2": collides with the generated field of rich-content field "body"',
    );
  });
  it('checks the title field', () => {
    expect(one({ alias: 'n', type: 'number' }, { titleField: 'n' })).toContain('titleField: "n" must be a single text field');
    expect(one({ alias: 'n', type: 'text' }, { titleField: 'missing' })).toContain('titleField: "missing" is not a field of the model');
  });
  it('refuses type changes while entries exist', () => {
    const previous = model('thing', [{ alias: 'n', type: 'text', valueType: 'single', allowedModels: [], required: false }]);
    expect(one({ alias: 'n', type: 'number' }, {}, { others: [], previous, hasEntries: true })).toContain('cannot change while entries of the model exist');
    expect(one({ alias: 'n', type: 'number' }, {}, { others: [], previous, hasEntries: false })).toBe('');
  });
});
