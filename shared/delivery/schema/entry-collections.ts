import type { ModelDefinition } from '../../content/model-types.js';
import { decodeContinuationToken, encodeContinuationToken, type TokenBinding } from '../continuation-token.js';
import type { DeliveryContext } from '../delivery-context.js';
import type { Input } from '../entry-query.js';
import { countEntries, findEntriesWithReferences, findEntryPage, keyValues } from '../entry-repository.js';
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
  const token = () => (wantsToken && result.hasMore && last ? encodeContinuationToken(ctx.signing, binding, keyValues(last, result.keyCount)) : null);
  return collectionOf(result.rows, { offset: after ? 0 : page.offset, limit: page.limit }, () => total ?? countEntries(ctx.db, q), token);
}

/**
 * `<alias>(id)` and `entry(id)`: visible entry of the org, optionally of one model; else null.
 * When the selection asks for single-reference fields of the model, their targets are read in
 * the same statement and handed to the entry loader, where the reference resolvers find them.
 */
export async function entryById(
  ctx: DeliveryContext,
  id: string | null | undefined,
  model: ModelDefinition | null,
  info?: GraphQLResolveInfo,
): Promise<EntryRow | null> {
  if (!id) return null;
  const refs = model && info ? model.fields.filter((f) => f.type === 'reference' && f.valueType !== 'list' && selects(info, f.alias)).map((f) => f.alias) : [];
  const loader = refs.length === 0 ? ctx.loaders.entry : withReferencesLoader(ctx, refs);
  const row = await loader.load(id);
  if (!row || (model && row.model_alias !== model.alias)) return null;
  return row;
}

function withReferencesLoader(ctx: DeliveryContext, fields: string[]) {
  return ctx.loaders.keyed<string, EntryRow | null>(`entry+references:${fields.join(',')}`, async (ids) => {
    const { rows, refs } = await findEntriesWithReferences(ctx.db, ctx.orgId, ctx.scope, ids, fields);
    const found = new Map<string, EntryRow>();
    for (const r of [...refs, ...rows]) {
      found.set(r.id, r);
      ctx.loaders.entry.prime(r.id, r);
    }
    // A reference whose target is not visible resolves to null without another read.
    for (const r of rows) {
      for (const f of fields) {
        const target = r.fields?.[f];
        if (typeof target === 'string' && !found.has(target)) ctx.loaders.entry.prime(target, null);
      }
    }
    const own = new Map(rows.map((r) => [r.id, r]));
    return ids.map((i) => own.get(i) ?? null);
  });
}

