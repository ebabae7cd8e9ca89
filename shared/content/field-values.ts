import type { FieldDefinition, ModelDefinition } from './model-types.js';
import { richContentProblem } from './rich-content.js';
import { isProblem, normalizeDateTime, normalizeDecimal } from './scalars.js';
import { valueRuleBreaks, type PendingPattern } from './validations/value-rules.js';

export const MAX_TEXT_LENGTH = 1_000_000;
export const MAX_LIST_ITEMS = 1_000;

type Normalized = { value: unknown } | { problem: string };

const isObject = (v: unknown): v is Record<string, unknown> => typeof v === 'object' && v !== null && !Array.isArray(v);

function text(v: unknown): Normalized {
  if (typeof v !== 'string') return { problem: 'must be a string' };
  if (v.length > MAX_TEXT_LENGTH) return { problem: `must be at most ${MAX_TEXT_LENGTH} characters` };
  return { value: v };
}

function url(v: unknown): Normalized {
  if (typeof v !== 'string') return { problem: 'must be a URL string' };
  if (v.startsWith('/') && !v.startsWith('//')) return { value: v };
  try {
    new URL(v);
    return { value: v };
  } catch {
    return { problem: `"${v.slice(0, 100)}" is not an absolute URL or a path starting with "/"` };
  }
}

function id(v: unknown): Normalized {
  return typeof v === 'string' && v !== '' && v.length <= 200 ? { value: v } : { problem: 'must be an id (non-empty string)' };
}

function coordinate(v: unknown, name: string, limit: number): Normalized {
  if (v === null || v === undefined) return { value: null };
  const n = typeof v === 'number' ? v : typeof v === 'string' && v.trim() !== '' ? Number(v) : NaN;
  if (!Number.isFinite(n) || Math.abs(n) > limit) return { problem: `${name} must be a number between -${limit} and ${limit}` };
  return { value: String(v).trim() };
}

function location(v: unknown): Normalized {
  if (!isObject(v)) return { problem: 'must be an object {address, latitude, longitude}' };
  const extra = Object.keys(v).find((k) => !['address', 'latitude', 'longitude'].includes(k));
  if (extra) return { problem: `unknown member "${extra}" (expected address, latitude, longitude)` };
  if (v.address !== undefined && v.address !== null && typeof v.address !== 'string') return { problem: 'address must be a string' };
  const lat = coordinate(v.latitude, 'latitude', 90);
  if ('problem' in lat) return lat;
  const lng = coordinate(v.longitude, 'longitude', 180);
  if ('problem' in lng) return lng;
  return { value: { address: (v.address as string | undefined) ?? null, latitude: lat.value, longitude: lng.value } };
}

/** Normalizes one (non-list) value of field `f`. */
function single(f: FieldDefinition, v: unknown): Normalized {
  switch (f.type) {
    case 'text':
    case 'richtext':
    case 'tag':
      return text(v);
    case 'url':
      return url(v);
    case 'number':
      if (f.numberFormat === 'decimal') {
        const d = normalizeDecimal(v);
        return isProblem(d) ? d : { value: d };
      }
      return typeof v === 'number' && Number.isSafeInteger(v) ? { value: v } : { problem: 'must be an integer (safe integer range)' };
    case 'datetime': {
      const d = normalizeDateTime(v);
      return isProblem(d) ? d : { value: d };
    }
    case 'boolean':
      return typeof v === 'boolean' ? { value: v } : { problem: 'must be true or false' };
    case 'json':
      return { value: v };
    case 'location':
      return location(v);
    case 'richcontent': {
      const p = richContentProblem(v);
      return p ? { problem: p } : { value: v };
    }
    case 'reference':
    case 'media':
    case 'section':
    case 'author':
      return id(v);
    case 'component':
      // normalized by `componentValue`, which needs the model's components and the value's path
      return { problem: 'is a component value' };
  }
}

/** A component's fields as a model `normalizeFields` can read, carrying the org's components on. */
export function componentAsModel(model: ModelDefinition, alias: string): ModelDefinition | null {
  const def = model.components?.[alias];
  return def ? { id: def.id, alias: def.alias, name: def.name, titleField: null, fields: def.fields, components: model.components } : null;
}

/**
 * One value of component field `f`: `{"component": "<alias>", …its fields}`, normalized with the
 * component's own fields (required ones required, rules checked) under `path`.
 */
function componentValue(model: ModelDefinition, f: FieldDefinition, v: unknown, path: string, patterns: PendingPattern[]): { value: unknown } | { problems: string[] } {
  const allowed = f.components ?? [];
  const expected = `a component value {"component": ${allowed.map((a) => `"${a}"`).join(' | ')}, …its fields}`;
  if (!isObject(v)) return { problems: [`${path}: must be ${expected}`] };
  const { component, ...values } = v;
  if (typeof component !== 'string') return { problems: [`${path}.component: must name the component, one of ${allowed.join(', ')}`] };
  if (!allowed.includes(component)) return { problems: [`${path}.component: "${component.slice(0, 100)}" is not allowed here (allowed: ${allowed.join(', ')})`] };
  const inner = componentAsModel(model, component);
  if (!inner) return { problems: [`${path}.component: component "${component}" is not declared`] };
  const n = normalizeFields(inner, values, { path, locale: false, owner: `component "${component}"` });
  patterns.push(...n.patterns);
  return n.problems.length > 0 ? { problems: n.problems } : { value: { component, ...n.fields } };
}

const isEmpty = (v: unknown) => v === null || v === undefined || v === '' || (Array.isArray(v) && v.length === 0);

/**
 * Validates entry field values against the model and returns them in their stored shapes.
 * Existence of referenced targets is checked separately (it needs the database). `null` clears
 * a field; cleared and absent fields are not stored. The fields' value rules (size, range, in)
 * are checked here too; their pattern matches come back in `patterns`, to run with the rest of
 * the write's under one time bound.
 */
export function normalizeFields(
  model: ModelDefinition,
  input: unknown,
  at: { path: string; locale: boolean; owner?: string } = { path: 'fields', locale: false },
): { fields: Record<string, unknown>; problems: string[]; patterns: PendingPattern[] } {
  const problems: string[] = [];
  const fields: Record<string, unknown> = {};
  const patterns: PendingPattern[] = [];
  const where = at.path;
  if (!isObject(input)) return { fields, problems: [`${where}: must be an object keyed by field alias`], patterns };
  const byAlias = new Map(model.fields.map((f) => [f.alias, f]));
  for (const key of Object.keys(input)) {
    const f = byAlias.get(key);
    if (!f) problems.push(`${where}.${key}: unknown field (${at.owner ?? `model "${model.alias}"`} has no such field)`);
    else if (at.locale && !f.localized) problems.push(`${where}.${key}: field "${key}" is not localized (its one value goes in fields)`);
  }
  for (const f of model.fields) {
    if (at.locale && !f.localized) continue;
    const raw = input[f.alias];
    if (isEmpty(raw)) {
      // only the default locale's values (`fields`) must be complete
      if (f.required && !at.locale) problems.push(`${where}.${f.alias}: required`);
      continue;
    }
    if (f.valueType === 'list') {
      if (!Array.isArray(raw)) {
        problems.push(`${where}.${f.alias}: must be a list (array) of values`);
        continue;
      }
      if (raw.length > MAX_LIST_ITEMS) {
        problems.push(`${where}.${f.alias}: at most ${MAX_LIST_ITEMS} items`);
        continue;
      }
      const out: unknown[] = [];
      raw.forEach((item, i) => {
        if (f.type === 'component' && item !== null) {
          const c = componentValue(model, f, item, `${where}.${f.alias}[${i}]`, patterns);
          if ('problems' in c) problems.push(...c.problems);
          else out.push(c.value);
          return;
        }
        const n = item === null ? { problem: 'must not be null' } : single(f, item);
        if ('problem' in n) problems.push(`${where}.${f.alias}[${i}]: ${n.problem}`);
        else out.push(n.value);
      });
      fields[f.alias] = out;
      if (out.length === raw.length) problems.push(...valueRuleBreaks(f, out, `${where}.${f.alias}`, patterns));
    } else {
      if (Array.isArray(raw) && f.type !== 'json') {
        problems.push(`${where}.${f.alias}: must be a single value, not a list`);
        continue;
      }
      if (f.type === 'component') {
        const c = componentValue(model, f, raw, `${where}.${f.alias}`, patterns);
        if ('problems' in c) problems.push(...c.problems);
        else fields[f.alias] = c.value;
        continue;
      }
      const n = single(f, raw);
      if ('problem' in n) problems.push(`${where}.${f.alias}: ${n.problem}`);
      else {
        fields[f.alias] = n.value;
        problems.push(...valueRuleBreaks(f, n.value, `${where}.${f.alias}`, patterns));
      }
    }
  }
  return { fields, problems, patterns };
}
