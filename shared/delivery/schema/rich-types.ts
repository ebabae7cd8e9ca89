import { GraphQLList, GraphQLNonNull, GraphQLObjectType, GraphQLString, type GraphQLFieldConfigMap } from 'graphql';
import { richTargets, type RichDoc, type RichNode } from '../../content/rich-content.js';
import type { AssetRow } from '../cms-rows.js';
import type { DeliveryContext } from '../delivery-context.js';
import type { DeliveredEntryRow } from '../entry-row.js';
import { assetsFromField, entriesFromField } from '../relation-loads.js';
import { CmsAssetCollection, CmsMediaCollection } from './asset-types.js';
import { pageArgsConfig, pageOf, sliceCollection, type PageArgs } from './collection.js';
import { CmsEntryCollection } from './entry-interface.js';
import { plainText, renderNode } from './rich-html.js';
import { JsonScalar } from './scalars.js';

/** The value behind `<alias>_v2`: the document and where it lives (for edge lookups). */
export interface RichContentValue {
  row: DeliveredEntryRow;
  field: string;
  doc: RichDoc;
}

const markType = (name: string) =>
  new GraphQLObjectType({ name, fields: { type: { type: GraphQLString }, attrs: { type: JsonScalar } } });

export const CmsRichContentBlockMark = markType('CmsRichContentBlockMark');
export const CmsContentBlockMark = markType('CmsContentBlockMark');

function blockFields(mark: GraphQLObjectType, nonNullMarks: boolean): GraphQLFieldConfigMap<RichNode, DeliveryContext> {
  return {
    type: { type: GraphQLString },
    text: { type: GraphQLString, description: 'Plain text of the block.', resolve: (n) => plainText(n) },
    content: { type: JsonScalar, description: 'Child nodes.', resolve: (n) => n.content ?? null },
    marks: { type: new GraphQLList(nonNullMarks ? new GraphQLNonNull(mark) : mark), resolve: (n) => n.marks ?? [] },
    attrs: { type: JsonScalar },
    contentHTML: { type: GraphQLString, description: 'HTML, escaped, with safe links only.', resolve: (n) => renderNode(n) },
  };
}

export const CmsRichContentBlock = new GraphQLObjectType<RichNode, DeliveryContext>({
  name: 'CmsRichContentBlock',
  fields: () => blockFields(CmsRichContentBlockMark, false),
});

/** Visible entries and assets a block points at, in document order (from the block itself). */
async function blockEntries(n: RichNode, ctx: DeliveryContext): Promise<DeliveredEntryRow[]> {
  const ids = richTargets({ type: 'doc', content: [n] }).entries;
  return (await ctx.loaders.entry.loadMany(ids)).filter((r): r is DeliveredEntryRow => !!r && !(r instanceof Error));
}
async function blockMedia(n: RichNode, ctx: DeliveryContext): Promise<AssetRow[]> {
  const ids = richTargets({ type: 'doc', content: [n] }).media;
  return (await ctx.loaders.asset.loadMany(ids)).filter((r): r is AssetRow => !!r && !(r instanceof Error));
}

export const CmsContentBlock = new GraphQLObjectType<RichNode, DeliveryContext>({
  name: 'CmsContentBlock',
  description: 'Deprecated: use the `<alias>_v2` field and CmsRichContentBlock.',
  fields: () => ({
    ...blockFields(CmsContentBlockMark, true),
    entries: {
      type: CmsEntryCollection,
      args: pageArgsConfig,
      resolve: async (n, args: PageArgs, ctx) => sliceCollection(await blockEntries(n, ctx), pageOf(args)),
    },
    media: {
      type: CmsMediaCollection,
      args: pageArgsConfig,
      resolve: async (n, args: PageArgs, ctx) => sliceCollection(await blockMedia(n, ctx), pageOf(args)),
    },
  }),
});

export const CmsRichContent = new GraphQLObjectType<RichContentValue, DeliveryContext>({
  name: 'CmsRichContent',
  fields: () => ({
    blocks: { type: new GraphQLList(CmsRichContentBlock), resolve: (v) => v.doc.content ?? [] },
    entries: {
      type: CmsEntryCollection,
      args: pageArgsConfig,
      description: 'Entries referenced by cms_reference blocks, in document order.',
      resolve: (v, args: PageArgs, ctx, info) => entriesFromField(ctx, v.row, { field: v.field, kind: 'rich_entry', allowedModels: [] }, pageOf(args), info),
    },
    media: {
      type: CmsAssetCollection,
      args: pageArgsConfig,
      deprecationReason: 'Use media_v2.',
      resolve: (v, args: PageArgs, ctx) => assetsFromField(ctx, v.row, { field: v.field, kind: 'rich_media' }, pageOf(args)),
    },
    media_v2: {
      type: CmsMediaCollection,
      args: pageArgsConfig,
      description: 'Media of cms_media blocks, in document order.',
      resolve: (v, args: PageArgs, ctx) => assetsFromField(ctx, v.row, { field: v.field, kind: 'rich_media' }, pageOf(args)),
    },
  }),
});
