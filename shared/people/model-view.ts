import { canRead, shapesReads } from './request-policy.js';
import { hiddenFields, type PolicyActor } from './policy.js';

/** A role's view of the models for GraphQL (see SchemaCache.view); null when it sees everything. */
export function modelViewOf(actor: PolicyActor): { key: string; readable(model: string): boolean; hidden(model: string): readonly string[] } | null {
  if (!actor.rules || !shapesReads(actor)) return null;
  return {
    key: JSON.stringify(actor.rules.models),
    readable: (model) => canRead(actor, model),
    hidden: (model) => hiddenFields(actor, model),
  };
}
