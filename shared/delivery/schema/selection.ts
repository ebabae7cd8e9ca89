import { Kind, type GraphQLResolveInfo, type SelectionSetNode } from 'graphql';

/** Whether the current field's selection asks for `name` (directly, or in inline or named fragments). */
export function selects(info: GraphQLResolveInfo, name: string): boolean {
  const seen = new Set<string>();
  const inSet = (set: SelectionSetNode | undefined): boolean =>
    !!set &&
    set.selections.some((s) => {
      if (s.kind === Kind.FIELD) return s.name.value === name;
      if (s.kind === Kind.INLINE_FRAGMENT) return inSet(s.selectionSet);
      if (seen.has(s.name.value)) return false;
      seen.add(s.name.value);
      return inSet(info.fragments[s.name.value]?.selectionSet);
    });
  return info.fieldNodes.some((f) => inSet(f.selectionSet));
}
