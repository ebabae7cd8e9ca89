import { describe, expect, it } from 'vitest';
import type { ModelDefinition } from '../../shared/content/model-types.js';
import { GraphQLError, parse } from 'graphql';
import { buildDeliverySchema } from '../../shared/delivery/schema/build-schema.js';
import { queryCost } from './query-cost.js';

const models: ModelDefinition[] = [
  {
    id: '1',
    alias: 'post',
    name: 'Post',
    titleField: null,
    fields: [{ alias: 'links', type: 'reference', valueType: 'list', allowedModels: [], required: false }],
  },
];
const schema = buildDeliverySchema(models);
const cost = (q: string, v?: Record<string, unknown>) => queryCost(schema, parse(q), v);

describe('queryCost', () => {
  it('charges limit × (1 + nested collections); other fields cost nothing', () => {
    expect(cost('{ post(id: "x") { id } }')).toBe(0);
    expect(cost('{ postCollection(order: {id: ASC, thenBy: [{system: {title: DESC}}]}) { total } }')).toBe(20);
    expect(cost('{ postCollection { total } }')).toBe(20);
    expect(cost('{ postCollection(limit: 10) { items { links(limit: 5) { total } } } }')).toBe(60);
    expect(cost('{ a: postCollection(limit: 2) { total } b: entryCollection(limit: 3) { total } }')).toBe(5);
    expect(cost('query($l: Int) { postCollection(limit: $l) { items { relations { postCollection(limit: 4) { total } } } } }', { l: 7 })).toBe(7 * 5);
  });

  it('charges an image URL with a transformation 1 + its megapixels, times the collections around it', () => {
    expect(cost('{ cmsAssetCollection(limit: 10) { items { url } } }')).toBe(10);
    expect(cost('{ cmsAssetCollection(limit: 10) { items { url(transformation: { width: 400, height: 300 }) } } }')).toBe(10 * 2);
    expect(cost('{ cmsAssetCollection(limit: 10) { items { url(transformation: { preset: "card" }) } } }')).toBe(10 * 2);
    // 8192 × 8192 = 67 MP: 68 per URL, so a page of 500 is far over the 10,000 limit
    expect(cost('query($t: CmsAssetTransformation) { cmsAssetCollection(limit: 500) { items { url(transformation: $t) } } }', { t: { width: 8192, height: 8192 } })).toBe(500 * 69);
    expect(cost('{ cmsAsset(id: "a") { url(transformation: { width: 4000 }) } }')).toBe(17);
    // dpr multiplies the size: 2000×2 wide, a square of it
    expect(cost('{ cmsAsset(id: "a") { url(transformation: { width: 2000, dpr: 2 }) } }')).toBe(17);
    // srcSet: each width as an image URL of its size (heights keep the asked shape)
    expect(cost('{ cmsAsset(id: "a") { srcSet(widths: [400, 4000]) } }')).toBe(1 + 17);
    expect(cost('{ cmsAssetCollection(limit: 10) { items { srcSet(widths: [1000, 2000], transformation: { width: 1000, height: 500 }) } } }')).toBe(10 * (1 + 1 + 3));
  });

  it('follows fragments and inline fragments', () => {
    expect(cost('{ entryCollection(limit: 2) { items { ... on Post { links(limit: 3) { total } } } } }')).toBe(2 * 4);
    expect(cost('fragment F on Post { links(limit: 3) { total } } { postCollection(limit: 2) { items { ...F } } }')).toBe(2 * 4);
  });

  it('refuses limits above 500, negative offsets and two keys in one order object as BAD_USER_INPUT', () => {
    for (const q of [
      '{ postCollection(order: {id: ASC, system: {title: ASC}}) { total } }',
      '{ postCollection(order: {system: {title: ASC, slug: DESC}}) { total } }',
      '{ entryCollection(order: {id: ASC, thenBy: [{id: DESC}, {id: ASC, system: {slug: ASC}}]}) { total } }','{ postCollection(limit: 501) { total } }', '{ postCollection(offset: -1) { total } }', '{ post(id: "x") { links(limit: 9999) { total } } }']) {
      expect(() => cost(q)).toThrow(GraphQLError);
      try {
        cost(q);
      } catch (e) {
        expect((e as GraphQLError).extensions.code).toBe('BAD_USER_INPUT');
      }
    }
  });
});
