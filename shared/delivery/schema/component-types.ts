import { GraphQLObjectType, GraphQLUnionType, type GraphQLFieldConfigMap, type GraphQLOutputType } from 'graphql';
import { typeNameOf, type ComponentDefinition, type FieldDefinition } from '../../content/model-types.js';
import type { DeliveryContext } from '../delivery-context.js';
import type { DeliveredEntryRow } from '../entry-row.js';
import { modelFieldConfigs, type ModelTypeRegistry } from './model-fields.js';

/** A stored component value: `{component: alias, …its fields}`. */
type ComponentValue = Record<string, unknown> & { component: string };

/**
 * The GraphQL types of an organization's components, made once each: an object type per
 * component, named from its alias as a model's type is (`hero` → `Hero`), and per component field
 * that allows several kinds a union `<Owner>_<field>` (the `_` keeps it apart from every model's
 * and component's names), read with inline fragments (`... on Hero { title }`).
 */
export class ComponentTypes {
  private readonly objects = new Map<string, GraphQLObjectType>();
  private readonly unions = new Map<string, GraphQLUnionType>();

  constructor(
    private readonly defs: ReadonlyMap<string, ComponentDefinition>,
    private readonly reg: () => ModelTypeRegistry,
  ) {}

  /** The type of component field `f` of the type named `owner`. */
  fieldType(owner: string, f: FieldDefinition): GraphQLOutputType {
    const kinds = (f.components ?? []).filter((a) => this.defs.has(a));
    if (kinds.length === 1) return this.object(kinds[0]);
    const name = `${owner}_${f.alias}`;
    let union = this.unions.get(name);
    if (!union) {
      union = new GraphQLUnionType({
        name,
        description: `One of the components ${kinds.join(', ')}; select their fields with inline fragments.`,
        types: () => kinds.map((a) => this.object(a)),
        resolveType: (v: ComponentValue) => typeNameOf(v.component),
      });
      this.unions.set(name, union);
    }
    return union;
  }

  object(alias: string): GraphQLObjectType {
    let type = this.objects.get(alias);
    if (!type) {
      const def = this.defs.get(alias) as ComponentDefinition;
      type = new GraphQLObjectType<ComponentValue, DeliveryContext>({
        name: typeNameOf(alias),
        description: def.name,
        fields: () => componentFields(def, this.reg()),
      });
      this.objects.set(alias, type);
    }
    return type;
  }
}

/**
 * A component's fields, resolved as a model's are: each resolver is given the value as an entry
 * row's `fields`, so references, media and nested components load through the same batched loaders.
 */
function componentFields(def: ComponentDefinition, reg: ModelTypeRegistry): GraphQLFieldConfigMap<ComponentValue, DeliveryContext> {
  const configs = modelFieldConfigs({ id: def.id, alias: def.alias, name: def.name, titleField: null, fields: def.fields }, reg, true);
  const out: GraphQLFieldConfigMap<ComponentValue, DeliveryContext> = {};
  for (const [name, config] of Object.entries(configs)) {
    const resolve = config.resolve;
    out[name] = { ...config, resolve: resolve ? (value, args, ctx, info) => resolve({ fields: value } as unknown as DeliveredEntryRow, args, ctx, info) : undefined } as GraphQLFieldConfigMap<ComponentValue, DeliveryContext>[string];
  }
  return out;
}
