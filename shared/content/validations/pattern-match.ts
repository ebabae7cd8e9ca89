import vm from 'node:vm';
import { LRUCache } from 'lru-cache';

// Pattern rules run JavaScript regular expressions, whose backtracking engine can take
// exponential time on some patterns (`(a+)+$` against a long run of `a` and one `!`). No
// linear-time engine is available here (re2 needs a native build), and telling every dangerous
// pattern apart at model-write time is not decidable in general (`(a|a)*$` has no nested
// quantifier), so the bound is on time instead: every match of a write runs inside one
// `vm` script with a timeout, which V8 enforces by interrupting the running regular
// expression. One script per write (not per value) because each timed script costs a watchdog
// thread (~0.3 ms); only when that budget runs out is each value retried alone, so the
// value that stalls is named and the others still get their answer.

/** Time one write's matches may take together before they are tried one by one. */
export const PATTERN_BUDGET_MS = 100;
/** Time one value may take alone; past it the value is refused as not checkable. */
export const PATTERN_VALUE_MS = 50;
/** Values retried alone after a timeout, past which the rest are refused unchecked. */
const MAX_SLOW_VALUES = 10;

const compiled = new LRUCache<string, RegExp>({ max: 1_000 });

/** The regular expression of a pattern rule (cached), or why it does not compile. */
export function compilePattern(regex: string, flags: string): RegExp | { problem: string } {
  const key = `${flags}/${regex}`;
  const hit = compiled.get(key);
  if (hit) return hit;
  try {
    const re = new RegExp(regex, flags);
    compiled.set(key, re);
    return re;
  } catch (err) {
    return { problem: `regex does not compile: ${(err as Error).message}` };
  }
}

export interface PatternCheck {
  re: RegExp;
  value: string;
}

const context = vm.createContext(Object.create(null) as object);
const script = new vm.Script(
  '(function () { var out = []; for (var i = 0; i < checks.length; i++) { if (!checks[i].re.test(checks[i].value)) out.push(i); } return out; })()',
);

function run(checks: readonly PatternCheck[], timeout: number): number[] | 'timeout' {
  (context as { checks?: readonly PatternCheck[] }).checks = checks;
  try {
    return script.runInContext(context, { timeout }) as number[];
  } catch (err) {
    if ((err as { code?: string }).code === 'ERR_SCRIPT_EXECUTION_TIMEOUT') return 'timeout';
    throw err;
  } finally {
    (context as { checks?: readonly PatternCheck[] }).checks = undefined;
  }
}

/** Per check: whether the value matches, or `'timeout'` when it could not be told in time. */
export function matchPatterns(checks: readonly PatternCheck[]): ('match' | 'mismatch' | 'timeout')[] {
  if (checks.length === 0) return [];
  const all = run(checks, PATTERN_BUDGET_MS);
  if (all !== 'timeout') {
    const failed = new Set(all);
    return checks.map((_, i) => (failed.has(i) ? 'mismatch' : 'match'));
  }
  let slow = 0;
  return checks.map((c) => {
    if (slow >= MAX_SLOW_VALUES) return 'timeout';
    const one = run([c], PATTERN_VALUE_MS);
    if (one === 'timeout') {
      slow++;
      return 'timeout';
    }
    return one.length === 0 ? 'match' : 'mismatch';
  });
}
