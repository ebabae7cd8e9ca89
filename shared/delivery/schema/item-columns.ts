import type { GraphQLResolveInfo } from 'graphql';
import type { EntryColumn, EntryShape } from '../entry-row.js';
import { fieldsIn, fieldsNamed } from './selection.js';

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
 * What a collection's `items` read of their rows, from the query's selection: model fields
 * their own key of `fields` (a model field resolves `fields[alias]`; rich content's `<alias>_v2`
 * too), `system` subfields their own columns, `attrs` its column. Null — read whole rows — when
 * the items select anything else that reads a row: `relations` (next-entry keys come from the
 * row) or a `system` field this table does not know. A page of wide rows of which a response
 * shows a few fields then costs what those fields cost to transfer and parse. Rows read this way
 * must not reach the entry loader, whose readers expect whole rows.
 */
export function itemColumns(info: GraphQLResolveInfo): EntryShape | null {
  const columns = new Set<EntryColumn>(BASE);
  const fieldKeys = new Set<string>();
  const items = fieldsNamed(info, info.fieldNodes.map((f) => f.selectionSet), 'items');
  for (const field of fieldsIn(info, items.map((i) => i.selectionSet))) {
    switch (field.name.value) {
      case 'system':
        for (const sub of fieldsIn(info, [field.selectionSet])) {
          const column = SYSTEM_COLUMN[sub.name.value];
          if (column === undefined) return null;
          if (column) columns.add(column);
        }
        break;
      case 'relations':
        return null;
      case 'attrs':
        columns.add('attrs');
        break;
      case 'id':
      case '__typename':
        break;
      default: {
        // a model field; `x_v2` is either rich content stored under `x` or a field named so
        const name = field.name.value;
        fieldKeys.add(name);
        if (name.endsWith('_v2')) fieldKeys.add(name.slice(0, -3));
      }
    }
  }
  return { columns, fieldKeys };
}
