import { GraphQLNonNull, GraphQLString, type GraphQLFieldConfigArgumentMap, type GraphQLFieldConfigMap, type GraphQLResolveInfo } from 'graphql';
import { badRequest, forbidden } from '../../errors/index.js';
import { createDeliveryContext, type DeliveryContext } from '../delivery-context.js';
import { whileAdmitted, type EntryChange } from '../live-changes.js';
import { pageArgsConfig } from './collection.js';
import { CmsEntry, CmsEntryCollection } from './entry-interface.js';
import { entryById, entryCollection } from './entry-collections.js';

/** What a subscription resolver is handed per change: the change, read anew (see `fresh`). */
type Change = EntryChange;

/**
 * The org's changes that `wanted` takes, while the caller's token admits it. Live updates are
 * for previewing drafts: refused to delivery tokens and publishable keys.
 */
async function changesOf(ctx: DeliveryContext, wanted: (change: EntryChange) => boolean): Promise<AsyncIterableIterator<EntryChange>> {
  if (ctx.scope !== 'preview') throw forbidden('Subscriptions need a token of the preview scope (a preview link gives one).');
  if (!ctx.live) throw new Error('live changes are not wired into this server');
  return whileAdmitted(await ctx.live.changes.subscribe(ctx.orgId, wanted), ctx.live.stillAdmitted);
}

/**
 * Each change is a new read: the subscription's one context keeps its loaders (per-request
 * caches) and read set for its whole life, so they are replaced before every answer, which the
 * nested resolvers then read through. Answers of one subscription are made one after another.
 */
function fresh(ctx: DeliveryContext): DeliveryContext {
  const next = createDeliveryContext({ db: ctx.db, orgId: ctx.orgId, scope: ctx.scope, models: ctx.models, signing: ctx.signing, publicBaseUrl: ctx.publicBaseUrl, traffic: ctx.traffic, imageLimits: ctx.imageLimits, imageWatermark: ctx.imageWatermark, live: ctx.live });
  ctx.loaders = next.loaders;
  ctx.reads = next.reads;
  ctx.locale = next.locale;
  return ctx;
}

/**
 * The root `Subscription` fields (over server-sent events: `Accept: text/event-stream`): an
 * entry, or a model's first entries, answered again after every committed change of it.
 */
export function subscriptionFields(locale: GraphQLFieldConfigArgumentMap): GraphQLFieldConfigMap<Change, DeliveryContext> {
  return {
    entryChanged: {
      type: CmsEntry,
      description:
        'Preview tokens: the entry as this token reads it, sent after each committed change of it (saved, published, unpublished, archived, deleted, imported) from any API instance; null once this token cannot read it (deleted). Select model fields with inline fragments.',
      args: { id: { type: new GraphQLNonNull(GraphQLString) }, ...locale },
      subscribe: (_root: unknown, a: { id: string }, ctx: DeliveryContext) => changesOf(ctx, (c) => c.entryId === a.id),
      resolve: (_change: Change, a: { id: string }, ctx: DeliveryContext, info: GraphQLResolveInfo) => entryById(fresh(ctx), a.id, null, info),
    },
    collectionChanged: {
      type: CmsEntryCollection,
      description: "Preview tokens: the model's entries (in the collection's default order, paged by `limit` and `offset`), sent again after each committed change of one of them.",
      args: { model: { type: new GraphQLNonNull(GraphQLString) }, ...pageArgsConfig, ...locale },
      subscribe: (_root: unknown, a: { model: string }, ctx: DeliveryContext) => {
        if (ctx.scope === 'preview' && !ctx.models.byAlias.has(a.model)) throw badRequest(`Unknown model "${a.model}".`);
        return changesOf(ctx, (c) => c.model === a.model);
      },
      resolve: (_change: Change, a: { model: string; limit?: number | null; offset?: number | null; locale?: string | null }, ctx: DeliveryContext, info: GraphQLResolveInfo) =>
        entryCollection(fresh(ctx), ctx.models.byAlias.get(a.model)!, 'collectionChanged', { limit: a.limit, offset: a.offset, locale: a.locale }, info),
    },
  };
}
