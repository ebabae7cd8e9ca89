import { z } from 'zod';
import { changedShapes, checkFields } from './field-rules.js';
import { fieldInputSchema } from './model-input.js';
import type { ComponentDefinition, FieldDefinition, ModelDefinition } from './model-types.js';
import { componentNameClash, modelAliasProblem } from './names.js';

/**
 * How deep components may nest: a model's component field holds a component (level 1), whose
 * component field holds another (level 2), and so on up to this. Bounded so a value, its
 * validation and its GraphQL selection stay shallow; cycles are refused by the same count.
 */
export const MAX_COMPONENT_DEPTH = 4;

/** Body of `PUT /management/v1/components/:alias`: the same field shapes as a model's. */
export const componentInputSchema = z.strictObject({
  name: z.string().trim().min(1).max(200).optional(),
  fields: z.array(fieldInputSchema).max(200),
});
export type ComponentInput = z.infer<typeof componentInputSchema>;

export interface ComponentCheckContext {
  models: readonly ModelDefinition[];
  /** Every other component of the org. */
  others: readonly ComponentDefinition[];
  previous: ComponentDefinition | null;
  /** Whether entries of a model using this component (directly or nested) exist. */
  usedWithEntries: boolean;
}

const usedBy = (fields: readonly FieldDefinition[]): string[] => fields.flatMap((f) => (f.type === 'component' ? (f.components ?? []) : []));

/**
 * The levels of components below and including `alias` (1 for a component without component
 * fields), or null when a chain of components comes back to one already on it.
 */
export function componentDepth(alias: string, byAlias: ReadonlyMap<string, readonly FieldDefinition[]>, path: readonly string[] = []): number | null {
  if (path.includes(alias)) return null;
  let deepest = 0;
  for (const inner of usedBy(byAlias.get(alias) ?? [])) {
    const d = componentDepth(inner, byAlias, [...path, alias]);
    if (d === null) return null;
    deepest = Math.max(deepest, d);
  }
  return deepest + 1;
}

/** Validates a component write; every problem names the component or field and the rule. */
export function checkComponent(alias: string, input: ComponentInput, ctx: ComponentCheckContext): { component: { name: string; fields: FieldDefinition[] } } | { problems: string[] } {
  const problems: string[] = [];
  const aliasProblem = modelAliasProblem(alias);
  if (aliasProblem) problems.push(aliasProblem);
  else {
    for (const m of ctx.models) {
      const clash = componentNameClash(m.alias, alias);
      if (clash) problems.push(`alias "${alias}" produces the name "${clash}", which model "${m.alias}" already produces (models and components share one namespace)`);
    }
  }
  const components = new Map(ctx.others.map((c) => [c.alias, c]));
  // naming itself is allowed here so the depth check below can say it is a cycle
  components.set(alias, { id: '', alias, name: alias, fields: [] });
  const fields = checkFields(input.fields, { kind: 'component', alias, models: new Set(ctx.models.map((m) => m.alias)), components }, problems);
  if (problems.length === 0) {
    const graph = new Map<string, readonly FieldDefinition[]>(ctx.others.map((c) => [c.alias, c.fields]));
    graph.set(alias, fields);
    // this component and every one that holds it, directly or not, must stay within the bound
    for (const c of graph.keys()) {
      const d = componentDepth(c, graph);
      if (d === null) {
        problems.push(c === alias ? `fields: component "${alias}" holds itself (directly or through other components)` : `fields: component "${c}" would hold itself through "${alias}"`);
        break;
      }
      if (d > MAX_COMPONENT_DEPTH) {
        problems.push(`fields: components nest at most ${MAX_COMPONENT_DEPTH} levels deep; "${c}" would nest ${d}`);
        break;
      }
    }
  }
  if (ctx.previous && ctx.usedWithEntries) {
    for (const f of changedShapes(ctx.previous.fields, fields)) {
      problems.push(`field "${f}": type, valueType and numberFormat cannot change while entries hold the component`);
    }
  }
  if (problems.length > 0) return { problems };
  return { component: { name: input.name ?? ctx.previous?.name ?? alias, fields } };
}

/** Models whose fields hold one of `aliases` directly, and components that do (so, transitively, the models holding those). */
export function holdersOf(alias: string, models: readonly ModelDefinition[], components: readonly ComponentDefinition[]): { models: string[]; components: string[] } {
  const holding = new Set([alias]);
  for (let grew = true; grew; ) {
    grew = false;
    for (const c of components) {
      if (!holding.has(c.alias) && usedBy(c.fields).some((u) => holding.has(u))) {
        holding.add(c.alias);
        grew = true;
      }
    }
  }
  holding.delete(alias);
  const direct = new Set([alias, ...holding]);
  return { models: models.filter((m) => usedBy(m.fields).some((u) => direct.has(u))).map((m) => m.alias), components: [...holding] };
}
