import { FIELD_TYPES, LIST_CAPABLE, LOCALIZABLE, type FieldDefinition, type FieldType, type ModelDefinition } from './model-types.js';
import type { ModelInput } from './model-input.js';
import { checkValidations } from './validations/check-validations.js';
import { previewUrlProblems } from './preview-url.js';
import { FIELD_ALIAS, RESERVED_FIELD_ALIASES, modelAliasProblem, nameCollision } from './names.js';

export interface ModelCheckContext {
  /** Every other model of the org (not the one being written). */
  others: readonly ModelDefinition[];
  /** The stored version of this model, when it is being replaced. */
  previous: ModelDefinition | null;
  /** Whether entries of this model exist (field types may not change under them). */
  hasEntries: boolean;
}

export interface CheckedModel {
  name: string;
  titleField: string | null;
  fields: FieldDefinition[];
  previewUrl: string | null;
}

const isFieldType = (t: string): t is FieldType => (FIELD_TYPES as readonly string[]).includes(t);

/**
 * Validates a model write and returns the normalized definition, or the list of problems, each
 * naming the model or field and the rule it breaks.
 */
export function checkModel(alias: string, input: ModelInput, ctx: ModelCheckContext): { model: CheckedModel } | { problems: string[] } {
  const problems: string[] = [];
  const aliasProblem = modelAliasProblem(alias);
  if (aliasProblem) problems.push(aliasProblem);
  else {
    for (const other of ctx.others) {
      const clash = nameCollision(alias, other.alias);
      if (clash) problems.push(`alias "${alias}" produces the name "${clash}", which model "${other.alias}" already produces`);
    }
  }

  const fields: FieldDefinition[] = [];
  const seen = new Set<string>();
  input.fields.forEach((f, i) => {
    const where = `fields[${i}] ("${f.alias}")`;
    const before = problems.length;
    if (!FIELD_ALIAS.test(f.alias)) problems.push(`${where}: alias must match ${FIELD_ALIAS.source}`);
    else if (f.alias.startsWith('__')) problems.push(`${where}: alias may not begin with "__" (reserved by GraphQL)`);
    else if (RESERVED_FIELD_ALIASES.has(f.alias)) problems.push(`${where}: alias "${f.alias}" is reserved`);
    if (seen.has(f.alias)) problems.push(`${where}: alias is used by another field of the model`);
    seen.add(f.alias);
    if (!isFieldType(f.type)) {
      problems.push(`${where}: unknown type "${f.type}" (expected one of ${FIELD_TYPES.join(', ')})`);
      return;
    }
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
      if (m !== alias && !ctx.others.some((o) => o.alias === m)) problems.push(`${where}: allowedModels names unknown model "${m}"`);
    }
    if (f.localized && !LOCALIZABLE.has(f.type)) {
      problems.push(`${where}: type "${f.type}" cannot be localized (one value for every locale); localizable: ${[...LOCALIZABLE].join(', ')}`);
    }
    const checked = f.validations === undefined ? { validations: [] } : checkValidations({ type: f.type, valueType: valueType as FieldDefinition['valueType'], numberFormat: f.type === 'number' ? ((f.numberFormat ?? 'int') as FieldDefinition['numberFormat']) : undefined }, f.validations);
    if ('problems' in checked) problems.push(...checked.problems.map((p) => `${where}: ${p}`));
    if (problems.length > before || 'problems' in checked) return;
    const def: FieldDefinition = {
      alias: f.alias,
      type: f.type,
      valueType: valueType as FieldDefinition['valueType'],
      allowedModels,
      required: f.required ?? false,
    };
    if (f.type === 'number') def.numberFormat = (f.numberFormat ?? 'int') as FieldDefinition['numberFormat'];
    if (f.localized) def.localized = true;
    if (checked.validations.length > 0) def.validations = checked.validations;
    fields.push(def);
  });

  // `<alias>_v2` is the generated second field of a rich-content field.
  for (const f of fields) {
    if (f.type === 'richcontent' && seen.has(`${f.alias}_v2`)) {
      problems.push(`field "${f.alias}_v2": collides with the generated field of rich-content field "${f.alias}"`);
    }
  }

  const titleField = input.titleField ?? null;
  if (titleField !== null) {
    const t = fields.find((f) => f.alias === titleField);
    if (!t) problems.push(`titleField: "${titleField}" is not a field of the model`);
    else if (t.type !== 'text' || t.valueType !== 'single') problems.push(`titleField: "${titleField}" must be a single text field`);
  }

  if (ctx.previous && ctx.hasEntries) {
    for (const f of fields) {
      const old = ctx.previous.fields.find((p) => p.alias === f.alias);
      if (old && (old.type !== f.type || old.valueType !== f.valueType || old.numberFormat !== f.numberFormat)) {
        problems.push(`field "${f.alias}": type, valueType and numberFormat cannot change while entries of the model exist`);
      }
    }
  }

  // absent keeps the stored template (as `name` does); null removes it
  const previewUrl = input.previewUrl === undefined ? (ctx.previous?.previewUrl ?? null) : input.previewUrl;
  if (previewUrl !== null) problems.push(...previewUrlProblems(previewUrl, fields));

  if (problems.length > 0) return { problems };
  return { model: { name: input.name ?? ctx.previous?.name ?? alias, titleField, fields, previewUrl } };
}
