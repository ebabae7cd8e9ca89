import type { ModelDefinition } from '../../content/model-types.js';
import { decodeContinuationToken, encodeContinuationToken, type TokenBinding } from '../continuation-token.js';
import type { DeliveryContext } from '../delivery-context.js';
import type { Input } from '../entry-query.js';
import { countEntries, findEntriesWithReferences, findEntryPage, keyValues, pageCountsMatches } from '../entry-repository.js';
import { shapeKey, type DeliveredEntryRow, type EntryShape } from '../entry-row.js';
import { compileOrder, ordersByTraffic } from '../order-sql.js';
import { entrySearch } from '../search-sql.js';
import { requireTraffic } from './traffic.js';
import type { GraphQLResolveInfo } from 'graphql';
import { collectionOf, pageOf, type CollectionValue } from './collection.js';
import { readShape } from './read-shape.js';
import { selects, selectsWithin } from './selection.js';

export interface CollectionArgs {
  offset?: number | null;
  limit?: number | null;
  where?: Input | null;
  order?: Input | null;
  continuationToken?: string | null;
  /** The locale whose values filters and order compare (organizations with locales). */
  locale?: string | null;
  /** Words to find in the entries' text fields, read in `locale` (see `search-sql.ts`). */
  search?: string | null;
}

/**
 * A root collection (`<alias>Collection`, `entryCollection`): one statement for the page, one
 * for `total` only when selected. Tokens: offset 0 without a token gets one when more
 * items exist; a token request gets the next page and the next token (null at the end); an
 * offset > 0 gets none.
 */
export async function entryCollection(
  ctx: DeliveryContext,
  model: ModelDefinition | null,
  collection: string,
  args: CollectionArgs,
  info?: GraphQLResolveInfo,
): Promise<CollectionValue<DeliveredEntryRow>> {
  const page = pageOf(args);
  const locale = args.locale ? ctx.locale.scope(args.locale).chain : null;
  const traffic = ordersByTraffic(args.order) ? await requireTraffic(ctx, 'An order by system.traffic').ranking(ctx.orgId) : null;
  const search = entrySearch(args.search, args.locale, ctx.models.locales);
  // order errors before any SQL (the relevance's SQL itself does not matter here, only that there is one)
  const keyCount = compileOrder(model, args.order, 'e', locale, traffic, search ? 'relevance' : null).length;
  ctx.reads.collection(model?.alias ?? null);
  const binding: TokenBinding = {
    orgId: ctx.orgId,
    collection,
    scope: ctx.scope,
    where: args.where ?? null,
    order: args.order ?? null,
    ...(args.locale ? { locale: args.locale } : {}),
    ...(search ? { search: search.text } : {}),
  };
  const after = args.continuationToken ? decodeContinuationToken(ctx.signing, binding, args.continuationToken, keyCount) : null;
  const q = { orgId: ctx.orgId, scope: ctx.scope, models: ctx.models.byAlias, model, where: args.where, order: args.order, locale, traffic, search };
  // `total` runs alongside the page when it is selected (two statements in parallel, not in
  // turn), unless the page's own statement counts the matches.
  const wantsTotal = !!info && selects(info, 'total');
  const countMatches = wantsTotal && pageCountsMatches(q, after);
  const counting = wantsTotal && !countMatches ? countEntries(ctx.db, q) : null;
  counting?.catch(() => {}); // a failure surfaces when the field resolves
  const references = model && info ? selectedReferences(model, (alias) => selectsWithin(info, 'items', alias)) : [];
  // only the columns the items (and the targets of their references) need
  const columns = info ? readShape(info, 'items', references) : null;
  const wantsToken = (after !== null || page.offset === 0) && (!info || selects(info, 'continuationToken'));
  const result = await findEntryPage(ctx.db, q, { ...page, after, countMatches, references, columns, keys: wantsToken });
  if (result.refs) primeReferences(ctx, result.rows, result.refs, references, columns);
  const total = counting ?? (result.total !== undefined ? Promise.resolve(result.total) : null);
  const last = result.rows[result.rows.length - 1];
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
): Promise<DeliveredEntryRow | null> {
  if (!id) return null;
  const refs = model && info ? selectedReferences(model, (alias) => selects(info, alias)) : [];
  const shape = info ? readShape(info, 'own', refs) : null;
  const loader = refs.length === 0 ? ctx.loaders.entryShaped(shape) : withReferencesLoader(ctx, refs, shape);
  const row = await loader.load(id);
  if (!row || (model && row.model_alias !== model.alias)) return null;
  return row;
}

/** The model's single-reference fields that the selection asks for. */
function selectedReferences(model: ModelDefinition, selected: (alias: string) => boolean): string[] {
  return model.fields.filter((f) => f.type === 'reference' && f.valueType !== 'list' && selected(f.alias)).map((f) => f.alias);
}

/**
 * Hands rows and the targets of their references (read in the same statement, in `shape`) to
 * the entry loaders, where the reference resolvers look them up; a target that is not visible resolves to
 * null without another read.
 */
function primeReferences(ctx: DeliveryContext, rows: readonly DeliveredEntryRow[], refs: readonly DeliveredEntryRow[], fields: readonly string[], shape: EntryShape | null): void {
  const found = new Set<string>();
  for (const r of [...refs, ...rows]) {
    found.add(r.id);
    ctx.loaders.primeEntry(shape, r.id, r);
  }
  for (const r of rows) {
    for (const f of fields) {
      const target = r.fields?.[f];
      if (typeof target === 'string' && !found.has(target)) ctx.loaders.primeEntry(shape, target, null);
    }
  }
}

function withReferencesLoader(ctx: DeliveryContext, fields: string[], shape: EntryShape | null) {
  return ctx.loaders.keyed<string, DeliveredEntryRow | null>(`entry+references:${fields.join(',')}:${shapeKey(shape)}`, async (ids) => {
    const { rows, refs } = await findEntriesWithReferences(ctx.db, ctx.orgId, ctx.scope, ids, fields, shape);
    primeReferences(ctx, rows, refs, fields, shape);
    const own = new Map(rows.map((r) => [r.id, r]));
    return ids.map((i) => own.get(i) ?? null);
  });
}

