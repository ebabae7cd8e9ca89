import { Kind, type GraphQLResolveInfo, type SelectionSetNode } from 'graphql';
import type { EntryColumn } from '../entry-row.js';

/** What every page row carries: identity, type resolution and the model fields' values. */
const BASE: readonly EntryColumn[] = ['row_id', 'id', 'model_alias', 'fields'];

/** `system { … }` field → the column its resolver reads (see `CmsSystem`). */
const SYSTEM_COLUMN: Readonly<Record<string, EntryColumn | null>> = {
  __typename: null,
  title: 'title',
  slug: 'slug',
  clonedFrom: 'cloned_from',
  modelAlias: 'model_alias',
  modelId: 'model_id',
  externalId: 'external_id',
  versionId: 'version_id',
  siteId: 'site_id',
  metrics: 'metrics',
  labels: 'labels',
  status: 'status',
  publishedAt: 'published_at',
  firstPublishedAt: 'first_published_at',
  createdAt: 'created_at',
  updatedAt: 'updated_at',
  unpublishedAt: 'unpublished_at',
};

/**
 * The columns a collection's `items` need, from the query's selection: model fields read
 * `fields`, `system` subfields their own columns, `attrs` its column. Null — read them all —
 * when the selection holds anything else that may read a row (`relations`: next-entry keys
 * come from the row). A page of wide rows of which a response shows a few fields then costs
 * what those fields cost to transfer and parse. Rows read this way must not reach the entry
 * loader, whose readers expect whole rows.
 */
export function itemColumns(info: GraphQLResolveInfo): ReadonlySet<EntryColumn> | null {
  const columns = new Set<EntryColumn>(BASE);
  const seen = new Set<string>();
  // each returns false when the selection needs whole rows
  const system = (set: SelectionSetNode | undefined): boolean =>
    (set?.selections ?? []).every((s) => {
      if (s.kind === Kind.INLINE_FRAGMENT) return system(s.selectionSet);
      if (s.kind === Kind.FRAGMENT_SPREAD) return system(info.fragments[s.name.value]?.selectionSet);
      const column = SYSTEM_COLUMN[s.name.value];
      if (column === undefined) return false;
      if (column) columns.add(column);
      return true;
    });
  const item = (set: SelectionSetNode | undefined): boolean =>
    (set?.selections ?? []).every((s) => {
      if (s.kind === Kind.INLINE_FRAGMENT) return item(s.selectionSet);
      if (s.kind === Kind.FRAGMENT_SPREAD) {
        if (seen.has(s.name.value)) return true;
        seen.add(s.name.value);
        const fragment = info.fragments[s.name.value];
        return !!fragment && item(fragment.selectionSet);
      }
      switch (s.name.value) {
        case 'system':
          return system(s.selectionSet);
        case 'relations':
          return false;
        case 'attrs':
          columns.add('attrs');
          return true;
        default:
          // id, __typename and model fields (their values live in `fields`)
          return true;
      }
    });
  const items = (set: SelectionSetNode | undefined): boolean =>
    (set?.selections ?? []).every((s) => {
      if (s.kind === Kind.INLINE_FRAGMENT) return items(s.selectionSet);
      if (s.kind === Kind.FRAGMENT_SPREAD) {
        const fragment = info.fragments[s.name.value];
        return !!fragment && items(fragment.selectionSet);
      }
      return s.name.value !== 'items' || item(s.selectionSet);
    });
  return info.fieldNodes.every((f) => items(f.selectionSet)) ? columns : null;
}
