import {
  getNamedType,
  GraphQLError,
  isCompositeType,
  isObjectType,
  isInterfaceType,
  Kind,
  valueFromASTUntyped,
  type DocumentNode,
  type FieldNode,
  type FragmentDefinitionNode,
  type GraphQLCompositeType,
  type GraphQLSchema,
  type OperationDefinitionNode,
  type SelectionSetNode,
} from 'graphql';
import { MAX_DPR, srcSetTransformation, type AssetTransformationInput } from '../../shared/assets/build-asset-url.js';
import { DEFAULT_LIMIT, MAX_LIMIT } from '../../shared/delivery/schema/collection.js';

/**
 * An image URL with a transformation can start a transform when it is fetched: it costs 1 plus
 * a unit per million pixels asked for (one side given: a square of it), so a page of 500
 * enlargements to 8192×8192 is over any limit while a page of thumbnails costs its size.
 */
function transformCost(transformation: unknown): number {
  if (!transformation || typeof transformation !== 'object') return 0;
  const { width, height, dpr } = transformation as { width?: unknown; height?: unknown; dpr?: unknown };
  // dpr multiplies both sides (a larger one than MAX_DPR is refused when the URL is built)
  const scale = typeof dpr === 'number' && dpr > 1 ? Math.min(dpr, MAX_DPR) : 1;
  const w = typeof width === 'number' ? width * scale : undefined;
  const h = typeof height === 'number' ? height * scale : undefined;
  const pixels = w !== undefined && h !== undefined ? w * h : (w ?? h ?? 0) ** 2;
  return 1 + Math.floor(pixels / 1_000_000);
}

/** A `srcSet`: one transformation per width, each costed as an image URL of that size. */
function srcSetCost(widths: unknown, transformation: unknown): number {
  if (!Array.isArray(widths)) return 0;
  const t = transformation && typeof transformation === 'object' ? (transformation as AssetTransformationInput) : {};
  return widths.reduce((sum: number, w: unknown) => sum + (typeof w === 'number' ? transformCost(srcSetTransformation(t, w)) : 1), 0);
}

/**
 * Query cost: every collection field costs its limit × (1 + the cost of the
 * collections nested in it); an image URL with a transformation costs its transformCost; other
 * fields cost nothing themselves. Computed from the document
 * and variables before execution, so an over-limit query never reaches the database. `limit`,
 * `offset` and `order` arguments are checked here too (BAD_USER_INPUT before any SQL).
 */
export function queryCost(schema: GraphQLSchema, document: DocumentNode, variables: Record<string, unknown> | null | undefined, operationName?: string | null): number {
  const fragments = new Map<string, FragmentDefinitionNode>();
  let operation: OperationDefinitionNode | undefined;
  for (const def of document.definitions) {
    if (def.kind === Kind.FRAGMENT_DEFINITION) fragments.set(def.name.value, def);
    else if (def.kind === Kind.OPERATION_DEFINITION && (!operationName || def.name?.value === operationName)) operation ??= def;
  }
  if (!operation) return 0;
  const root = schema.getRootType(operation.operation);
  if (!root) return 0;

  const argValue = (field: FieldNode, name: string): unknown => {
    const arg = field.arguments?.find((a) => a.name.value === name);
    return arg ? valueFromASTUntyped(arg.value, variables ?? undefined) : undefined;
  };

  const checkPaging = (field: FieldNode): number => {
    const limit = argValue(field, 'limit');
    const offset = argValue(field, 'offset');
    if (typeof limit === 'number' && (limit < 0 || limit > MAX_LIMIT)) {
      throw new GraphQLError(`limit must be between 0 and ${MAX_LIMIT} (got ${limit}).`, { nodes: [field], extensions: { code: 'BAD_USER_INPUT' } });
    }
    if (typeof offset === 'number' && offset < 0) {
      throw new GraphQLError(`offset must be 0 or more (got ${offset}).`, { nodes: [field], extensions: { code: 'BAD_USER_INPUT' } });
    }
    return typeof limit === 'number' ? limit : DEFAULT_LIMIT;
  };

  /** One key per order object (also inside `system` and each `thenBy`). */
  const checkOrder = (field: FieldNode, value: unknown, where: string): void => {
    if (Array.isArray(value)) return value.forEach((v, i) => checkOrder(field, v, `${where}[${i}]`));
    if (!value || typeof value !== 'object') return;
    const o = value as Record<string, unknown>;
    const keys = Object.keys(o).filter((k) => k !== 'thenBy' && o[k] !== null && o[k] !== undefined);
    if (keys.length > 1) {
      throw new GraphQLError(`${where}: one key per order object (got ${keys.join(', ')}); use thenBy for tie-breakers.`, {
        nodes: [field],
        extensions: { code: 'BAD_USER_INPUT' },
      });
    }
    if (o.system) checkOrder(field, o.system, `${where}.system`);
    if (o.thenBy) checkOrder(field, o.thenBy, `${where}.thenBy`);
  };

  const visit = (set: SelectionSetNode, parent: GraphQLCompositeType, seen: Set<string>): number => {
    let cost = 0;
    for (const sel of set.selections) {
      if (sel.kind === Kind.FIELD) {
        if (!isObjectType(parent) && !isInterfaceType(parent)) continue;
        const def = parent.getFields()[sel.name.value];
        if (!def) continue;
        if (def.args.some((a) => a.name === 'order')) checkOrder(sel, argValue(sel, 'order'), 'order');
        const named = getNamedType(def.type);
        const inner = sel.selectionSet && isCompositeType(named) ? visit(sel.selectionSet, named, seen) : 0;
        const isCollection = named.name.endsWith('Collection') && def.args.some((a) => a.name === 'limit');
        const own = def.args.some((a) => a.name === 'widths')
          ? srcSetCost(argValue(sel, 'widths'), argValue(sel, 'transformation'))
          : def.args.some((a) => a.name === 'transformation')
            ? transformCost(argValue(sel, 'transformation'))
            : 0;
        cost += isCollection ? checkPaging(sel) * (1 + inner) : inner + own;
      } else if (sel.kind === Kind.INLINE_FRAGMENT) {
        const cond = sel.typeCondition ? schema.getType(sel.typeCondition.name.value) : parent;
        if (cond && isCompositeType(cond)) cost += visit(sel.selectionSet, cond, seen);
      } else {
        const frag = fragments.get(sel.name.value);
        if (!frag || seen.has(frag.name.value)) continue;
        const cond = schema.getType(frag.typeCondition.name.value);
        if (cond && isCompositeType(cond)) cost += visit(frag.selectionSet, cond, new Set([...seen, frag.name.value]));
      }
    }
    return cost;
  };
  return visit(operation.selectionSet, root, new Set());
}
