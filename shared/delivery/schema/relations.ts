import { GraphQLInt, GraphQLInterfaceType, GraphQLObjectType, type GraphQLFieldConfigMap, type GraphQLInputObjectType } from 'graphql';
import { typeNameOf, type ModelDefinition } from '../../content/model-types.js';
import type { DeliveryContext } from '../delivery-context.js';
import type { Input } from '../entry-query.js';
import { countEntries, findEntryPage, REFERENCE_KINDS } from '../entry-repository.js';
import type { DeliveredEntryRow } from '../entry-row.js';
import { compileOrder } from '../order-sql.js';
import { entriesPointingAt } from '../relation-loads.js';
import { collectionOf, pageArgsConfig, pageOf, type CollectionValue, type PageArgs } from './collection.js';
import { CmsEntryCollection } from './entry-interface.js';
import { CmsEntryOrder } from './inputs.js';
import type { ModelTypeRegistry } from './model-fields.js';

interface RelationArgs extends PageArgs {
  where?: Input | null;
  order?: Input | null;
  /** Given by the field's locale (see `withLocales`): filters and order compare its values. */
  locale?: string;
}

export function entryRelationsInterface(entryFilter: GraphQLInputObjectType): GraphQLInterfaceType {
  return new GraphQLInterfaceType({
    name: 'EntryRelations',
    fields: {
      entryCollection: { type: CmsEntryCollection, args: { ...pageArgsConfig, where: { type: entryFilter }, order: { type: CmsEntryOrder } } },
    },
  });
}

/** Models with a reference field that may point at `alias` (empty allowedModels = any model). */
export const referrersOf = (alias: string, models: ModelDefinition[]) =>
  models.filter((m) => m.fields.some((f) => f.type === 'reference' && (f.allowedModels.length === 0 || f.allowedModels.includes(alias))));

const SYSTEM_DATE_KEYS = new Set(['system.createdAt', 'system.updatedAt', 'system.publishedAt', 'system.firstPublishedAt', 'system.unpublishedAt']);
const SYSTEM_COLUMN: Record<string, keyof DeliveredEntryRow> = {
  'system.createdAt': 'created_at',
  'system.updatedAt': 'updated_at',
  'system.publishedAt': 'published_at',
  'system.firstPublishedAt': 'first_published_at',
  'system.unpublishedAt': 'unpublished_at',
};

/**
 * `next<Type>EntryCollection`: the order must be ONE number or datetime key; ASC
 * gives entries whose value is greater than this entry's, ascending; DESC smaller, descending.
 * Any other order resolves to null, as specified.
 */
export async function nextEntries(ctx: DeliveryContext, model: ModelDefinition, row: DeliveredEntryRow, args: RelationArgs): Promise<CollectionValue<DeliveredEntryRow> | null> {
  const page = { offset: 0, limit: pageOf({ limit: args.limit }).limit };
  const locale = args.locale ? ctx.locale.scope(args.locale).chain : null;
  const keys = compileOrder(model, args.order, 'e', locale).filter((k) => k.name !== 'id');
  if (keys.length !== 1) return null;
  const key = keys[0];
  let value: unknown;
  if (SYSTEM_DATE_KEYS.has(key.name)) value = row[SYSTEM_COLUMN[key.name]];
  else {
    const f = model.fields.find((x) => x.alias === key.name);
    if (!f || (f.type !== 'number' && f.type !== 'datetime')) return null;
    value = row.fields?.[f.alias] ?? null;
  }
  if (value === null || value === undefined) return collectionOf([], page, () => 0);
  const q = {
    orgId: ctx.orgId,
    scope: ctx.scope,
    models: ctx.models.byAlias,
    model,
    where: args.where,
    order: args.order,
    locale,
    // System timestamps are compared with the stored value itself (microseconds; a JS Date
    // keeps milliseconds); field values are exact as loaded.
    restrict: (env: { params: { add(v: unknown): string } }) => {
      const pivot = SYSTEM_DATE_KEYS.has(key.name)
        ? `(SELECT s.${String(SYSTEM_COLUMN[key.name])} FROM entries s WHERE s.row_id = ${env.params.add(row.row_id)})`
        : `${env.params.add(value)}::${key.cast}`;
      return `${key.expr} ${key.dir === 'ASC' ? '>' : '<'} ${pivot} AND e.id <> ${env.params.add(row.id)}`;
    },
  };
  ctx.reads.collection(model?.alias ?? null);
  const result = await findEntryPage(ctx.db, q, { ...page, keys: false });
  return collectionOf(result.rows, page, () => countEntries(ctx.db, q));
}

export function relationsType(
  model: ModelDefinition,
  all: ModelDefinition[],
  reg: ModelTypeRegistry & { filter(alias: string): GraphQLInputObjectType; order(alias: string): GraphQLInputObjectType },
  iface: GraphQLInterfaceType,
  entryFilter: GraphQLInputObjectType,
): GraphQLObjectType {
  const type = typeNameOf(model.alias);
  return new GraphQLObjectType<DeliveredEntryRow, DeliveryContext>({
    name: `${type}Relations`,
    interfaces: [iface],
    description: `Entries that reference this ${type}.`,
    fields: () => {
      const fields: GraphQLFieldConfigMap<DeliveredEntryRow, DeliveryContext> = {
        entryCollection: {
          type: CmsEntryCollection,
          description: 'Every entry that references this one, whatever its model or field.',
          args: { ...pageArgsConfig, where: { type: entryFilter }, order: { type: CmsEntryOrder } },
          resolve: (row, args: RelationArgs, ctx, info) =>
            entriesPointingAt(ctx, row.id, { kinds: REFERENCE_KINDS, model: null, where: args.where, order: args.order, locale: args.locale }, pageOf(args), info),
        },
      };
      for (const m of referrersOf(model.alias, all)) {
        fields[`${m.alias}Collection`] = {
          type: reg.collection(m.alias),
          args: { ...pageArgsConfig, where: { type: reg.filter(m.alias) }, order: { type: reg.order(m.alias) } },
          resolve: (row, args: RelationArgs, ctx, info) =>
            entriesPointingAt(ctx, row.id, { kinds: REFERENCE_KINDS, model: m, where: args.where, order: args.order, locale: args.locale }, pageOf(args), info),
        };
      }
      fields[`next${type}EntryCollection`] = {
        type: reg.collection(model.alias),
        description: 'Entries of this model after this one in the given order (one number or datetime key); null for any other order.',
        args: { limit: { type: GraphQLInt }, order: { type: reg.order(model.alias) }, where: { type: reg.filter(model.alias) } },
        resolve: (row, args: RelationArgs, ctx) => nextEntries(ctx, model, row, args),
      };
      return fields;
    },
  });
}
