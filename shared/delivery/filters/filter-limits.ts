import { badRequest } from '../../errors/index.js';

/**
 * Bounds on one filter argument, checked before any SQL is built. Each value becomes a SQL
 * parameter and each nesting level a parenthesised condition: tens of thousands of values held
 * the embedded database (and with it every tenant) for seconds, and a thousand nested `and`s
 * reached the SQL compiler. Real filters stay far below these.
 */
export const FILTER_LIMITS = {
  /** Levels of input objects: `{ title: { eq } }` is 2; each `and`/`or` adds one. */
  maxDepth: 16,
  /** Values in one list (`in`, `notIn`, `startsWithAny`, …) or operands of one `and`/`or`. */
  maxListItems: 1_000,
  /** Scalar values in the whole argument. */
  maxValues: 5_000,
} as const;

const isScalar = (v: unknown) => typeof v !== 'object' || v instanceof Date;

/** Throws 400 (GraphQL BAD_USER_INPUT) naming the limit that `filter` passes. */
export function checkFilterLimits(filter: unknown, argument = 'where'): void {
  const { maxDepth, maxListItems, maxValues } = FILTER_LIMITS;
  let values = 0;
  const stack: Array<[unknown, number]> = [[filter, 1]];
  while (stack.length > 0) {
    const [node, depth] = stack.pop()!;
    if (node === null || node === undefined) continue;
    if (isScalar(node)) {
      if (++values > maxValues) throw badRequest(`${argument}: more than ${maxValues} values in one filter (the limit).`);
    } else if (Array.isArray(node)) {
      if (node.length > maxListItems) throw badRequest(`${argument}: a list of ${node.length} items; the limit is ${maxListItems}.`);
      for (const item of node) stack.push([item, depth]);
    } else {
      if (depth > maxDepth) throw badRequest(`${argument}: nested deeper than ${maxDepth} levels (the limit).`);
      for (const child of Object.values(node)) stack.push([child, depth + 1]);
    }
  }
}
