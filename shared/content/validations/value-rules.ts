import type { FieldDefinition } from '../model-types.js';
import { compilePattern, type PatternCheck } from './pattern-match.js';
import { ruleIn, type Bounds } from './rules.js';

/** A pattern match still to run (all of a write's run together, see `matchPatterns`), and what to say when it fails. */
export interface PendingPattern extends PatternCheck {
  /** `fields.<alias>` or `fields.<alias>[i]` (or under `locales.<code>`). */
  path: string;
  message: string;
}

const outside = (b: Bounds<number | string>, v: number | string) => (b.min !== undefined && v < b.min) || (b.max !== undefined && v > b.max);
const boundsText = (b: Bounds<number | string>, unit = '') =>
  b.min !== undefined && b.max !== undefined ? `between ${b.min} and ${b.max}${unit}` : b.min !== undefined ? `at least ${b.min}${unit}` : `at most ${b.max}${unit}`;

/** The decimal's number for comparison (`range` bounds on decimal fields are JSON numbers). */
const comparable = (f: FieldDefinition, v: unknown): number | string => (f.type === 'number' && typeof v === 'string' ? Number(v) : (v as number | string));

/**
 * The rules of `f.validations` that look at the value alone (size, range, in, pattern), on a
 * field's normalized value; `unique` needs the other entries and the media rules their assets.
 * Problems name the path and the rule; pattern matches are queued on `patterns`.
 */
export function valueRuleBreaks(f: FieldDefinition, value: unknown, path: string, patterns: PendingPattern[]): string[] {
  const rules = f.validations;
  if (!rules || rules.length === 0) return [];
  const out: string[] = [];
  const items = f.valueType === 'list' && Array.isArray(value) ? value : [value];
  const itemPath = (i: number) => (f.valueType === 'list' ? `${path}[${i}]` : path);

  const size = ruleIn(rules, 'size');
  if (size) {
    if (f.valueType === 'list') {
      if (outside(size, items.length)) out.push(`${path}: size: must hold ${boundsText(size, ' items')} (holds ${items.length})`);
    } else if (typeof value === 'string' && outside(size, [...value].length)) {
      out.push(`${path}: size: must be ${boundsText(size, ' characters')} long (is ${[...value].length})`);
    }
  }
  const range = ruleIn(rules, 'range');
  if (range) {
    items.forEach((v, i) => {
      if (outside(range, comparable(f, v))) out.push(`${itemPath(i)}: range: must be ${boundsText(range)} (is ${String(v)})`);
    });
  }
  const allowed = ruleIn(rules, 'in');
  if (allowed) {
    const set = new Set<unknown>(allowed);
    items.forEach((v, i) => {
      if (!set.has(v)) out.push(`${itemPath(i)}: in: ${JSON.stringify(v).slice(0, 100)} is not one of the allowed values (${allowed.map((a) => JSON.stringify(a)).join(', ').slice(0, 300)})`);
    });
  }
  const pattern = ruleIn(rules, 'pattern');
  if (pattern) {
    const re = compilePattern(pattern.regex, pattern.flags ?? '');
    // the rule was compiled when the model was written; a pattern that no longer compiles checks nothing
    if (re instanceof RegExp) {
      items.forEach((v, i) => {
        if (typeof v === 'string') patterns.push({ re, value: v, path: itemPath(i), message: pattern.message ?? `must match /${pattern.regex}/${pattern.flags ?? ''}` });
      });
    }
  }
  return out;
}
