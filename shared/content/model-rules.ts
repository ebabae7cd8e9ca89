import type { ComponentDefinition, FieldDefinition, ModelDefinition } from './model-types.js';
import type { ModelInput } from './model-input.js';
import { changedShapes, checkFields } from './field-rules.js';
import { previewUrlProblems } from './preview-url.js';
import { componentNameClash, modelAliasProblem, nameCollision } from './names.js';

export interface ModelCheckContext {
  /** Every other model of the org (not the one being written). */
  others: readonly ModelDefinition[];
  /** The stored version of this model, when it is being replaced. */
  previous: ModelDefinition | null;
  /** Whether entries of this model exist (field types may not change under them). */
  hasEntries: boolean;
  /** The org's components (component fields name them; their aliases share the namespace). */
  components?: readonly ComponentDefinition[];
}

export interface CheckedModel {
  name: string;
  titleField: string | null;
  fields: FieldDefinition[];
  previewUrl: string | null;
}

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
    for (const c of ctx.components ?? []) {
      const clash = componentNameClash(alias, c.alias);
      if (clash) problems.push(`alias "${alias}" produces the name "${clash}", which component "${c.alias}" already produces`);
    }
  }

  const fields = checkFields(input.fields, {
    kind: 'model',
    alias,
    models: new Set([alias, ...ctx.others.map((o) => o.alias)]),
    components: new Map((ctx.components ?? []).map((c) => [c.alias, c])),
  }, problems);

  const titleField = input.titleField ?? null;
  if (titleField !== null) {
    const t = fields.find((f) => f.alias === titleField);
    if (!t) problems.push(`titleField: "${titleField}" is not a field of the model`);
    else if (t.type !== 'text' || t.valueType !== 'single') problems.push(`titleField: "${titleField}" must be a single text field`);
  }

  if (ctx.previous && ctx.hasEntries) {
    for (const f of changedShapes(ctx.previous.fields, fields)) {
      problems.push(`field "${f}": type, valueType and numberFormat cannot change while entries of the model exist`);
    }
  }

  // absent keeps the stored template (as `name` does); null removes it
  const previewUrl = input.previewUrl === undefined ? (ctx.previous?.previewUrl ?? null) : input.previewUrl;
  if (previewUrl !== null) problems.push(...previewUrlProblems(previewUrl, fields));

  if (problems.length > 0) return { problems };
  return { model: { name: input.name ?? ctx.previous?.name ?? alias, titleField, fields, previewUrl } };
}
