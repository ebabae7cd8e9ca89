import { Kind, type FieldNode, type GraphQLResolveInfo, type SelectionSetNode } from 'graphql';

/** Every field of these selection sets, with inline and named fragments flattened into them. */
export function fieldsIn(info: GraphQLResolveInfo, sets: ReadonlyArray<SelectionSetNode | undefined>): FieldNode[] {
  const found: FieldNode[] = [];
  const seen = new Set<string>();
  const walk = (set: SelectionSetNode | undefined) => {
    for (const s of set?.selections ?? []) {
      if (s.kind === Kind.FIELD) {
        found.push(s);
      } else if (s.kind === Kind.INLINE_FRAGMENT) {
        walk(s.selectionSet);
      } else if (!seen.has(s.name.value)) {
        seen.add(s.name.value);
        walk(info.fragments[s.name.value]?.selectionSet);
      }
    }
  };
  sets.forEach(walk);
  return found;
}

/** The fields named `name` in a selection set (directly, or in inline or named fragments). */
export const fieldsNamed = (info: GraphQLResolveInfo, sets: ReadonlyArray<SelectionSetNode | undefined>, name: string): FieldNode[] =>
  fieldsIn(info, sets).filter((f) => f.name.value === name);

/** Whether the current field's selection asks for `name` (directly, or in inline or named fragments). */
export function selects(info: GraphQLResolveInfo, name: string): boolean {
  return fieldsNamed(info, info.fieldNodes.map((f) => f.selectionSet), name).length > 0;
}

/** Whether the current field's selection asks for `name` inside its field `parent` (e.g. `items { author }`). */
export function selectsWithin(info: GraphQLResolveInfo, parent: string, name: string): boolean {
  const parents = fieldsNamed(info, info.fieldNodes.map((f) => f.selectionSet), parent);
  return fieldsNamed(info, parents.map((f) => f.selectionSet), name).length > 0;
}
