import { GraphQLString, type GraphQLFieldConfigMap } from 'graphql';
import { countCms, findAssetPage, findCmsPage, type CmsTable } from '../cms-repository.js';
import type { DeliveryContext } from '../delivery-context.js';
import { CmsAsset, CmsAssetCollection } from './asset-types.js';
import { CmsAuthor, CmsAuthorCollection, CmsList, CmsListCollection, CmsSection, CmsSectionCollection } from './cms-types.js';
import { collectionOf, collectionType, pageArgsConfig, pageOf, type PageArgs } from './collection.js';
import { CmsLabel } from './entry-interface.js';
import { CmsAssetFilter, CmsAuthorFilter, CmsLabelFilter, CmsListFilter, CmsSectionFilter } from './inputs.js';

export const CmsLabelCollection = collectionType('CmsLabelCollection', () => CmsLabel);

interface FilteredPage extends PageArgs {
  where?: Record<string, unknown> | null;
}

function tableCollection(table: CmsTable) {
  return async (_root: unknown, args: FilteredPage, ctx: DeliveryContext) => {
    const page = pageOf(args);
    ctx.reads.cmsKind(table);
    const result = await findCmsPage(ctx.db, table, ctx.orgId, { ...page, where: args.where });
    return collectionOf(result.rows, page, () => countCms(ctx.db, table, ctx.orgId, args.where));
  };
}

const idArg = { id: { type: GraphQLString } };

/** Built-in roots: the reserved `cms` prefix keeps them clear of model names. */
export function cmsRootFields(): GraphQLFieldConfigMap<unknown, DeliveryContext> {
  return {
    cmsAsset: { type: CmsAsset, args: idArg, resolve: (_r, a: { id?: string | null }, ctx) => (a.id ? ctx.loaders.asset.load(a.id) : null) },
    cmsAssetCollection: {
      type: CmsAssetCollection,
      args: { ...pageArgsConfig, where: { type: CmsAssetFilter } },
      resolve: async (_r, args: FilteredPage, ctx) => {
        const page = pageOf(args);
        ctx.reads.cmsKind('assets');
        const result = await findAssetPage(ctx.db, ctx.orgId, { ...page, where: args.where });
        return collectionOf(result.rows, page, () => countCms(ctx.db, 'assets', ctx.orgId, args.where));
      },
    },
    cmsSection: { type: CmsSection, args: idArg, resolve: (_r, a: { id?: string | null }, ctx) => (a.id ? ctx.loaders.section.load(a.id) : null) },
    cmsSectionCollection: { type: CmsSectionCollection, args: { ...pageArgsConfig, where: { type: CmsSectionFilter } }, resolve: tableCollection('sections') },
    cmsAuthor: { type: CmsAuthor, args: idArg, resolve: (_r, a: { id?: string | null }, ctx) => (a.id ? ctx.loaders.author.load(a.id) : null) },
    cmsAuthorCollection: { type: CmsAuthorCollection, args: { ...pageArgsConfig, where: { type: CmsAuthorFilter } }, resolve: tableCollection('authors') },
    cmsLabelCollection: { type: CmsLabelCollection, args: { ...pageArgsConfig, where: { type: CmsLabelFilter } }, resolve: tableCollection('labels') },
    cmsList: { type: CmsList, args: idArg, resolve: (_r, a: { id?: string | null }, ctx) => (a.id ? ctx.loaders.list.load(a.id) : null) },
    cmsListCollection: { type: CmsListCollection, args: { ...pageArgsConfig, where: { type: CmsListFilter } }, resolve: tableCollection('lists') },
  };
}
