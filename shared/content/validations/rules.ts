import { ASSET_TYPES, type AssetType } from '../asset-types.js';

/** Lower and upper bounds, either optional, both inclusive. */
export interface Bounds<T> {
  min?: T;
  max?: T;
}

export interface PatternRule {
  regex: string;
  /** Any of `i`, `m`, `s`, `u` (no `g` or `y`: a test must not carry state between values). */
  flags?: string;
  /** Said instead of the generic message when a value does not match. */
  message?: string;
}

/**
 * One rule of a field's `validations`, an object with exactly one member naming the rule. Which
 * field types each rule applies to is in `RULE_TYPES`; `checkValidations` refuses the others.
 */
export type Validation =
  | { unique: true }
  | { pattern: PatternRule }
  | { size: Bounds<number> }
  | { range: Bounds<number | string> }
  | { in: (string | number)[] }
  | { assetTypes: AssetType[] }
  | { imageSize: { width?: Bounds<number>; height?: Bounds<number> } };

export const RULE_NAMES = ['unique', 'pattern', 'size', 'range', 'in', 'assetTypes', 'imageSize'] as const;
export type RuleName = (typeof RULE_NAMES)[number];

export const ruleOf = (v: Validation): RuleName => Object.keys(v)[0] as RuleName;

/** The rule of that name in a field's validations, if it has one. */
export function ruleIn<N extends RuleName>(validations: readonly Validation[] | undefined, name: N): Extract<Validation, Record<N, unknown>>[N] | undefined {
  const v = validations?.find((x) => ruleOf(x) === name) as Record<N, unknown> | undefined;
  return v?.[name] as Extract<Validation, Record<N, unknown>>[N] | undefined;
}

export { ASSET_TYPES };
