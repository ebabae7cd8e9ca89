import { getNamedType, isObjectType, isUnionType, printType, type GraphQLNamedType } from 'graphql';
import type { OrgLocales } from '../../content/locale-types.js';
import { typeNameOf, type ModelDefinition } from '../../content/model-types.js';
import { buildDeliverySchema } from './build-schema.js';

/**
 * The GraphQL type a model produces, in SDL, as delivery serves it: the object type, then the
 * component types and unions its fields name (those exist only through models). The same builder
 * as delivery, so what the Studio previews is what clients get; null when there is no such model.
 */
export function modelSdl(models: ModelDefinition[], locales: OrgLocales | null, alias: string): { typeName: string; sdl: string } | null {
  if (!models.some((m) => m.alias === alias)) return null;
  const schema = buildDeliverySchema(models, locales);
  const typeName = typeNameOf(alias);
  const root = schema.getType(typeName);
  if (!isObjectType(root)) return null;
  const componentNames = new Set(models.flatMap((m) => Object.keys(m.components ?? {})).map(typeNameOf));
  const printed: GraphQLNamedType[] = [root];
  // a component type, or a union of them, reached from the model's fields (depth-first, once each)
  const visit = (t: GraphQLNamedType) => {
    if (printed.includes(t)) return;
    const isComponent = componentNames.has(t.name) || (isUnionType(t) && t.getTypes().some((u) => componentNames.has(u.name)));
    if (!isComponent) return;
    printed.push(t);
    if (isUnionType(t)) t.getTypes().forEach(visit);
    if (isObjectType(t)) Object.values(t.getFields()).forEach((f) => visit(getNamedType(f.type)));
  };
  Object.values(root.getFields()).forEach((f) => visit(getNamedType(f.type)));
  return { typeName, sdl: printed.map((t) => printType(t)).join('\n\n') };
}
