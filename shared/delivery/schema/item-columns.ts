import type { FieldNode, GraphQLResolveInfo, SelectionSetNode } from 'graphql';
import { unionShapes, type EntryColumn, type EntryShape } from '../entry-row.js';
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
 * What the entries these selection sets apply to read of their rows: model fields their own key
 * of `fields` (a model field resolves `fields[alias]`; rich content's `<alias>_v2` too), `system`
 * subfields their own columns, `attrs` its column. Null — read whole rows — when the selection
 * asks for anything else that reads a row: `relations` (next-entry keys come from the row) or a
 * `system` field this table does not know. A page of wide rows of which a response shows a few
 * fields then costs what those fields cost to transfer and parse. Rows read this way must not
 * reach the shared entry loader, whose readers expect whole rows (`loaders.entryShaped`).
 */
export function entryShape(info: GraphQLResolveInfo, sets: ReadonlyArray<SelectionSetNode | undefined>): EntryShape | null {
  const columns = new Set<EntryColumn>(BASE);
  const fieldKeys = new Set<string>();
  for (const field of fieldsIn(info, sets)) {
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

const setsOf = (nodes: readonly FieldNode[]) => nodes.map((f) => f.selectionSet);

/** The selection sets of the current collection field's `items`. */
export const itemSets = (info: GraphQLResolveInfo): Array<SelectionSetNode | undefined> => setsOf(fieldsNamed(info, setsOf(info.fieldNodes), 'items'));

/** What a collection's `items` read (see `entryShape`). */
export const itemColumns = (info: GraphQLResolveInfo): EntryShape | null => entryShape(info, itemSets(info));

// Every item of a list resolves a field with the same field nodes: its shape is walked once.
const ownShapes = new WeakMap<readonly FieldNode[], EntryShape | null>();

/** What the current field's own entry reads: an entry by id, the target of a reference. */
export function ownShape(info: GraphQLResolveInfo): EntryShape | null {
  let shape = ownShapes.get(info.fieldNodes);
  if (shape === undefined) ownShapes.set(info.fieldNodes, (shape = entryShape(info, setsOf(info.fieldNodes))));
  return shape;
}

/**
 * What one statement reading the entries of these selection sets together with the targets of
 * their single references `fields` must select: own rows and targets share its columns. Each
 * reference resolver then finds its target among the rows read (`loaders.primeEntry`), since its
 * own selection is part of the union.
 */
export const withTargetsShape = (info: GraphQLResolveInfo, sets: ReadonlyArray<SelectionSetNode | undefined>, fields: readonly string[]): EntryShape | null =>
  unionShapes([entryShape(info, sets), ...fields.map((f) => entryShape(info, setsOf(fieldsNamed(info, sets, f))))]);
