import { describe, expect, it } from 'vitest';
import { jsonShapeProblem } from './json-depth.js';

const nested = (levels: number): unknown => JSON.parse('['.repeat(levels) + ']'.repeat(levels));

describe('jsonShapeProblem', () => {
  it('counts arrays and objects, not scalars', () => {
    expect(jsonShapeProblem(1, { maxDepth: 0 })).toBeNull();
    expect(jsonShapeProblem({ a: 1 }, { maxDepth: 1 })).toBeNull();
    expect(jsonShapeProblem({ a: [1] }, { maxDepth: 1 })).toBe('nested deeper than 1 levels');
    expect(jsonShapeProblem({ a: [1] }, { maxDepth: 2 })).toBeNull();
    expect(jsonShapeProblem({ a: 1, b: { c: { d: 'x' } } }, { maxDepth: 2 })).not.toBeNull();
  });

  it('walks 100,000 levels without overflowing the stack', () => {
    expect(jsonShapeProblem(nested(100_000), { maxDepth: 128 })).toBe('nested deeper than 128 levels');
    expect(jsonShapeProblem(nested(128), { maxDepth: 128 })).toBeNull();
    expect(jsonShapeProblem(nested(129), { maxDepth: 128 })).not.toBeNull();
  });

  it('finds a list longer than maxListItems at any depth', () => {
    expect(jsonShapeProblem({ a: { b: [1, 2, 3] } }, { maxDepth: 8, maxListItems: 3 })).toBeNull();
    expect(jsonShapeProblem({ a: { b: [1, 2, 3, 4] } }, { maxDepth: 8, maxListItems: 3 })).toBe('a list of 4 items; the limit is 3');
  });
});
