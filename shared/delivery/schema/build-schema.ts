import { GraphQLObjectType, GraphQLSchema, GraphQLString, type GraphQLFieldConfigArgumentMap, type GraphQLFieldConfigMap, type GraphQLInputObjectType } from 'graphql';
import type { OrgLocales } from '../../content/locale-types.js';
import { typeNameOf, type ModelDefinition } from '../../content/model-types.js';
import type { DeliveryContext } from '../delivery-context.js';
import type { DeliveredEntryRow } from '../entry-row.js';
import { CmsAsset, CmsMedia, MediaType } from './asset-types.js';
import { cmsRootFields } from './cms-roots.js';
import { ComponentTypes } from './component-types.js';
import { collectionType, pageArgsConfig } from './collection.js';
import { CmsEntry, CmsEntryCollection, entryBaseFields } from './entry-interface.js';
import { entryCollection, entryById, type CollectionArgs } from './entry-collections.js';
import { CmsEntryOrder } from './inputs.js';
import { modelFieldConfigs, type ModelTypeRegistry } from './model-fields.js';
import { entryFilterType, modelFilterType, modelOrderType } from './model-inputs.js';
import { localeArg, withLocales } from './localized-schema.js';
import { entryRelationsInterface, relationsType } from './relations.js';
import { subscriptionFields } from './subscriptions.js';
import type { EntryChange } from '../live-changes.js';
import { DateTimeScalar, DecimalScalar, JsonScalar, LongScalar } from './scalars.js';

/** The specification's rule for the two ways to page, said where clients read it. */
const CONTINUATION_TOKEN_ARG = {
  type: GraphQLString,
  description: 'The `continuationToken` of the previous page. When given, `offset` is ignored (the token says where the page starts); `limit` still applies.',
};

/** Full-text search of a root collection. */
const SEARCH_ARG = {
  type: GraphQLString,
  description:
    "Words to find in the entries' text fields (text, richtext, tag, and those inside components) as read in `locale` (else the default locale), stemmed for its language where Postgres knows it (`en-…` english, `de-…` german, …; otherwise words as they are). Web-search syntax: words must all match, `\"a phrase\"`, `or`, `-word`. Combines with `where` and paging; without `order`, the most relevant first (`order: {system: {relevance: DESC}}`).",
};

/**
 * The organization's schema, generated from its models: per model `<Type>`,
 * `<Type>Collection`, `<Type>Filter`, `<Type>Order`, `<Type>Relations` and the root fields
 * `<alias>(id)` / `<alias>Collection(...)`; plus the generic `entry` / `entryCollection` and
 * the built-in `cms…` roots; per component (read from the models that use components) an object
 * type, and unions for fields that allow several. Pure: no I/O.
 */
export function buildDeliverySchema(models: ModelDefinition[], locales: OrgLocales | null = null): GraphQLSchema {
  // an organization without locales gets the schema it had before locales existed
  const locale: GraphQLFieldConfigArgumentMap = locales ? { locale: localeArg(locales) } : {};
  const byAlias = new Map(models.map((m) => [m.alias, m]));
  const objects = new Map<string, GraphQLObjectType>();
  const collections = new Map<string, GraphQLObjectType>();
  const filters = new Map(models.map((m) => [m.alias, modelFilterType(m)]));
  const orders = new Map(models.map((m) => [m.alias, modelOrderType(m)]));
  const filterOf = (alias: string) => filters.get(alias) as GraphQLInputObjectType;
  const orderOf = (alias: string) => orders.get(alias) as GraphQLInputObjectType;
  const entryFilter = entryFilterType(models, filterOf);
  const relationsIface = entryRelationsInterface(entryFilter);

  // every model with component fields carries the org's components (see model-repository.ts)
  const componentDefs = new Map(models.flatMap((m) => Object.values(m.components ?? {})).map((c) => [c.alias, c]));
  const components = new ComponentTypes(componentDefs, () => reg);
  const reg: ModelTypeRegistry & { filter: typeof filterOf; order: typeof orderOf } = {
    models: byAlias,
    object: (alias) => objects.get(alias) as GraphQLObjectType,
    collection: (alias) => collections.get(alias) as GraphQLObjectType,
    componentType: (owner, f) => components.fieldType(owner, f),
    filter: filterOf,
    order: orderOf,
  };

  for (const m of models) {
    const type = typeNameOf(m.alias);
    const relations = relationsType(m, models, reg, relationsIface, entryFilter);
    objects.set(
      m.alias,
      new GraphQLObjectType<DeliveredEntryRow, DeliveryContext>({
        name: type,
        interfaces: [CmsEntry],
        description: m.name,
        isTypeOf: (row: DeliveredEntryRow) => row.model_alias === m.alias,
        fields: () => ({
          ...entryBaseFields(),
          ...modelFieldConfigs(m, reg),
          relations: { type: relations, resolve: (row: DeliveredEntryRow) => row },
        }),
      }),
    );
    collections.set(m.alias, collectionType(`${type}Collection`, () => reg.object(m.alias)));
  }

  const query = new GraphQLObjectType<unknown, DeliveryContext>({
    name: 'Query',
    fields: () => {
      const fields: GraphQLFieldConfigMap<unknown, DeliveryContext> = {};
      for (const m of models) {
        fields[m.alias] = {
          type: reg.object(m.alias),
          args: { id: { type: GraphQLString }, ...locale },
          resolve: (_r, a: { id?: string | null }, ctx, info) => entryById(ctx, a.id, m, info),
        };
        fields[`${m.alias}Collection`] = {
          type: reg.collection(m.alias),
          args: { ...pageArgsConfig, where: { type: filterOf(m.alias) }, order: { type: orderOf(m.alias) }, continuationToken: CONTINUATION_TOKEN_ARG, search: SEARCH_ARG, ...locale },
          resolve: (_r, a: CollectionArgs, ctx, info) => entryCollection(ctx, m, `${m.alias}Collection`, a, info),
        };
      }
      fields.entry = {
        type: CmsEntry,
        description: 'Any entry by id; select model fields with inline fragments.',
        args: { id: { type: GraphQLString }, ...locale },
        resolve: (_r, a: { id?: string | null }, ctx) => entryById(ctx, a.id, null),
      };
      fields.entryCollection = {
        type: CmsEntryCollection,
        description: 'Entries of every model; select model fields with inline fragments.',
        args: { ...pageArgsConfig, where: { type: entryFilter }, order: { type: CmsEntryOrder }, continuationToken: CONTINUATION_TOKEN_ARG, search: SEARCH_ARG, ...locale },
        resolve: (_r, a: CollectionArgs, ctx, info) => entryCollection(ctx, null, 'entryCollection', a, info),
      };
      return { ...fields, ...cmsRootFields() };
    },
  });

  const subscription = new GraphQLObjectType<EntryChange, DeliveryContext>({ name: 'Subscription', fields: () => subscriptionFields(locale) });

  const schema = new GraphQLSchema({
    query,
    subscription,
    types: [...objects.values(), ...[...componentDefs.keys()].map((a) => components.object(a)), DateTimeScalar, JsonScalar, DecimalScalar, LongScalar, CmsAsset, CmsMedia, MediaType, relationsIface],
  });
  return locales ? withLocales(schema, locales) : schema;
}
