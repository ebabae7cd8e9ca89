import { MapperKind, mapSchema } from '@graphql-tools/utils';
import {
  defaultFieldResolver,
  getNamedType,
  GraphQLNonNull,
  GraphQLObjectType,
  GraphQLString,
  isLeafType,
  type GraphQLFieldConfig,
  type GraphQLFieldResolver,
  type GraphQLSchema,
} from 'graphql';
import type { OrgLocales } from '../../content/locale-types.js';
import type { DeliveryContext } from '../delivery-context.js';

/** `locale` on the root entry fields of an organization with locales. */
export const localeArg = (locales: OrgLocales) => ({
  type: GraphQLString,
  description: `Read the entries (and everything below them) in this locale: ${locales.codes.join(', ')}. A localized field without a value in it falls back along the locale's chain, then to the default (${locales.defaultCode}), which is also what no locale reads. Filters and order use the same values.`,
});

type Resolver = GraphQLFieldResolver<unknown, DeliveryContext, Record<string, unknown>>;

/**
 * A field that returns entries or what holds them, made to carry the locale down: the locale
 * comes from its own `locale` argument or else from the value it resolves on; what it returns is
 * marked with it (entries become views in that locale), and a field that filters or orders is
 * given it as `locale` so its SQL compares the values of that locale.
 */
function carryLocale(config: GraphQLFieldConfig<unknown, DeliveryContext>): Resolver {
  const resolve = (config.resolve ?? defaultFieldResolver) as Resolver;
  const ownArg = !!config.args?.locale;
  const compares = !!(config.args?.where || config.args?.order);
  return (source, args, ctx, info) => {
    const asked = ownArg && typeof args.locale === 'string' ? args.locale : null;
    const scope = asked !== null ? ctx.locale.scope(asked) : ctx.locale.of(source);
    if (!scope) return resolve(source, args, ctx, info);
    const out = resolve(source, compares && !ownArg ? { ...args, locale: scope.code } : args, ctx, info);
    return out instanceof Promise ? out.then((v) => ctx.locale.mark(v, scope)) : ctx.locale.mark(out, scope);
  };
}

/**
 * The schema of an organization with locales: every field returning entries (or objects on the
 * way to them) carries the locale down, and `system.locale` says which locale an entry was read
 * in. An organization without locales never gets here: its schema is unchanged.
 */
export function withLocales(schema: GraphQLSchema, locales: OrgLocales): GraphQLSchema {
  return mapSchema(schema, {
    [MapperKind.OBJECT_TYPE]: (type) => {
      if (type.name !== 'CmsSystem') return type;
      const config = type.toConfig();
      return new GraphQLObjectType({
        ...config,
        fields: {
          ...config.fields,
          locale: {
            type: new GraphQLNonNull(GraphQLString),
            description: `The locale the entry was read in: the one asked for, or the default (${locales.defaultCode}).`,
            resolve: (row: unknown, _a: unknown, ctx: DeliveryContext) => ctx.locale.of(row)?.code ?? locales.defaultCode,
          },
        },
      });
    },
    [MapperKind.OBJECT_FIELD]: (config) => (isLeafType(getNamedType(config.type)) ? config : { ...config, resolve: carryLocale(config as GraphQLFieldConfig<unknown, DeliveryContext>) }),
  });
}
