import {
  GraphQLBoolean,
  GraphQLInt,
  GraphQLList,
  GraphQLNonNull,
  GraphQLString,
  type GraphQLFieldConfig,
  type GraphQLFieldConfigMap,
  type GraphQLObjectType,
  type GraphQLOutputType,
} from 'graphql';
import { typeNameOf, type FieldDefinition, type ModelDefinition } from '../../content/model-types.js';
import type { RichDoc } from '../../content/rich-content.js';
import type { AssetRow, AuthorRow, SectionRow } from '../cms-rows.js';
import type { DeliveryContext } from '../delivery-context.js';
import type { DeliveredEntryRow } from '../entry-row.js';
import { entriesFromField } from '../relation-loads.js';
import { CmsMedia } from './asset-types.js';
import { CmsAuthor, CmsSection } from './cms-types.js';
import { pageArgsConfig, pageOf, sliceCollection, type PageArgs } from './collection.js';
import { CmsEntry, CmsEntryCollection, CmsLocation } from './entry-interface.js';
import { readShape } from './read-shape.js';
import { CmsContentBlock, CmsRichContent, type RichContentValue } from './rich-types.js';
import { DateTimeScalar, DecimalScalar, JsonScalar } from './scalars.js';
import { describeValidations } from '../../content/validations/describe.js';

/** Generated types of the org's models, looked up lazily (they reference each other). */
export interface ModelTypeRegistry {
  models: ReadonlyMap<string, ModelDefinition>;
  object(alias: string): GraphQLObjectType;
  collection(alias: string): GraphQLObjectType;
  /** The type of a component field of `owner` (a type name): its component's type, or a union of its components'. */
  componentType(owner: string, f: FieldDefinition): GraphQLOutputType;
}

type Field = GraphQLFieldConfig<DeliveredEntryRow, DeliveryContext>;

const valueOf = (row: DeliveredEntryRow, f: FieldDefinition) => row.fields?.[f.alias] ?? null;
const idsOf = (row: DeliveredEntryRow, f: FieldDefinition): string[] => {
  const v = valueOf(row, f);
  return Array.isArray(v) ? (v as string[]) : [];
};

const present = <T>(rows: Array<T | null | Error>): T[] => rows.filter((r): r is T => r !== null && !(r instanceof Error));

function scalarField(type: GraphQLOutputType, f: FieldDefinition): Field {
  return { type: f.valueType === 'list' ? new GraphQLList(type) : type, resolve: (row) => valueOf(row, f) };
}

/** Loads by id through a loader: a single id or a list of ids, missing targets dropped. */
function linked<T>(type: GraphQLOutputType, f: FieldDefinition, load: (ctx: DeliveryContext) => { load(id: string): Promise<T | null>; loadMany(ids: readonly string[]): Promise<Array<T | null | Error>> }): Field {
  if (f.valueType === 'list') {
    return { type: new GraphQLList(type), resolve: async (row, _a, ctx) => present(await load(ctx).loadMany(idsOf(row, f))) };
  }
  return {
    type,
    resolve: (row, _a, ctx) => {
      const id = valueOf(row, f);
      return typeof id === 'string' ? load(ctx).load(id) : null;
    },
  };
}

function referenceField(f: FieldDefinition, reg: ModelTypeRegistry, nested: boolean): Field {
  const only = f.allowedModels.length === 1 && reg.models.has(f.allowedModels[0]) ? f.allowedModels[0] : null;
  const allowed = (row: DeliveredEntryRow | null) => (row && (f.allowedModels.length === 0 || f.allowedModels.includes(row.model_alias)) ? row : null);
  if (f.valueType === 'list' && nested) {
    // inside a component value there is no edge key to page by: the ids are the value's own, read by one batched loader
    return {
      type: only ? reg.collection(only) : CmsEntryCollection,
      args: pageArgsConfig,
      resolve: async (row, args: PageArgs, ctx, info) => {
        const rows = present(await ctx.loaders.entryShaped(readShape(info, 'items')).loadMany(idsOf(row, f)));
        return sliceCollection(rows.filter((r) => allowed(r) !== null), pageOf(args));
      },
    };
  }
  if (f.valueType === 'list') {
    return {
      type: only ? reg.collection(only) : CmsEntryCollection,
      args: pageArgsConfig,
      resolve: (row, args: PageArgs, ctx, info) => entriesFromField(ctx, row, { field: f.alias, kind: 'reference', allowedModels: f.allowedModels }, pageOf(args), info),
    };
  }
  return {
    type: only ? reg.object(only) : CmsEntry,
    resolve: async (row, _a, ctx, info) => {
      const id = valueOf(row, f);
      return typeof id === 'string' ? allowed(await ctx.loaders.entryShaped(readShape(info, 'own')).load(id)) : null;
    },
  };
}

/**
 * The API's field type mapping; rich content yields `<alias>` (deprecated) and `<alias>_v2`.
 * `nested`: the fields of a component, resolved on `{fields: value}` (see `component-types.ts`).
 */
export function modelFieldConfigs(model: ModelDefinition, reg: ModelTypeRegistry, nested = false): GraphQLFieldConfigMap<DeliveredEntryRow, DeliveryContext> {
  const out: GraphQLFieldConfigMap<DeliveredEntryRow, DeliveryContext> = {};
  for (const f of model.fields) {
    switch (f.type) {
      case 'text':
      case 'richtext':
      case 'tag':
      case 'url':
        out[f.alias] = scalarField(GraphQLString, f);
        break;
      case 'number':
        out[f.alias] = scalarField(f.numberFormat === 'decimal' ? DecimalScalar : GraphQLInt, f);
        break;
      case 'datetime':
        out[f.alias] = scalarField(DateTimeScalar, f);
        break;
      case 'boolean':
        out[f.alias] = scalarField(GraphQLBoolean, f);
        break;
      case 'json':
        out[f.alias] = scalarField(JsonScalar, f);
        break;
      case 'location':
        out[f.alias] = { type: CmsLocation, resolve: (row) => valueOf(row, f) };
        break;
      case 'reference':
        out[f.alias] = referenceField(f, reg, nested);
        break;
      case 'media':
        out[f.alias] = linked<AssetRow>(CmsMedia, f, (ctx) => ctx.loaders.asset);
        break;
      case 'author':
        out[f.alias] = linked<AuthorRow>(CmsAuthor, f, (ctx) => ctx.loaders.author);
        break;
      case 'section':
        out[f.alias] = linked<SectionRow>(CmsSection, f, (ctx) => ctx.loaders.section);
        break;
      case 'richcontent':
        out[f.alias] = {
          type: new GraphQLList(new GraphQLNonNull(CmsContentBlock)),
          deprecationReason: `Use ${f.alias}_v2.`,
          resolve: (row) => (valueOf(row, f) as RichDoc | null)?.content ?? null,
        };
        out[`${f.alias}_v2`] = {
          type: CmsRichContent,
          resolve: (row): RichContentValue | null => {
            const doc = valueOf(row, f) as RichDoc | null;
            return doc ? { row, field: f.alias, doc } : null;
          },
        };
        break;
      case 'component': {
        const type = reg.componentType(typeNameOf(model.alias), f);
        // a value stored before its component was taken off the field's list is not shown (its type is not in the union)
        const allowed = (v: unknown) => typeof v === 'object' && v !== null && (f.components ?? []).includes((v as { component?: string }).component ?? '');
        out[f.alias] =
          f.valueType === 'list'
            ? { type: new GraphQLList(new GraphQLNonNull(type)), resolve: (row) => (Array.isArray(valueOf(row, f)) ? (valueOf(row, f) as unknown[]).filter(allowed) : null) }
            : { type, resolve: (row) => (allowed(valueOf(row, f)) ? valueOf(row, f) : null) };
        break;
      }
    }
    const rules = describeValidations(f.validations);
    if (rules) out[f.alias] = { ...out[f.alias], description: rules };
  }
  return out;
}
