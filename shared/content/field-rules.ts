import { FIELD_TYPES, LIST_CAPABLE, LOCALIZABLE, type ComponentDefinition, type FieldDefinition, type FieldType } from './model-types.js';
import type { FieldInput } from './model-input.js';
import { checkValidations } from './validations/check-validations.js';
import { FIELD_ALIAS, RESERVED_FIELD_ALIASES } from './names.js';

/** Where the fields being checked belong: a model, or a component (whose values sit inside entries). */
export interface FieldOwner {
  kind: 'model' | 'component';
  alias: string;
  /** Aliases a reference's `allowedModels` may name. */
  models: ReadonlySet<string>;
  /** Components a component field may name, by alias. */
  components: ReadonlyMap<string, ComponentDefinition>;
}

/** The member of a component value that names its component, so no field of a component may take it. */
export const COMPONENT_KEY = 'component';

/**
 * Field types a component may not hold: rich content's blocks are read through the entry's edges
 * by field (its `_v2` collections), which a value nested in a list of components has no key for.
 */
const NOT_IN_COMPONENTS: ReadonlySet<FieldType> = new Set(['richcontent']);

const isFieldType = (t: string): t is FieldType => (FIELD_TYPES as readonly string[]).includes(t);

/**
 * Checks the field definitions of a model or component write and returns them normalized; every
 * problem names the field (`fields[i] ("alias")`) and the rule it breaks.
 */
export function checkFields(inputs: readonly FieldInput[], owner: FieldOwner, problems: string[]): FieldDefinition[] {
  const fields: FieldDefinition[] = [];
  const seen = new Set<string>();
  const inComponent = owner.kind === 'component';
  inputs.forEach((f, i) => {
    const where = `fields[${i}] ("${f.alias}")`;
    const before = problems.length;
    if (!FIELD_ALIAS.test(f.alias)) problems.push(`${where}: alias must match ${FIELD_ALIAS.source}`);
    else if (f.alias.startsWith('__')) problems.push(`${where}: alias may not begin with "__" (reserved by GraphQL)`);
    else if (RESERVED_FIELD_ALIASES.has(f.alias)) problems.push(`${where}: alias "${f.alias}" is reserved`);
    else if (inComponent && f.alias === COMPONENT_KEY) problems.push(`${where}: alias "${COMPONENT_KEY}" is reserved in components (a value's "${COMPONENT_KEY}" member names its component)`);
    if (seen.has(f.alias)) problems.push(`${where}: alias is used by another field of the ${owner.kind}`);
    seen.add(f.alias);
    if (!isFieldType(f.type)) {
      problems.push(`${where}: unknown type "${f.type}" (expected one of ${FIELD_TYPES.join(', ')})`);
      return;
    }
    if (inComponent && NOT_IN_COMPONENTS.has(f.type)) problems.push(`${where}: type "${f.type}" cannot be used in a component`);
    const valueType = f.valueType ?? 'single';
    if (valueType !== 'single' && valueType !== 'list') problems.push(`${where}: valueType must be "single" or "list"`);
    else if (valueType === 'list' && !LIST_CAPABLE.has(f.type)) problems.push(`${where}: type "${f.type}" has no list form`);
    if (f.numberFormat !== undefined && f.type !== 'number') problems.push(`${where}: numberFormat applies only to number fields`);
    if (f.numberFormat !== undefined && f.numberFormat !== 'int' && f.numberFormat !== 'decimal') {
      problems.push(`${where}: numberFormat must be "int" or "decimal"`);
    }
    const allowedModels = [...new Set(f.allowedModels ?? [])];
    if (allowedModels.length > 0 && f.type !== 'reference') problems.push(`${where}: allowedModels applies only to reference fields`);
    for (const m of allowedModels) {
      if (!owner.models.has(m)) problems.push(`${where}: allowedModels names unknown model "${m}"`);
    }
    const components = [...new Set(f.components ?? [])];
    if (f.type === 'component') {
      if (components.length === 0) problems.push(`${where}: a component field needs "components", the aliases of the components its values may be`);
      for (const c of components) {
        if (!owner.components.has(c)) problems.push(`${where}: components names unknown component "${c}"`);
      }
    } else if (f.components !== undefined) problems.push(`${where}: components applies only to component fields`);
    if (f.localized && inComponent) problems.push(`${where}: a component's fields cannot be localized (localize the component field that holds it: its values are localized as a whole)`);
    else if (f.localized && !LOCALIZABLE.has(f.type)) {
      problems.push(`${where}: type "${f.type}" cannot be localized (one value for every locale); localizable: ${[...LOCALIZABLE].join(', ')}`);
    }
    const numberFormat = f.type === 'number' ? ((f.numberFormat ?? 'int') as FieldDefinition['numberFormat']) : undefined;
    const checked = f.validations === undefined ? { validations: [] } : checkValidations({ type: f.type, valueType: valueType as FieldDefinition['valueType'], numberFormat }, f.validations);
    if ('problems' in checked) problems.push(...checked.problems.map((p) => `${where}: ${p}`));
    else if (inComponent && checked.validations.some((v) => 'unique' in v)) problems.push(`${where}: unique applies only to fields of models (a component's values sit inside entries)`);
    if (problems.length > before || 'problems' in checked) return;
    const def: FieldDefinition = {
      alias: f.alias,
      type: f.type,
      valueType: valueType as FieldDefinition['valueType'],
      allowedModels,
      required: f.required ?? false,
    };
    if (numberFormat) def.numberFormat = numberFormat;
    if (f.localized) def.localized = true;
    if (checked.validations.length > 0) def.validations = checked.validations;
    if (f.type === 'component') def.components = components;
    fields.push(def);
  });

  // `<alias>_v2` is the generated second field of a rich-content field.
  for (const f of fields) {
    if (f.type === 'richcontent' && seen.has(`${f.alias}_v2`)) {
      problems.push(`field "${f.alias}_v2": collides with the generated field of rich-content field "${f.alias}"`);
    }
  }
  return fields;
}

/** Fields whose type, list form or number format changed; stored values of them would no longer fit. */
export function changedShapes(previous: readonly FieldDefinition[], next: readonly FieldDefinition[]): string[] {
  return next
    .filter((f) => {
      const old = previous.find((p) => p.alias === f.alias);
      return old && (old.type !== f.type || old.valueType !== f.valueType || old.numberFormat !== f.numberFormat);
    })
    .map((f) => f.alias);
}
