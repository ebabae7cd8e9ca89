/**
 * How deep a request's JSON may nest. Parsing a deep body is cheap, but every recursive walk
 * after it (JSON.stringify on the way to the database, GraphQL's input coercion) overflows the
 * stack somewhere past a few thousand levels, and no real document comes near this.
 */
export const MAX_JSON_DEPTH = 128;

export interface JsonShapeLimits {
  maxDepth: number;
  maxListItems?: number;
}

/**
 * What makes a parsed JSON value exceed `limits` (arrays and objects nested deeper than
 * `maxDepth`, an array longer than `maxListItems`), or null; walked without recursion.
 */
export function jsonShapeProblem(value: unknown, limits: JsonShapeLimits): string | null {
  const { maxDepth, maxListItems = Infinity } = limits;
  const stack: Array<[unknown, number]> = [[value, 1]];
  while (stack.length > 0) {
    const [node, depth] = stack.pop()!;
    if (typeof node !== 'object' || node === null) continue;
    if (depth > maxDepth) return `nested deeper than ${maxDepth} levels`;
    if (Array.isArray(node) && node.length > maxListItems) return `a list of ${node.length} items; the limit is ${maxListItems}`;
    for (const child of Array.isArray(node) ? node : Object.values(node)) {
      if (typeof child === 'object' && child !== null) stack.push([child, depth + 1]);
    }
  }
  return null;
}
