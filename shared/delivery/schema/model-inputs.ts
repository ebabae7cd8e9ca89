import { GraphQLInputObjectType, GraphQLList, type GraphQLInputFieldConfigMap, type GraphQLInputType } from 'graphql';
import { typeNameOf, type FieldDefinition, type ModelDefinition } from '../../content/model-types.js';
import { isOrderable } from '../order-sql.js';
import { CmsOrderDirection } from './enums.js';
import * as I from './inputs.js';

/** The filter input of one model field, or null when the field type has none (json, location). */
export function fieldFilterType(f: FieldDefinition): GraphQLInputType | null {
  const list = f.valueType === 'list';
  switch (f.type) {
    case 'text':
    case 'tag':
      return list ? I.CmsStringListFilter : I.CmsStringFilter;
    case 'richtext':
    case 'url':
      return I.CmsStringFilter;
    case 'number':
      if (f.numberFormat === 'decimal') return list ? I.CmsFloatListFilter : I.CmsFloatFilter;
      return list ? I.CmsIntListFilter : I.CmsIntFilter;
    case 'datetime':
      return I.CmsDateTimeFilter;
    case 'boolean':
      return I.CmsBooleanFilter;
    case 'reference':
      return list ? I.CmsReferenceListFieldFilter : I.CmsReferenceFieldFilter;
    case 'media':
      return list ? I.CmsMediaListFieldFilter : I.CmsMediaFieldFilter;
    case 'section':
      return list ? I.CmsSectionListFieldFilter : I.CmsSectionFieldFilter;
    case 'author':
      return list ? I.CmsAuthorListFieldFilter : I.CmsAuthorFieldFilter;
    case 'richcontent':
      return I.CmsRichContentFieldFilter;
    case 'component':
      return list ? I.CmsComponentListFieldFilter : I.CmsComponentFieldFilter;
    default:
      return null;
  }
}

export function modelFilterType(model: ModelDefinition): GraphQLInputObjectType {
  const type: GraphQLInputObjectType = new GraphQLInputObjectType({
    name: `${typeNameOf(model.alias)}Filter`,
    description: 'Several fields in one object are combined with AND.',
    fields: () => {
      const fields: GraphQLInputFieldConfigMap = { id: { type: I.CmsIdFilter } };
      for (const f of model.fields) {
        const t = fieldFilterType(f);
        if (t) fields[f.alias] = { type: t };
      }
      return { ...fields, system: { type: I.CmsSystemFilter }, and: { type: new GraphQLList(type) }, or: { type: new GraphQLList(type) } };
    },
  });
  return type;
}

export function modelOrderType(model: ModelDefinition): GraphQLInputObjectType {
  const type: GraphQLInputObjectType = new GraphQLInputObjectType({
    name: `${typeNameOf(model.alias)}Order`,
    description: 'One key per object; thenBy breaks ties. Default: system.publishedAt DESC, then id ASC; nulls last.',
    fields: () => {
      const fields: GraphQLInputFieldConfigMap = { id: { type: CmsOrderDirection } };
      for (const f of model.fields) if (isOrderable(f)) fields[f.alias] = { type: CmsOrderDirection };
      return { ...fields, system: { type: I.CmsSystemOrder }, thenBy: { type: new GraphQLList(type) } };
    },
  });
  return type;
}

/** `CmsEntryFilter`: one member per model, plus id, system, and, or. */
export function entryFilterType(models: ModelDefinition[], filterOf: (alias: string) => GraphQLInputObjectType): GraphQLInputObjectType {
  const type: GraphQLInputObjectType = new GraphQLInputObjectType({
    name: 'CmsEntryFilter',
    description: 'A model member first requires the entry to be of that model: `and` of two models matches nothing; use `or`.',
    fields: () => ({
      id: { type: I.CmsIdFilter },
      ...Object.fromEntries(models.map((m) => [m.alias, { type: filterOf(m.alias) }])),
      system: { type: I.CmsSystemFilter },
      and: { type: new GraphQLList(type) },
      or: { type: new GraphQLList(type) },
    }),
  });
  return type;
}
