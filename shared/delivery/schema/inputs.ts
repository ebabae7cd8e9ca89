import {
  GraphQLBoolean,
  GraphQLFloat,
  GraphQLInputObjectType,
  GraphQLInt,
  GraphQLList,
  GraphQLNonNull,
  GraphQLString,
  type GraphQLInputFieldConfigMap,
  type GraphQLInputType,
} from 'graphql';
import {
  CmsAssetType,
  CmsEntryStatus,
  CmsImageFlip,
  CmsImageFormat,
  CmsImageSmartCrop,
  CmsImageTransformationGravity,
  CmsImageTransformationResize,
  CmsOrderDirection,
  CmsVideoTransformationFormat,
  CmsVideoTransformationOrientation,
} from './enums.js';
import { DateTimeScalar } from './scalars.js';

/** The API's filter inputs ("Filter input types" table) and the order/transform inputs. */
const list = (t: GraphQLInputType) => new GraphQLList(new GraphQLNonNull(t));

function filter(name: string, fields: (self: GraphQLInputObjectType) => GraphQLInputFieldConfigMap, description?: string) {
  const type: GraphQLInputObjectType = new GraphQLInputObjectType({ name, description, fields: () => fields(type) });
  return type;
}

const andOr = (self: GraphQLInputObjectType) => ({ and: { type: list(self) }, or: { type: list(self) } });

export const CmsBooleanFilter = filter('CmsBooleanFilter', () => ({ eq: { type: GraphQLBoolean }, ne: { type: GraphQLBoolean } }));

export const CmsDateTimeFilter = filter('CmsDateTimeFilter', (self) => ({
  eq: { type: DateTimeScalar },
  ne: { type: DateTimeScalar },
  lt: { type: DateTimeScalar },
  lte: { type: DateTimeScalar },
  gt: { type: DateTimeScalar },
  gte: { type: DateTimeScalar },
  exists: { type: GraphQLBoolean },
  ...andOr(self),
}));

const numberFilter = (name: string, scalar: GraphQLInputType) =>
  filter(name, (self) => ({
    eq: { type: scalar },
    ne: { type: scalar },
    lt: { type: scalar },
    lte: { type: scalar },
    gt: { type: scalar },
    gte: { type: scalar },
    in: { type: list(scalar) },
    notIn: { type: list(scalar) },
    exists: { type: GraphQLBoolean },
    ...andOr(self),
  }));

export const CmsFloatFilter = numberFilter('CmsFloatFilter', GraphQLFloat);
export const CmsIntFilter = numberFilter('CmsIntFilter', GraphQLInt);

const listFilter = (name: string, scalar: GraphQLInputType, description?: string) =>
  filter(name, () => ({ all: { type: list(scalar) }, some: { type: list(scalar) }, none: { type: list(scalar) } }), description);

export const CmsFloatListFilter = listFilter('CmsFloatListFilter', GraphQLFloat);
export const CmsIntListFilter = listFilter('CmsIntListFilter', GraphQLInt);
export const CmsStringListFilter = listFilter(
  'CmsStringListFilter',
  GraphQLString,
  'all: contains every value; some: contains at least one; none: contains none. Case-insensitive.',
);

export const CmsIdFilter = filter('CmsIdFilter', (self) => ({
  eq: { type: GraphQLString },
  ne: { type: GraphQLString },
  in: { type: list(GraphQLString) },
  notIn: { type: list(GraphQLString) },
  exists: { type: GraphQLBoolean },
  ...andOr(self),
}));

export const CmsStringFilter = filter(
  'CmsStringFilter',
  (self) => ({
    eq: { type: GraphQLString },
    ne: { type: GraphQLString },
    contains: { type: GraphQLString },
    notContains: { type: GraphQLString },
    startsWith: { type: GraphQLString },
    endsWith: { type: GraphQLString },
    in: { type: list(GraphQLString) },
    notIn: { type: list(GraphQLString) },
    startsWithAny: { type: list(GraphQLString) },
    endsWithAny: { type: list(GraphQLString) },
    exists: { type: GraphQLBoolean },
    ...andOr(self),
  }),
  'All string operators are case-insensitive.',
);

export const CmsComponentFieldFilter = filter(
  'CmsComponentFieldFilter',
  () => ({
    exists: { type: GraphQLBoolean },
    component: { type: CmsIdFilter, description: 'Alias of the component the value is (e.g. `{eq: "hero"}`).' },
  }),
  'Which component a component field holds; the values inside are not filterable.',
);

export const CmsComponentListFieldFilter = filter(
  'CmsComponentListFieldFilter',
  () => ({
    component: { type: CmsStringListFilter, description: 'Aliases of the components in the list: `all`, `some` or `none` of these.' },
  }),
  'Which components a list of components holds; the values inside are not filterable.',
);

export const CmsReferenceFieldFilter = filter('CmsReferenceFieldFilter', () => ({
  exists: { type: GraphQLBoolean },
  entryId: { type: CmsStringFilter },
  model: { type: CmsStringFilter, description: 'Model alias of the referenced entry.' },
}));

export const CmsReferenceListFieldFilter = filter('CmsReferenceListFieldFilter', () => ({
  entryId: { type: CmsStringListFilter },
  model: { type: CmsStringListFilter },
}));

export const CmsAssetTypeFilter = filter('CmsAssetTypeFilter', () => ({
  in: { type: list(CmsAssetType) },
  notIn: { type: list(CmsAssetType) },
  exists: { type: GraphQLBoolean },
}));

export const CmsAssetTypeListFilter = filter('CmsAssetTypeListFilter', () => ({
  all: { type: list(CmsAssetType) },
  none: { type: list(CmsAssetType) },
  some: { type: list(CmsAssetType) },
}));

export const CmsMediaFieldFilter = filter('CmsMediaFieldFilter', () => ({
  exists: { type: GraphQLBoolean },
  id: { type: CmsStringFilter },
  type: { type: CmsAssetTypeFilter },
}));

export const CmsMediaListFieldFilter = filter('CmsMediaListFieldFilter', () => ({
  id: { type: CmsStringListFilter },
  type: { type: CmsAssetTypeListFilter },
}));

export const CmsSectionFieldFilter = filter('CmsSectionFieldFilter', () => ({
  eq: { type: GraphQLString },
  ne: { type: GraphQLString },
  in: { type: list(GraphQLString) },
  notIn: { type: list(GraphQLString) },
  includeChildren: { type: GraphQLBoolean, description: 'Also match entries in every descendant of the given sections.' },
}));

export const CmsSectionListFieldFilter = filter('CmsSectionListFieldFilter', () => ({
  all: { type: list(GraphQLString) },
  some: { type: list(GraphQLString) },
  none: { type: list(GraphQLString) },
  includeChildren: { type: GraphQLBoolean },
}));

export const CmsAuthorFieldFilter = filter('CmsAuthorFieldFilter', () => ({
  eq: { type: GraphQLString },
  ne: { type: GraphQLString },
  in: { type: list(GraphQLString) },
  notIn: { type: list(GraphQLString) },
}));

export const CmsAuthorListFieldFilter = filter('CmsAuthorListFieldFilter', () => ({
  all: { type: list(GraphQLString) },
  some: { type: list(GraphQLString) },
  none: { type: list(GraphQLString) },
}));

export const CmsEntryStatusFilter = filter('CmsEntryStatusFilter', () => ({
  in: { type: list(CmsEntryStatus) },
  notIn: { type: list(CmsEntryStatus) },
  exists: { type: GraphQLBoolean },
}));

export const CmsSystemFilter = filter('CmsSystemFilter', (self) => ({
  title: { type: CmsStringFilter },
  slug: { type: CmsStringFilter },
  siteId: { type: CmsIdFilter },
  externalId: { type: CmsStringFilter },
  createdAt: { type: CmsDateTimeFilter },
  updatedAt: { type: CmsDateTimeFilter },
  publishedAt: { type: CmsDateTimeFilter },
  firstPublishedAt: { type: CmsDateTimeFilter },
  unpublishedAt: { type: CmsDateTimeFilter },
  status: { type: CmsEntryStatusFilter },
  labels: { type: CmsStringListFilter, description: 'Label ids or names.' },
  ...andOr(self),
}));

export const CmsRichContentBlockAttrsPropertiesFilter = filter('CmsRichContentBlockAttrsPropertiesFilter', () => ({
  key: { type: new GraphQLNonNull(GraphQLString) },
  value: { type: CmsStringFilter },
}));

export const CmsRichContentBlockAttrsFilter = filter('CmsRichContentBlockAttrsFilter', () => ({
  properties: { type: new GraphQLList(CmsRichContentBlockAttrsPropertiesFilter) },
}));

export const CmsRichContentBlockFilter = filter(
  'CmsRichContentBlockFilter',
  (self) => ({
    type: { type: CmsStringFilter },
    value: { type: CmsStringFilter, description: "The block's plain text (attrs.id for cms_reference / cms_media blocks)." },
    attrs: { type: CmsRichContentBlockAttrsFilter },
    ...andOr(self),
  }),
  'Matches when a single top-level block satisfies every condition.',
);

export const CmsRichContentFieldFilter = filter('CmsRichContentFieldFilter', (self) => ({
  exists: { type: GraphQLBoolean },
  blocks: { type: CmsRichContentBlockFilter },
  charCount: { type: CmsIntFilter },
  ...andOr(self),
}));

// --- orders ---------------------------------------------------------------------------------

export const CmsSystemOrder = new GraphQLInputObjectType({
  name: 'CmsSystemOrder',
  description: 'One key per order object.',
  fields: {
    ...Object.fromEntries(
      ['title', 'slug', 'createdAt', 'updatedAt', 'publishedAt', 'firstPublishedAt', 'unpublishedAt'].map((k) => [k, { type: CmsOrderDirection }]),
    ),
    traffic: {
      type: CmsOrderDirection,
      description:
        "Requests of the entry's pages over the last 7 days, bots left out (refreshed every minute); entries without any count 0. Root collections only; needs a token with the analytics scope as well.",
    },
    relevance: {
      type: CmsOrderDirection,
      description: 'How well the entry matches the collection\'s `search` (Postgres `ts_rank`); only with `search`, which orders by it (DESC) when no order is given.',
    },
  },
});

export const CmsEntryOrder: GraphQLInputObjectType = new GraphQLInputObjectType({
  name: 'CmsEntryOrder',
  description: 'One key per order object; thenBy breaks ties. Default: system.publishedAt DESC, then id ASC; nulls last.',
  fields: () => ({ id: { type: CmsOrderDirection }, system: { type: CmsSystemOrder }, thenBy: { type: new GraphQLList(CmsEntryOrder) } }),
});

// --- lists ----------------------------------------------------------------------------------

export const CmsListEntryFilter = filter('CmsListEntryFilter', (self) => ({
  startAt: { type: CmsDateTimeFilter },
  endAt: { type: CmsDateTimeFilter },
  displayedAt: { type: DateTimeScalar, description: 'Entries displayed at this instant: startAt null or ≤ it, endAt null or > it.' },
  and: { type: new GraphQLList(self) },
  or: { type: new GraphQLList(self) },
}));

export const CmsListEntryOrder = new GraphQLInputObjectType({
  name: 'CmsListEntryOrder',
  description: 'One key; default position ASC.',
  fields: { position: { type: CmsOrderDirection }, startAt: { type: CmsOrderDirection }, endAt: { type: CmsOrderDirection } },
});

const tableFilter = (name: string, fields: Record<string, GraphQLInputType>) =>
  filter(name, (self) => ({
    ...Object.fromEntries(Object.entries(fields).map(([k, t]) => [k, { type: t }])),
    and: { type: new GraphQLList(self) },
    or: { type: new GraphQLList(self) },
  }));

export const CmsListFilter = tableFilter('CmsListFilter', { id: CmsIdFilter, name: CmsStringFilter, siteId: CmsIdFilter, externalId: CmsStringFilter });
export const CmsSectionFilter = tableFilter('CmsSectionFilter', {
  id: CmsIdFilter,
  parentId: CmsIdFilter,
  title: CmsStringFilter,
  slug: CmsStringFilter,
  siteId: CmsIdFilter,
  externalId: CmsStringFilter,
});
export const CmsAuthorFilter = tableFilter('CmsAuthorFilter', {
  id: CmsIdFilter,
  byline: CmsStringFilter,
  firstName: CmsStringFilter,
  lastName: CmsStringFilter,
  email: CmsStringFilter,
  externalId: CmsStringFilter,
});
export const CmsLabelFilter = tableFilter('CmsLabelFilter', { id: CmsIdFilter, name: CmsStringFilter, siteId: CmsIdFilter });
export const CmsAssetFilter = tableFilter('CmsAssetFilter', {
  id: CmsIdFilter,
  title: CmsStringFilter,
  fileName: CmsStringFilter,
  contentType: CmsStringFilter,
  type: CmsIdFilter,
  externalId: CmsStringFilter,
});

// --- asset URLs -----------------------------------------------------------------------------

export const CmsImageCropRect = new GraphQLInputObjectType({
  name: 'CmsImageCropRect',
  description: 'Fractions 0 to 1 of the source from its top-left corner; the rectangle lies inside it.',
  fields: {
    x: { type: new GraphQLNonNull(GraphQLFloat) },
    y: { type: new GraphQLNonNull(GraphQLFloat) },
    width: { type: new GraphQLNonNull(GraphQLFloat) },
    height: { type: new GraphQLNonNull(GraphQLFloat) },
  },
});

export const CmsImageCropPixels = new GraphQLInputObjectType({
  name: 'CmsImageCropPixels',
  description: 'Whole pixels of the upright source from its top-left corner; the rectangle lies inside it.',
  fields: {
    x: { type: new GraphQLNonNull(GraphQLInt) },
    y: { type: new GraphQLNonNull(GraphQLInt) },
    width: { type: new GraphQLNonNull(GraphQLInt) },
    height: { type: new GraphQLNonNull(GraphQLInt) },
  },
});

export const CmsImageOverlay = new GraphQLInputObjectType({
  name: 'CmsImageOverlay',
  description: 'Placed by gravity (default SOUTH_EAST), touching the edges it names; scale: its width as a fraction of the result (default 0.25); opacity 0 to 1 (default 1).',
  fields: {
    assetId: { type: new GraphQLNonNull(GraphQLString) },
    gravity: { type: CmsImageTransformationGravity },
    opacity: { type: GraphQLFloat },
    scale: { type: GraphQLFloat },
    offsetX: { type: GraphQLInt, description: 'Pixels of the result away from the edge the gravity names (right from the centre where it names none), 0 to 8192; kept inside.' },
    offsetY: { type: GraphQLInt, description: 'Pixels of the result away from the edge the gravity names (down from the centre where it names none), 0 to 8192; kept inside.' },
  },
});

export const CmsAssetTransformation = new GraphQLInputObjectType({
  name: 'CmsAssetTransformation',
  fields: {
    width: { type: GraphQLInt },
    height: { type: GraphQLInt },
    resize: { type: CmsImageTransformationResize },
    quality: { type: GraphQLInt },
    gravity: { type: CmsImageTransformationGravity },
    format: { type: CmsVideoTransformationFormat },
    preset: { type: GraphQLString },
    orientation: { type: CmsVideoTransformationOrientation },
    upscale: { type: GraphQLBoolean, description: 'Allow an image larger than its source; without it an image is never enlarged (a smaller source keeps its size, or is cropped to the asked shape).' },
    imageFormat: {
      type: CmsImageFormat,
      description: "The image's output format (over a preset's and the source's); AUTO: AVIF, WebP or the source's format, by each request's Accept header (Vary: Accept).",
    },
    blur: { type: GraphQLInt, description: 'Gaussian blur of the image, 1 to 100 (sigma = blur / 2 pixels of the output).' },
    sharpen: { type: GraphQLInt, description: 'Sharpening of the image, 1 to 10 (sigma = sharpen / 2).' },
    dpr: {
      type: GraphQLFloat,
      description: 'Device pixel ratio, 1 to 4: multiplies width and height by one factor, within the source (unless upscale) and 8,192 pixels.',
    },
    smartCrop: { type: CmsImageSmartCrop, description: "With resize FILL: keep the most salient part (AUTO = ATTENTION); the asset's focal point, when set, wins." },
    rotate: { type: GraphQLInt, description: 'Rotation clockwise: 90, 180 or 270 (after the EXIF orientation, which is always applied, and the crop).' },
    flip: { type: CmsImageFlip },
    crop: { type: CmsImageCropRect, description: 'A rectangle cut out of the upright source before anything else.' },
    cropPixels: { type: CmsImageCropPixels, description: 'The same cut in pixels of the upright source (not with crop).' },
    trim: { type: GraphQLInt, description: 'Trim a uniform border (after the cut, before the rotation): how far a pixel may differ from the top-left one, 1 to 100.' },
    frame: { type: GraphQLInt, description: 'This frame (from 0) of an animated GIF or WebP, as a still; without it WebP and GIF output keep the animation (a resize, quality and grey only).' },
    autoQuality: { type: GraphQLBoolean, description: 'The quality chosen for the output format (WebP 75, AVIF 40, JPEG 80), over quality.' },
    background: { type: GraphQLString, description: 'A colour as #rrggbb: the fill of resize PAD and what transparency is flattened on (JPEG: white by default).' },
    grayscale: { type: GraphQLBoolean },
    overlay: { type: CmsImageOverlay, description: 'Another image asset of the organization drawn over the result (a watermark, a logo).' },
  },
});
