import { GraphQLBoolean, GraphQLFloat, GraphQLInt, GraphQLList, GraphQLNonNull, GraphQLObjectType, GraphQLString, type GraphQLFieldConfigMap } from 'graphql';
import { buildAssetUrl, buildSrcSet, overlayAssetIdOf, type AssetTransformationInput, type BuildAssetUrlContext, type BuildAssetUrlInput } from '../../assets/build-asset-url.js';
import type { AssetType, ImagePresetOptions } from '../../assets/types.js';
import type { AssetRow } from '../cms-rows.js';
import type { DeliveryContext } from '../delivery-context.js';
import { collectionType } from './collection.js';
import { CmsAssetType } from './enums.js';
import { CmsAssetTransformation } from './inputs.js';
import { LongScalar } from './scalars.js';

export const CmsFocalPoint = new GraphQLObjectType({
  name: 'CmsFocalPoint',
  description: 'Fractions from the top-left corner (0 to 1); the centre is (0.5, 0.5).',
  fields: { x: { type: GraphQLFloat }, y: { type: GraphQLFloat } },
});

export const CmsRatioFocalPoint = new GraphQLObjectType({
  name: 'CmsRatioFocalPoint',
  fields: { ratio: { type: new GraphQLNonNull(GraphQLString) }, focalPoint: { type: CmsFocalPoint } },
});

type UrlArgs = { transformation?: AssetTransformationInput | null; useFocalPoint?: boolean | null; focalPointRatio?: string | null };

/** What the URL builder needs of an asset row and the request. */
async function urlInput(ctx: DeliveryContext, a: AssetRow, args: UrlArgs): Promise<[BuildAssetUrlInput, BuildAssetUrlContext]> {
  const presets = args.transformation?.preset ? ((await ctx.loaders.presets()) as Map<string, ImagePresetOptions>) : new Map<string, ImagePresetOptions>();
  const watermark = ctx.imageWatermark ?? null;
  const overlayId = overlayAssetIdOf(args.transformation, presets, watermark);
  const overlayRow = overlayId ? await ctx.loaders.asset.load(overlayId) : null;
  return [
    {
      asset: {
        id: a.id,
        versionId: a.version_id,
        type: a.type as AssetType,
        contentType: a.content_type,
        fileName: a.file_name,
        focalPoint: a.focal_point,
        focalPoints: a.focal_points ?? [],
        posterAssetId: a.poster_asset_id,
        posterKey: a.poster_key ?? null,
        width: a.width,
        height: a.height,
      },
      orgId: ctx.orgId,
      transformation: args.transformation,
      useFocalPoint: args.useFocalPoint,
      focalPointRatio: args.focalPointRatio,
      overlayAsset: overlayRow ? { id: overlayRow.id, versionId: overlayRow.version_id, type: overlayRow.type as AssetType, contentType: overlayRow.content_type } : null,
    },
    { baseUrl: ctx.publicBaseUrl, secret: ctx.signing, presets, limits: ctx.imageLimits ?? undefined, watermark },
  ];
}

/** The URL of an asset through the assets engineer's builder (signed `/img`, `/files`, `/embed`). */
export async function assetUrl(ctx: DeliveryContext, a: AssetRow, args: UrlArgs): Promise<string | null> {
  return buildAssetUrl(...(await urlInput(ctx, a, args)));
}

/** `srcSet(widths, …)`: a `srcset` of signed derivative URLs, one per width. */
async function assetSrcSet(ctx: DeliveryContext, a: AssetRow, args: UrlArgs & { widths: number[] }): Promise<string | null> {
  const [input, urlContext] = await urlInput(ctx, a, args);
  return buildSrcSet(input, args.widths, urlContext);
}

const srcSetWidths = {
  type: new GraphQLNonNull(new GraphQLList(new GraphQLNonNull(GraphQLInt))),
  description: 'Output widths (1 to 20 of them, each 1–8192); those beyond the source are left out unless upscale.',
};

/** Fields shared by `CmsAsset` and `Media` (the asset behind a `CmsMedia`). */
function assetFields(): GraphQLFieldConfigMap<AssetRow, DeliveryContext> {
  return {
    id: { type: new GraphQLNonNull(GraphQLString) },
    title: { type: GraphQLString },
    contentType: { type: GraphQLString, resolve: (a) => a.content_type },
    fileName: { type: GraphQLString, resolve: (a) => a.file_name },
    path: { type: GraphQLString },
    caption: { type: GraphQLString },
    alt: { type: GraphQLString },
    author: { type: GraphQLString },
    source: { type: GraphQLString },
    size: { type: LongScalar },
    tags: { type: new GraphQLList(new GraphQLNonNull(GraphQLString)) },
    externalId: { type: GraphQLString, resolve: (a) => a.external_id },
    versionId: { type: GraphQLString, resolve: (a) => a.version_id },
    width: { type: GraphQLInt },
    height: { type: GraphQLInt },
    duration: { type: GraphQLFloat },
    type: { type: new GraphQLNonNull(CmsAssetType) },
    focalPoint: { type: CmsFocalPoint, resolve: (a) => a.focal_point },
    suggestedFocalPoint: {
      type: CmsFocalPoint,
      description: 'Where the subject of an image was found at upload (libvips attention): a suggestion for focalPoint, never used for crops; null for files, videos and SVG.',
      resolve: (a) => a.suggested_focal_point ?? null,
    },
    placeholder: { type: GraphQLString, description: 'A tiny blurred data: URI of the image (WebP, well under 1 KB) to show while it loads; null for other assets.' },
    url: {
      type: GraphQLString,
      args: { transformation: { type: CmsAssetTransformation }, useFocalPoint: { type: GraphQLBoolean } },
      resolve: (a, args: { transformation?: AssetTransformationInput | null; useFocalPoint?: boolean | null }, ctx) => assetUrl(ctx, a, args),
    },
    srcSet: {
      type: GraphQLString,
      description: 'A ready srcset value: "<url> 320w, <url> 640w, …" (null for assets served as originals only).',
      args: { widths: srcSetWidths, transformation: { type: CmsAssetTransformation }, useFocalPoint: { type: GraphQLBoolean } },
      resolve: (a, args: UrlArgs & { widths: number[] }, ctx) => assetSrcSet(ctx, a, args),
    },
  };
}

export const CmsAsset = new GraphQLObjectType<AssetRow, DeliveryContext>({ name: 'CmsAsset', fields: assetFields });

export const MediaType = new GraphQLObjectType<AssetRow, DeliveryContext>({
  name: 'Media',
  description: 'The asset behind a media field value.',
  fields: assetFields,
});

/** A media field value; resolved from the asset row it points at. */
export const CmsMedia = new GraphQLObjectType<AssetRow, DeliveryContext>({
  name: 'CmsMedia',
  fields: {
    id: { type: GraphQLString },
    type: { type: new GraphQLNonNull(CmsAssetType) },
    media: { type: MediaType, resolve: (a) => a },
    url: {
      type: GraphQLString,
      args: { transformation: { type: CmsAssetTransformation }, focalPointRatio: { type: GraphQLString } },
      resolve: (a, args: { transformation?: AssetTransformationInput | null; focalPointRatio?: string | null }, ctx) => assetUrl(ctx, a, args),
    },
    srcSet: {
      type: GraphQLString,
      description: 'A ready srcset value: "<url> 320w, <url> 640w, …" (null for assets served as originals only).',
      args: { widths: srcSetWidths, transformation: { type: CmsAssetTransformation }, focalPointRatio: { type: GraphQLString } },
      resolve: (a, args: UrlArgs & { widths: number[] }, ctx) => assetSrcSet(ctx, a, args),
    },
    focalPoints: { type: new GraphQLList(CmsRatioFocalPoint), resolve: (a) => a.focal_points ?? [] },
  },
});

export const CmsAssetCollection = collectionType('CmsAssetCollection', () => CmsAsset);
export const CmsMediaCollection = collectionType('CmsMediaCollection', () => CmsMedia);
