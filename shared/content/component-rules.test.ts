import { describe, expect, it } from 'vitest';
import { checkComponent, componentDepth, holdersOf, MAX_COMPONENT_DEPTH } from './component-rules.js';
import { edgesOf } from './edges.js';
import { normalizeFields } from './field-values.js';
import type { ComponentDefinition, FieldDefinition, ModelDefinition } from './model-types.js';

const field = (alias: string, type: FieldDefinition['type'], extra: Partial<FieldDefinition> = {}): FieldDefinition => ({ alias, type, valueType: 'single', allowedModels: [], required: false, ...extra });
const component = (alias: string, fields: FieldDefinition[]): ComponentDefinition => ({ id: alias, alias, name: alias, fields });
const holding = (alias: string, inner: string[]) => component(alias, [field('x', 'component', { components: inner })]);

describe('component nesting', () => {
  it('counts levels and finds cycles', () => {
    const graph = new Map([
      ['a', [field('t', 'text')]],
      ['b', holding('b', ['a']).fields],
      ['c', holding('c', ['b', 'a']).fields],
      ['loop', holding('loop', ['loop']).fields],
    ]);
    expect(componentDepth('a', graph)).toBe(1);
    expect(componentDepth('c', graph)).toBe(3);
    expect(componentDepth('loop', graph)).toBeNull();
  });

  it('names the models and components that hold one, directly or through others', () => {
    const components = [component('a', []), holding('b', ['a']), holding('c', ['b']), component('d', [])];
    const models: ModelDefinition[] = [
      { id: 'p', alias: 'page', name: 'Page', titleField: null, fields: [field('body', 'component', { components: ['c'] })] },
      { id: 'q', alias: 'post', name: 'Post', titleField: null, fields: [field('body', 'component', { components: ['d'] })] },
    ];
    expect(holdersOf('a', models, components)).toEqual({ models: ['page'], components: ['b', 'c'] });
    expect(holdersOf('d', models, components)).toEqual({ models: ['post'], components: [] });
  });

  it(`refuses a component nested deeper than ${MAX_COMPONENT_DEPTH} levels, and type changes under entries`, () => {
    const chain = ['l1', 'l2', 'l3', 'l4'].map((a, i, all) => (i === 0 ? component(a, [field('t', 'text')]) : holding(a, [all[i - 1]])));
    const deep = checkComponent('l5', { fields: [{ alias: 'x', type: 'component', components: ['l4'] }] }, { models: [], others: chain, previous: null, usedWithEntries: false });
    expect(deep).toEqual({ problems: [`fields: components nest at most ${MAX_COMPONENT_DEPTH} levels deep; "l5" would nest 5`] });
    const changed = checkComponent('l1', { fields: [{ alias: 't', type: 'number' }] }, { models: [], others: chain.slice(1), previous: chain[0], usedWithEntries: true });
    expect(changed).toEqual({ problems: ['field "t": type, valueType and numberFormat cannot change while entries hold the component'] });
    expect('component' in checkComponent('l1', { fields: [{ alias: 't', type: 'number' }] }, { models: [], others: chain.slice(1), previous: chain[0], usedWithEntries: false })).toBe(true);
  });
});

describe('component values', () => {
  const link = component('link', [field('label', 'text', { required: true }), field('to', 'reference', { allowedModels: ['page'] })]);
  const card = component('card', [field('title', 'text', { validations: [{ size: { max: 5 } }] }), field('links', 'component', { valueType: 'list', components: ['link'] }), field('pics', 'media', { valueType: 'list' })]);
  const model: ModelDefinition = {
    id: 'm',
    alias: 'page',
    name: 'Page',
    titleField: null,
    fields: [field('blocks', 'component', { valueType: 'list', components: ['card', 'link'], localized: true })],
    components: { link, card },
  };

  it('normalize nested values, naming the path of every problem', () => {
    const ok = normalizeFields(model, { blocks: [{ component: 'link', label: 'a' }, { component: 'card', title: 'b', links: [{ component: 'link', label: 'c', to: 'e1' }], pics: ['a1', 'a2'] }] });
    expect(ok.problems).toEqual([]);
    expect(ok.fields.blocks).toHaveLength(2);
    const bad = normalizeFields(model, { blocks: [{ component: 'card', title: 'too long', links: [{ component: 'link' }, { component: 'card' }] }, 7] });
    expect(bad.problems).toEqual([
      'fields.blocks[0].title: size: must be at most 5 characters long (is 8)',
      'fields.blocks[0].links[0].label: required',
      'fields.blocks[0].links[1].component: "card" is not allowed here (allowed: link)',
      'fields.blocks[1]: must be a component value {"component": "card" | "link", …its fields}',
    ]);
  });

  it('give their references and media as edges of the top-level field, with their paths and allowed models', () => {
    const { fields } = normalizeFields(model, { blocks: [{ component: 'card', links: [{ component: 'link', label: 'c', to: 'e1' }], pics: ['a1'] }] });
    expect(edgesOf(model, fields, { 'de-DE': { blocks: [{ component: 'link', label: 'd', to: 'e2' }] } })).toEqual([
      { field: 'blocks', kind: 'reference', targetId: 'e1', position: 0, at: 'fields.blocks[0].links[0].to', allowedModels: ['page'] },
      { field: 'blocks', kind: 'media', targetId: 'a1', position: 1, at: 'fields.blocks[0].pics[0]', allowedModels: [] },
      { field: 'blocks', kind: 'reference', targetId: 'e2', position: 2, at: 'locales.de-DE.blocks[0].to', allowedModels: ['page'] },
    ]);
  });
});
