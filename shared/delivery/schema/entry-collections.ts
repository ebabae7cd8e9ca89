import type { ModelDefinition } from '../../content/model-types.js';
import { decodeContinuationToken, encodeContinuationToken, type TokenBinding } from '../continuation-token.js';
import type { DeliveryContext } from '../delivery-context.js';
import type { Input } from '../entry-query.js';
import { countEntries, findEntryPage, keyValues } from '../entry-repository.js';
import type { EntryRow } from '../entry-row.js';
import { compileOrder } from '../order-sql.js';
import type { GraphQLResolveInfo } from 'graphql';
import { collectionOf, pageOf, type CollectionValue } from './collection.js';
import { selects } from './selection.js';

export interface CollectionArgs {
  offset?: number | null;
  limit?: number | null;
  where?: Input | null;
  order?: Input | null;
  continuationToken?: string | null;
}

/**
 * A root collection (`<alias>Collection`, `entryCollection`): one statement for the page, one
 * for `total` only when selected. Tokens (DESIGN §4): offset 0 without a token gets one when more
 * items exist; a token request gets the next page and the next token (null at the end); an
 * offset > 0 gets none.
 */
export async function entryCollection(
  ctx: DeliveryContext,
  model: ModelDefinition | null,
  collection: string,
  args: CollectionArgs,
  info?: GraphQLResolveInfo,
): Promise<CollectionValue<EntryRow>> {
  const page = pageOf(args);
  const keyCount = compileOrder(model, args.order).length; // order errors before any SQL
  const binding: TokenBinding = { orgId: ctx.orgId, collection, scope: ctx.scope, where: args.where ?? null, order: args.order ?? null };
  const after = args.continuationToken ? decodeContinuationToken(ctx.signing, binding, args.continuationToken, keyCount) : null;
  const q = { orgId: ctx.orgId, scope: ctx.scope, models: ctx.models.byAlias, model, where: args.where, order: args.order };
  // `total` runs alongside the page when it is selected (two statements in parallel, not in turn).
  const total = info && selects(info, 'total') ? countEntries(ctx.db, q) : null;
  total?.catch(() => {}); // a failure surfaces when the field resolves
  const result = await findEntryPage(ctx.db, q, { ...page, after });
  const last = result.rows[result.rows.length - 1];
  const wantsToken = after !== null || page.offset === 0;
  const token = wantsToken && result.hasMore && last ? encodeContinuationToken(ctx.signing, binding, keyValues(last, result.keyCount)) : null;
  return collectionOf(result.rows, { offset: after ? 0 : page.offset, limit: page.limit }, () => total ?? countEntries(ctx.db, q), token);
}

/** `<alias>(id)` and `entry(id)`: visible entry of the org, optionally of one model; else null. */
export async function entryById(ctx: DeliveryContext, id: string | null | undefined, model: ModelDefinition | null): Promise<EntryRow | null> {
  if (!id) return null;
  const row = await ctx.loaders.entry.load(id);
  if (!row || (model && row.model_alias !== model.alias)) return null;
  return row;
}

