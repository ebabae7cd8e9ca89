import type { ModelDefinition } from '../content/model-types.js';
import type { AssetRow } from './cms-rows.js';
import { countEdgeAssets, findEdgeAssets } from './cms-repository.js';
import type { DeliveryContext } from './delivery-context.js';
import { countBySource, countByTarget, findPagesBySource, findPagesByTarget, type EntryPage } from './entry-repository.js';
import type { Input } from './entry-query.js';
import { shapeKey, type DeliveredEntryRow, type EntryShape } from './entry-row.js';
import type { GraphQLResolveInfo } from 'graphql';
import { collectionOf, type CollectionValue } from './schema/collection.js';
import { readShape } from './schema/read-shape.js';
import { selects } from './schema/selection.js';

/**
 * Child collections of many parents, batched: every parent on a page asking for the same
 * collection with the same arguments shares one DataLoader and so one SQL statement (plus one
 * for totals when `total` is selected). Query count stays constant in the page size.
 */
type Page = { offset: number; limit: number };

/**
 * What the query selects of a collection: without `items` no page is read; with `total` the count
 * starts alongside the page. Without resolve info, both are assumed.
 */
function wants(info?: GraphQLResolveInfo) {
  return { items: !info || selects(info, 'items'), total: !info || selects(info, 'total') };
}

/**
 * What the collection's items read of their rows (see `readShape`), and a key for it: parents
 * that ask for the same page share a loader only when they also select the same fields.
 */
function pageColumns(info?: GraphQLResolveInfo): { set: EntryShape | null; key: string } {
  const set = info ? readShape(info, 'items') : null;
  return { set, key: shapeKey(set) };
}

function lazyCollection<T, K>(pages: { load(k: K): Promise<{ rows: T[] }> }, totals: { load(k: K): Promise<number> }, key: K, page: Page, info?: GraphQLResolveInfo) {
  const want = wants(info);
  const total = want.total ? totals.load(key) : null;
  total?.catch(() => {}); // surfaces when `total` resolves
  const count = () => total ?? totals.load(key);
  if (!want.items) return Promise.resolve(collectionOf<T>([], page, count));
  return pages.load(key).then((p) => collectionOf(p.rows, page, count));
}

/** Entries one entry version points at through a field (reference lists, rich content). */
export function entriesFromField(
  ctx: DeliveryContext,
  row: DeliveredEntryRow,
  edge: { field: string; kind: 'reference' | 'rich_entry'; allowedModels: string[] },
  page: Page,
  info?: GraphQLResolveInfo,
): Promise<CollectionValue<DeliveredEntryRow>> {
  const args = { orgId: ctx.orgId, scope: ctx.scope, ...edge };
  // which targets are visible changes with any of them being published or withdrawn
  ctx.reads.collection(null);
  const columns = pageColumns(info);
  const sig = JSON.stringify(['from', edge, page, columns.key]);
  const pages = ctx.loaders.keyed<number, EntryPage>(sig, async (rowIds) => {
    const map = await findPagesBySource(ctx.db, args, rowIds, { ...page, columns: columns.set });
    return rowIds.map((id) => map.get(id) as EntryPage);
  });
  const totals = ctx.loaders.keyed<number, number>(JSON.stringify(['from-count', edge]), async (rowIds) => {
    const map = await countBySource(ctx.db, args, rowIds);
    return rowIds.map((id) => map.get(id) ?? 0);
  });
  return lazyCollection<DeliveredEntryRow, number>(pages, totals, row.row_id, page, info);
}

/** Assets one entry version points at through a field (rich content media). */
export function assetsFromField(ctx: DeliveryContext, row: DeliveredEntryRow, edge: { field: string; kind: 'media' | 'rich_media' }, page: Page): Promise<CollectionValue<AssetRow>> {
  const args = { orgId: ctx.orgId, ...edge };
  ctx.reads.cmsKind('assets');
  const pages = ctx.loaders.keyed<number, AssetRow[]>(JSON.stringify(['assets', edge, page]), async (rowIds) => {
    const rows = await findEdgeAssets(ctx.db, args, rowIds, page);
    return rowIds.map((id) => rows.filter((r) => r._parent === id).map((r) => r.j));
  });
  const totals = ctx.loaders.keyed<number, number>(JSON.stringify(['assets-count', edge]), async (rowIds) => {
    const map = await countEdgeAssets(ctx.db, args, rowIds);
    return rowIds.map((id) => map.get(id) ?? 0);
  });
  return pages.load(row.row_id).then((items) => collectionOf(items.slice(0, page.limit), page, () => totals.load(row.row_id)));
}

/** Entries pointing at a target (reverse relations of an entry, references of a section). */
export function entriesPointingAt(
  ctx: DeliveryContext,
  targetId: string,
  q: { kinds: string[]; model: ModelDefinition | null; where?: Input | null; order?: Input | null; locale?: string },
  page: Page,
  info?: GraphQLResolveInfo,
): Promise<CollectionValue<DeliveredEntryRow>> {
  const locale = q.locale ? ctx.locale.scope(q.locale).chain : null;
  const query = { orgId: ctx.orgId, scope: ctx.scope, models: ctx.models.byAlias, model: q.model, where: q.where, order: q.order, locale };
  ctx.reads.collection(q.model?.alias ?? null);
  const sig = JSON.stringify(['to', q.kinds, q.model?.alias ?? null, q.where ?? null, q.order ?? null, ...(q.locale ? [q.locale] : [])]);
  const want = wants(info);
  // Both selected: the page's statement counts the matches too (see findPagesByTarget).
  const countMatches = want.items && want.total;
  const columns = pageColumns(info);
  const pages = ctx.loaders.keyed<string, EntryPage>(JSON.stringify([sig, page, countMatches, columns.key]), async (ids) => {
    const map = await findPagesByTarget(ctx.db, query, { kinds: q.kinds }, ids, { ...page, countMatches, columns: columns.set });
    return ids.map((id) => map.get(id) as EntryPage);
  });
  const totals = ctx.loaders.keyed<string, number>(`${sig}:count`, async (ids) => {
    const map = await countByTarget(ctx.db, query, { kinds: q.kinds }, ids);
    return ids.map((id) => map.get(id) ?? 0);
  });
  if (!countMatches) return lazyCollection<DeliveredEntryRow, string>(pages, totals, targetId, page, info);
  return pages.load(targetId).then((p) => collectionOf(p.rows, page, () => p.total ?? totals.load(targetId)));
}
