import { typeNameOf } from './model-types.js';

/**
 * GraphQL naming rules for models and fields. A model's alias becomes a type name,
 * root fields and relation fields of the org's generated schema; these checks keep every
 * generated name unique before a model is stored, so schema generation never has to fail.
 */
export const MODEL_ALIAS = /^[a-z][A-Za-z0-9]*$/;
export const FIELD_ALIAS = /^[a-zA-Z_][A-Za-z0-9_]*$/;

/** Type names the schema defines itself (the reserved names, and the built-in `Cms…` types). */
export const RESERVED_TYPE_NAMES: ReadonlySet<string> = new Set([
  'Query',
  'String',
  'Float',
  'Int',
  'Boolean',
  'ID',
  'DateTime',
  'Json',
  'Decimal',
  'Long',
  'Media',
  'Entry',
  'EntryRelations',
]);

/** Root fields of `Query` that are not per model (the `cms…` ones are excluded by the prefix rule). */
export const RESERVED_ROOT_FIELDS: ReadonlySet<string> = new Set(['entry', 'entryCollection']);

/**
 * Names a model field may not take: the members every generated type already has (`id`,
 * `system`, `attrs`, `relations`), and the combinators of its Filter (`and`, `or`) and Order
 * (`thenBy`) inputs, which carry one member per field.
 */
export const RESERVED_FIELD_ALIASES: ReadonlySet<string> = new Set([
  'id',
  'system',
  'attrs',
  'relations',
  'and',
  'or',
  'thenBy',
]);

/** Every schema name a model alias produces, grouped by namespace (types, Query fields, relation fields). */
export interface GeneratedNames {
  types: string[];
  rootFields: string[];
  relationFields: string[];
}

export function generatedNames(alias: string): GeneratedNames {
  const type = typeNameOf(alias);
  return {
    types: [type, `${type}Collection`, `${type}Filter`, `${type}Order`, `${type}Relations`],
    rootFields: [alias, `${alias}Collection`],
    // `<alias>Collection` appears in the Relations type of every model it references;
    // `next<Type>EntryCollection` in its own Relations type.
    relationFields: [`${alias}Collection`, `next${type}EntryCollection`],
  };
}

/** The problem with a model alias on its own, or null. */
export function modelAliasProblem(alias: string): string | null {
  if (!MODEL_ALIAS.test(alias)) return `alias "${alias}" must match ${MODEL_ALIAS.source}`;
  if (alias.toLowerCase().startsWith('cms')) return `alias "${alias}" may not begin with "cms" (reserved prefix, any case)`;
  const names = generatedNames(alias);
  const reserved = names.types.find((n) => RESERVED_TYPE_NAMES.has(n));
  if (reserved) return `alias "${alias}" produces the reserved name "${reserved}"`;
  const root = names.rootFields.find((n) => RESERVED_ROOT_FIELDS.has(n));
  if (root) return `alias "${alias}" produces the reserved root field "${root}"`;
  if (names.relationFields.includes('entryCollection')) {
    return `alias "${alias}" produces the reserved relation field "entryCollection"`;
  }
  return null;
}

/** The first name `alias` shares with `otherAlias`'s generated names, or null. */
export function nameCollision(alias: string, otherAlias: string): string | null {
  const a = generatedNames(alias);
  const b = generatedNames(otherAlias);
  for (const key of ['types', 'rootFields', 'relationFields'] as const) {
    const clash = a[key].find((n) => b[key].includes(n));
    if (clash) return clash;
  }
  return null;
}

/**
 * The name a model alias shares with a component alias, or null: a component produces one type
 * (`hero` → `Hero`), which may be none of the model's generated types (one namespace for both).
 */
export function componentNameClash(modelAlias: string, componentAlias: string): string | null {
  const type = typeNameOf(componentAlias);
  return generatedNames(modelAlias).types.includes(type) ? type : null;
}
