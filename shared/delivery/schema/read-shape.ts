import type { FieldNode, GraphQLResolveInfo, SelectionSetNode } from 'graphql';
import { unionShapes, type EntryColumn, type EntryShape } from '../entry-row.js';
import { fieldsIn, fieldsNamed } from './selection.js';

/**
 * What every page row carries: identity, type resolution and the model fields' values (in every
 * locale: a localized query reads its fields, and a row is shared by the readers of a request).
 */
const BASE: readonly EntryColumn[] = ['row_id', 'id', 'model_alias', 'fields', 'locales'];

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
  locale: null,
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

// A field's nodes are the same for every item of a list, and for every request of one document
// (yoga caches parsed documents): each field's shapes are walked once. Keyed by the nodes
// themselves, since the executor builds a new array of them per request.
const memo = new WeakMap<FieldNode, Array<{ nodes: readonly FieldNode[]; shapes: Map<string, EntryShape | null> }>>();

function shapesOf(nodes: readonly FieldNode[]): Map<string, EntryShape | null> {
  let known = memo.get(nodes[0]);
  if (!known) memo.set(nodes[0], (known = []));
  let entry = known.find((k) => k.nodes.length === nodes.length && k.nodes.every((n, i) => n === nodes[i]));
  if (!entry) known.push((entry = { nodes: [...nodes], shapes: new Map() }));
  return entry.shapes;
}

/**
 * What the current field reads of entry rows: its own entry (`own`: an entry by id, the target
 * of a reference) or its `items` (a collection). With `references`, what one statement reading
 * those entries together with the targets of their single references `references` must select:
 * rows and targets share its columns, and each reference resolver finds its target among the
 * rows read (`loaders.primeEntry`), since its own selection is part of the union.
 */
export function readShape(info: GraphQLResolveInfo, of: 'own' | 'items', references: readonly string[] = []): EntryShape | null {
  const tag = `${of}:${references.join(',')}`;
  const shapes = shapesOf(info.fieldNodes);
  let shape = shapes.get(tag);
  if (shape === undefined) {
    const sets = of === 'own' ? setsOf(info.fieldNodes) : setsOf(fieldsNamed(info, setsOf(info.fieldNodes), 'items'));
    shape = unionShapes([entryShape(info, sets), ...references.map((f) => entryShape(info, setsOf(fieldsNamed(info, sets, f))))]);
    shapes.set(tag, shape);
  }
  return shape;
}
