import { Kind, type DocumentNode, type FragmentDefinitionNode, type SelectionSetNode } from 'graphql';

/**
 * Fields of a document with every fragment spread expanded, as validation and execution see it:
 * a fragment spread twice counts twice. Fragments that spread the next one twice double the
 * work per level (26 levels: 2^26 fields from a 1 KB text, 50 s of blocked event loop in the
 * overlapping-fields rule alone), so this is counted before any validation rule runs. Each
 * fragment's size is computed once, so counting is linear in the text; a fragment cycle counts
 * nothing here (validation reports it).
 */
export function expandedFieldCount(document: DocumentNode): number {
  const fragments = new Map<string, FragmentDefinitionNode>();
  for (const def of document.definitions) if (def.kind === Kind.FRAGMENT_DEFINITION) fragments.set(def.name.value, def);
  const sizes = new Map<string, number>();
  const visiting = new Set<string>();

  const fragmentSize = (name: string): number => {
    const known = sizes.get(name);
    if (known !== undefined) return known;
    const fragment = fragments.get(name);
    if (!fragment || visiting.has(name)) return 0;
    visiting.add(name);
    const size = setSize(fragment.selectionSet);
    visiting.delete(name);
    sizes.set(name, size);
    return size;
  };

  function setSize(set: SelectionSetNode): number {
    let n = 0;
    for (const sel of set.selections) {
      if (sel.kind === Kind.FIELD) n += 1 + (sel.selectionSet ? setSize(sel.selectionSet) : 0);
      else if (sel.kind === Kind.INLINE_FRAGMENT) n += setSize(sel.selectionSet);
      else n += fragmentSize(sel.name.value);
    }
    return n;
  }

  let total = 0;
  for (const def of document.definitions) if (def.kind === Kind.OPERATION_DEFINITION) total += setSize(def.selectionSet);
  return total;
}
