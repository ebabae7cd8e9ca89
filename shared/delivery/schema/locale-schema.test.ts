import { readFileSync } from 'node:fs';
import { buildSchema, isInputObjectType, isInterfaceType, isObjectType, printSchema, type GraphQLSchema } from 'graphql';
import { describe, expect, it } from 'vitest';
import { orgLocales } from '../../content/locale-types.js';
import { checkModel } from '../../content/model-rules.js';
import type { ModelDefinition } from '../../content/model-types.js';
import { DEMO_MODELS } from '../../demo/demo-content.js';
import { buildDeliverySchema } from './build-schema.js';

/** The demo's models as stored; `localize` marks these fields localized. */
function demoModels(localize: string[] = []): ModelDefinition[] {
  const models: ModelDefinition[] = [];
  for (const [alias, input] of DEMO_MODELS) {
    const fields = input.fields.map((f) => (localize.includes(`${alias}.${f.alias}`) ? { ...f, localized: true } : f));
    const r = checkModel(alias, { ...input, fields }, { others: models, previous: null, hasEntries: false });
    if ('problems' in r) throw new Error(r.problems.join('; '));
    models.push({ id: `m-${alias}`, alias, ...r.model });
  }
  return models;
}

// printed from the code before locales existed (commit 0c1c1f3), for the demo's models
const BEFORE = readFileSync(new URL('./fixtures/demo-schema.graphql', import.meta.url), 'utf8');

const locales = orgLocales([
  { code: 'en-US', name: 'English', default: true, fallback: null, createdAt: '', updatedAt: '' },
  { code: 'de-DE', name: 'Deutsch', default: false, fallback: null, createdAt: '', updatedAt: '' },
]);

/** Every type, field and argument of a schema, with its type. */
function members(schema: GraphQLSchema): Set<string> {
  const out = new Set<string>();
  for (const t of Object.values(schema.getTypeMap())) {
    out.add(t.name);
    if (!isObjectType(t) && !isInterfaceType(t) && !isInputObjectType(t)) continue;
    for (const f of Object.values(t.getFields())) {
      out.add(`${t.name}.${f.name}: ${String(f.type)}`);
      for (const a of 'args' in f ? f.args : []) out.add(`${t.name}.${f.name}(${a.name}: ${String(a.type)})`);
    }
  }
  return out;
}

describe('the schema of an organization', () => {
  it('without locales is the one it had before locales existed, but for the traffic and search members added since', () => {
    const now = members(buildDeliverySchema(demoModels()));
    const before = members(buildSchema(BEFORE));
    expect([...before].filter((m) => !now.has(m))).toEqual([]);
    expect([...now].filter((m) => !before.has(m)).sort()).toEqual(
      [
        'CmsSystem.traffic: CmsTraffic!',
        'CmsSystem.traffic(from: DateTime!)',
        'CmsSystem.traffic(to: DateTime!)',
        'CmsSystem.traffic(excludeBots: Boolean!)',
        'CmsSystemOrder.traffic: CmsOrderDirection',
        'CmsTraffic',
        'CmsTraffic.requests: Int!',
        'CmsTraffic.visitors: Int!',
        'CmsTraffic.bytes: Float!',
        'CmsSystemOrder.relevance: CmsOrderDirection',
        'Query.articleCollection(search: String)',
        'Query.categoryCollection(search: String)',
        'Query.entryCollection(search: String)',
        'Query.eventCollection(search: String)',
        'Subscription',
        'Subscription.entryChanged: CmsEntry',
        'Subscription.entryChanged(id: String!)',
        'Subscription.collectionChanged: CmsEntryCollection',
        'Subscription.collectionChanged(model: String!)',
        'Subscription.collectionChanged(offset: Int)',
        'Subscription.collectionChanged(limit: Int)',
      ].sort(),
    );
    // every description as it was
    const described = (schema: GraphQLSchema) =>
      Object.values(schema.getTypeMap())
        .filter((t) => t.name !== 'CmsTraffic' && t.name !== 'Subscription')
        .flatMap((t) => [
          `${t.name}: ${t.description ?? ''}`,
          ...(isObjectType(t) || isInterfaceType(t) || isInputObjectType(t)
            ? Object.values(t.getFields()).filter((f) => f.name !== 'traffic' && f.name !== 'relevance').map((f) => `${t.name}.${f.name}: ${f.description ?? ''}`)
            : []),
        ])
        .sort();
    expect(described(buildDeliverySchema(demoModels()))).toEqual(described(buildSchema(BEFORE)));
  });

  it('without locales is unchanged by fields marked localized', () => {
    expect(printSchema(buildDeliverySchema(demoModels(['article.title', 'article.lead', 'event.price'])))).toBe(printSchema(buildDeliverySchema(demoModels())));
  });

  it('with locales differs only by the locale argument of the root entry fields and system.locale', () => {
    const added = [...members(buildDeliverySchema(demoModels(['article.title']), locales))].filter((m) => !members(buildDeliverySchema(demoModels())).has(m));
    expect(added.sort()).toEqual(
      [
        'CmsSystem.locale: String!',
        ...['article', 'articleCollection', 'category', 'categoryCollection', 'entry', 'entryCollection', 'event', 'eventCollection'].map((f) => `Query.${f}(locale: String)`),
        'Subscription.entryChanged(locale: String)',
        'Subscription.collectionChanged(locale: String)',
      ].sort(),
    );
  });
});
