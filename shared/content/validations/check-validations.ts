import type { FieldType, ValueType } from '../model-types.js';
import { isProblem, normalizeDateTime, normalizeDecimal } from '../scalars.js';
import { compilePattern } from './pattern-match.js';
import { ASSET_TYPES, RULE_NAMES, type Bounds, type RuleName, type Validation } from './rules.js';

/** What a rule needs to know of its field. */
export interface RuleField {
  type: FieldType;
  valueType: ValueType;
  numberFormat?: 'int' | 'decimal';
}

const MAX_RULES = 20;
const MAX_IN_VALUES = 1_000;
export const MAX_PATTERN_LENGTH = 1_000;

const isObject = (v: unknown): v is Record<string, unknown> => typeof v === 'object' && v !== null && !Array.isArray(v);
const TEXTUAL: ReadonlySet<FieldType> = new Set(['text', 'tag', 'url']);

/** Which fields each rule applies to, said in the refusal when it does not. */
const APPLIES: Record<RuleName, { ok: (f: RuleField) => boolean; to: string }> = {
  unique: { ok: (f) => f.valueType === 'single' && (TEXTUAL.has(f.type) || f.type === 'number' || f.type === 'datetime'), to: 'single text, tag, url, number and datetime fields' },
  pattern: { ok: (f) => TEXTUAL.has(f.type), to: 'text, tag and url fields' },
  size: { ok: (f) => f.valueType === 'list' || TEXTUAL.has(f.type) || f.type === 'richtext', to: 'text, tag, url and richtext fields (characters) and list fields (items)' },
  range: { ok: (f) => f.type === 'number' || f.type === 'datetime', to: 'number and datetime fields' },
  in: { ok: (f) => TEXTUAL.has(f.type) || f.type === 'number', to: 'text, tag, url and number fields' },
  assetTypes: { ok: (f) => f.type === 'media', to: 'media fields' },
  imageSize: { ok: (f) => f.type === 'media', to: 'media fields' },
};

function bounds(raw: unknown, name: string, problems: string[]): Bounds<number> | null {
  if (!isObject(raw)) {
    problems.push(`${name} must be an object {min, max}`);
    return null;
  }
  const extra = Object.keys(raw).find((k) => k !== 'min' && k !== 'max');
  if (extra) problems.push(`${name} has unknown member "${extra}" (expected min, max)`);
  const out: Bounds<number> = {};
  for (const k of ['min', 'max'] as const) {
    const v = raw[k];
    if (v === undefined || v === null) continue;
    if (typeof v !== 'number' || !Number.isSafeInteger(v) || v < 0) problems.push(`${name}.${k} must be a non-negative integer`);
    else out[k] = v;
  }
  if (out.min === undefined && out.max === undefined) problems.push(`${name} needs min, max or both`);
  if (out.min !== undefined && out.max !== undefined && out.min > out.max) problems.push(`${name}.min is greater than ${name}.max`);
  return out;
}

/** A bound of a `range`: a number for number fields, a date-time for datetime fields (stored normalized). */
function rangeBound(f: RuleField, v: unknown, name: string, problems: string[]): number | string | undefined {
  if (v === undefined || v === null) return undefined;
  if (f.type === 'datetime') {
    const d = normalizeDateTime(v);
    if (isProblem(d)) problems.push(`${name} ${d.problem}`);
    else return d;
    return undefined;
  }
  if (typeof v !== 'number' || !Number.isFinite(v)) problems.push(`${name} must be a number`);
  else return v;
  return undefined;
}

function allowedValue(f: RuleField, v: unknown, name: string, problems: string[]): string | number | undefined {
  if (f.type !== 'number') {
    if (typeof v === 'string') return v;
    problems.push(`${name} must be a string`);
  } else if (f.numberFormat === 'decimal') {
    const d = normalizeDecimal(v);
    if (isProblem(d)) problems.push(`${name} ${d.problem}`);
    else return d;
  } else if (typeof v === 'number' && Number.isSafeInteger(v)) return v;
  else problems.push(`${name} must be an integer`);
  return undefined;
}

/** One rule, checked and normalized; its problems are pushed (each prefixed with `rule`). */
function checkRule(f: RuleField, name: RuleName, arg: unknown, problems: string[]): Validation | null {
  const before = problems.length;
  const p = (m: string) => problems.push(`${name}: ${m}`);
  switch (name) {
    case 'unique':
      if (arg !== true) p('must be true');
      return problems.length > before ? null : { unique: true };
    case 'pattern': {
      if (!isObject(arg)) return (p('must be an object {regex, flags, message}'), null);
      const extra = Object.keys(arg).find((k) => !['regex', 'flags', 'message'].includes(k));
      if (extra) p(`unknown member "${extra}" (expected regex, flags, message)`);
      const { regex, flags, message } = arg;
      if (typeof regex !== 'string' || regex === '' || regex.length > MAX_PATTERN_LENGTH) p(`regex must be a non-empty string of at most ${MAX_PATTERN_LENGTH} characters`);
      if (flags !== undefined && (typeof flags !== 'string' || !/^[imsu]*$/.test(flags) || new Set(flags).size !== flags.length)) {
        p('flags may hold each of i, m, s, u once (g and y would carry state from one value to the next)');
      }
      if (message !== undefined && (typeof message !== 'string' || message.length > 500)) p('message must be a string of at most 500 characters');
      if (problems.length > before) return null;
      const compiled = compilePattern(regex as string, (flags as string | undefined) ?? '');
      if (isProblem(compiled)) return (p(compiled.problem), null);
      return { pattern: { regex: regex as string, ...(flags ? { flags: flags as string } : {}), ...(message !== undefined ? { message: message as string } : {}) } };
    }
    case 'size': {
      const b = bounds(arg, 'size', problems);
      return problems.length > before || !b ? null : { size: b };
    }
    case 'range': {
      if (!isObject(arg)) return (p('must be an object {min, max}'), null);
      const extra = Object.keys(arg).find((k) => k !== 'min' && k !== 'max');
      if (extra) p(`unknown member "${extra}" (expected min, max)`);
      const min = rangeBound(f, arg.min, 'range.min', problems);
      const max = rangeBound(f, arg.max, 'range.max', problems);
      if (min === undefined && max === undefined && problems.length === before) p('needs min, max or both');
      if (min !== undefined && max !== undefined && min > max) p('min is greater than max');
      return problems.length > before ? null : { range: { ...(min !== undefined ? { min } : {}), ...(max !== undefined ? { max } : {}) } };
    }
    case 'in': {
      if (!Array.isArray(arg) || arg.length === 0 || arg.length > MAX_IN_VALUES) return (p(`must be a list of 1 to ${MAX_IN_VALUES} values`), null);
      const values = arg.map((v, i) => allowedValue(f, v, `in[${i}]`, problems));
      return problems.length > before ? null : { in: [...new Set(values as (string | number)[])] };
    }
    case 'assetTypes': {
      if (!Array.isArray(arg) || arg.length === 0) return (p(`must be a non-empty list of ${ASSET_TYPES.join(', ')}`), null);
      const bad = arg.find((t) => !(ASSET_TYPES as readonly unknown[]).includes(t));
      if (bad !== undefined) return (p(`unknown asset type ${JSON.stringify(bad)} (expected ${ASSET_TYPES.join(', ')})`), null);
      return { assetTypes: [...new Set(arg as (typeof ASSET_TYPES)[number][])] };
    }
    case 'imageSize': {
      if (!isObject(arg)) return (p('must be an object {width: {min, max}, height: {min, max}}'), null);
      const extra = Object.keys(arg).find((k) => k !== 'width' && k !== 'height');
      if (extra) p(`unknown member "${extra}" (expected width, height)`);
      if (arg.width === undefined && arg.height === undefined) p('needs width, height or both');
      const width = arg.width === undefined ? undefined : bounds(arg.width, 'imageSize.width', problems);
      const height = arg.height === undefined ? undefined : bounds(arg.height, 'imageSize.height', problems);
      return problems.length > before ? null : { imageSize: { ...(width ? { width } : {}), ...(height ? { height } : {}) } };
    }
  }
}

/**
 * Checks a field's `validations` as given in a model write and returns them normalized, or the
 * problems (each naming the rule). Each rule appears at most once and only on fields it applies to.
 */
export function checkValidations(f: RuleField, raw: unknown): { validations: Validation[] } | { problems: string[] } {
  const problems: string[] = [];
  if (!Array.isArray(raw) || raw.length > MAX_RULES) return { problems: [`validations: must be a list of at most ${MAX_RULES} rules`] };
  const out: Validation[] = [];
  const seen = new Set<string>();
  raw.forEach((v, i) => {
    const keys = isObject(v) ? Object.keys(v) : [];
    if (keys.length !== 1 || !(RULE_NAMES as readonly string[]).includes(keys[0])) {
      problems.push(`validations[${i}]: must be an object with one member, one of ${RULE_NAMES.join(', ')}`);
      return;
    }
    const name = keys[0] as RuleName;
    if (seen.has(name)) problems.push(`validations[${i}]: rule "${name}" is given twice`);
    seen.add(name);
    if (!APPLIES[name].ok(f)) {
      problems.push(`validations[${i}]: ${name} applies only to ${APPLIES[name].to}`);
      return;
    }
    const sub: string[] = [];
    const rule = checkRule(f, name, (v as Record<string, unknown>)[name], sub);
    problems.push(...sub.map((m) => `validations[${i}]: ${m}`));
    if (rule) out.push(rule);
  });
  return problems.length > 0 ? { problems } : { validations: out };
}
