import { GraphQLBoolean, GraphQLFloat, GraphQLInt, GraphQLNonNull, GraphQLObjectType, type GraphQLFieldConfig } from 'graphql';
import { badRequest, forbidden } from '../../errors/index.js';
import type { DeliveryContext } from '../delivery-context.js';
import type { DeliveredEntryRow } from '../entry-row.js';
import { DateTimeScalar } from './scalars.js';

/** The longest window `system.traffic` reads (the raw logs' retention is longer than analytics need here). */
const MAX_WINDOW_DAYS = 400;

export const CmsTraffic = new GraphQLObjectType({
  name: 'CmsTraffic',
  description: "The entry's traffic through the organization's CDN distributions, from the access logs pushed to Folio.",
  fields: {
    requests: { type: new GraphQLNonNull(GraphQLInt), description: "Requests of the entry's pages (paths a site's URL patterns name it by)." },
    visitors: { type: new GraphQLNonNull(GraphQLInt), description: 'Unique visitors: distinct per UTC day and distribution.' },
    bytes: { type: new GraphQLNonNull(GraphQLFloat), description: 'Bytes served for those requests.' },
  },
});

interface TrafficArgs {
  from: Date;
  to: Date;
  excludeBots: boolean;
}

/** The analytics scope is asked for when traffic is read, not when the schema is built: one schema serves every token. */
export function requireTraffic(ctx: DeliveryContext, what: string) {
  if (!ctx.traffic) throw forbidden(`${what} needs a token with the analytics scope as well.`);
  ctx.reads.traffic = true;
  return ctx.traffic;
}

/** `system.traffic(from, to, excludeBots)`: batched per request, one ClickHouse statement for every entry asking the same window. */
export const systemTrafficField: GraphQLFieldConfig<DeliveredEntryRow, DeliveryContext, TrafficArgs> = {
  type: new GraphQLNonNull(CmsTraffic),
  description: `Requests, visitors and bytes of the entry from \`from\` (inclusive) to \`to\` (exclusive), at most ${MAX_WINDOW_DAYS} days; bots are left out unless excludeBots is false. Needs a token with the analytics scope besides delivery or preview.`,
  args: {
    from: { type: new GraphQLNonNull(DateTimeScalar) },
    to: { type: new GraphQLNonNull(DateTimeScalar) },
    excludeBots: { type: new GraphQLNonNull(GraphQLBoolean), defaultValue: true },
  },
  resolve: async (row, args, ctx) => {
    const reader = requireTraffic(ctx, 'system.traffic');
    const fromMs = args.from.getTime();
    const toMs = args.to.getTime();
    if (fromMs >= toMs) throw badRequest('system.traffic: from must be earlier than to.');
    if (toMs - fromMs > MAX_WINDOW_DAYS * 86_400_000) throw badRequest(`system.traffic: a window of at most ${MAX_WINDOW_DAYS} days.`);
    if (fromMs < 0) throw badRequest('system.traffic: from must lie after 1970-01-01.');
    const loader = ctx.loaders.keyed<string, { requests: number; visitors: number; bytes: number }>(`traffic:${fromMs}:${toMs}:${args.excludeBots}`, async (ids) => {
      const figures = await reader.of(ctx.orgId, ids, { fromMs, toMs, excludeBots: args.excludeBots });
      return ids.map((id) => figures.get(id) ?? { requests: 0, visitors: 0, bytes: 0 });
    });
    return loader.load(row.id);
  },
};
