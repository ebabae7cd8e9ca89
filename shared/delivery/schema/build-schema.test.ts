import { describe, expect, it } from 'vitest';
import type { FieldDefinition, ModelDefinition } from '../../content/model-types.js';
import { graphqlSync, isEnumType, isInputObjectType, isInterfaceType, isObjectType, type GraphQLSchema } from 'graphql';
import { buildDeliverySchema } from './build-schema.js';

/** The schema's tables, type by type: every generated and built-in type, field and argument with its type. */
const f = (alias: string, type: FieldDefinition['type'], extra: Partial<FieldDefinition> = {}): FieldDefinition => ({
  alias,
  type,
  valueType: 'single',
  allowedModels: [],
  required: false,
  ...extra,
});

const MODELS: ModelDefinition[] = [
  {
    id: 'm1',
    alias: 'blogPost',
    name: 'Blog post',
    titleField: 'title',
    fields: [
      f('title', 'text'),
      f('texts', 'text', { valueType: 'list' }),
      f('count', 'number', { numberFormat: 'int' }),
      f('counts', 'number', { valueType: 'list' }),
      f('price', 'number', { numberFormat: 'decimal' }),
      f('prices', 'number', { valueType: 'list', numberFormat: 'decimal' }),
      f('when', 'datetime'),
      f('ok', 'boolean'),
      f('data', 'json'),
      f('place', 'location'),
      f('anyRef', 'reference'),
      f('twoRef', 'reference', { allowedModels: ['person', 'blogPost'] }),
      f('personRef', 'reference', { allowedModels: ['person'] }),
      f('anyRefs', 'reference', { valueType: 'list' }),
      f('personRefs', 'reference', { valueType: 'list', allowedModels: ['person'] }),
      f('image', 'media'),
      f('images', 'media', { valueType: 'list' }),
      f('summary', 'richtext'),
      f('body', 'richcontent'),
      f('writer', 'author'),
      f('writers', 'author', { valueType: 'list' }),
      f('tag', 'tag'),
      f('tags', 'tag', { valueType: 'list' }),
      f('section', 'section'),
      f('sections', 'section', { valueType: 'list' }),
      f('link', 'url'),
    ],
  },
  { id: 'm2', alias: 'person', name: 'Person', titleField: 'name', fields: [f('name', 'text')] },
];

const schema = buildDeliverySchema(MODELS);

/** `{field: 'Type'}` of an object, interface or input type (SDL notation, arguments in parentheses). */
function fieldsOf(s: GraphQLSchema, name: string, withArgs = false): Record<string, string> {
  const t = s.getType(name);
  if (!t || !(isObjectType(t) || isInterfaceType(t) || isInputObjectType(t))) throw new Error(`no type ${name}`);
  const out: Record<string, string> = {};
  for (const [k, v] of Object.entries(t.getFields())) {
    const fieldArgs = (v as { args?: Array<{ name: string; type: unknown }> }).args ?? [];
    const args = withArgs && fieldArgs.length ? `(${fieldArgs.map((a) => `${a.name}: ${String(a.type)}`).join(', ')})` : '';
    out[k] = args + String(v.type);
  }
  return out;
}

const enumValues = (name: string) => {
  const t = schema.getType(name);
  if (!isEnumType(t)) throw new Error(`${name} is not an enum`);
  return t.getValues().map((v) => v.name);
};

const PAGE = '(offset: Int, limit: Int)';

describe('field type mapping on the generated type', () => {
  it('maps every model field type, single and list', () => {
    expect(fieldsOf(schema, 'BlogPost', true)).toEqual({
      id: 'String!',
      system: 'CmsSystem',
      attrs: 'Json',
      title: 'String',
      texts: '[String]',
      count: 'Int',
      counts: '[Int]',
      price: 'Decimal',
      prices: '[Decimal]',
      when: 'DateTime',
      ok: 'Boolean',
      data: 'Json',
      place: 'CmsLocation',
      anyRef: 'CmsEntry',
      twoRef: 'CmsEntry',
      personRef: 'Person',
      anyRefs: `${PAGE}CmsEntryCollection`,
      personRefs: `${PAGE}PersonCollection`,
      image: 'CmsMedia',
      images: '[CmsMedia]',
      summary: 'String',
      body: '[CmsContentBlock!]',
      body_v2: 'CmsRichContent',
      writer: 'CmsAuthor',
      writers: '[CmsAuthor]',
      tag: 'String',
      tags: '[String]',
      section: 'CmsSection',
      sections: '[CmsSection]',
      link: 'String',
      relations: 'BlogPostRelations',
    });
    const t = schema.getType('BlogPost');
    expect(isObjectType(t) && t.getInterfaces().map((i) => i.name)).toEqual(['CmsEntry']);
    expect(isObjectType(t) && t.getFields().body.deprecationReason).toBe('Use body_v2.');
  });

  it('answers introspection for the generated types', () => {
    const r = graphqlSync({ schema, source: '{ __type(name: "BlogPostCollection") { name fields { name type { name kind } } } }' });
    expect(r.errors).toBeUndefined();
    expect(r.data?.__type).toEqual({
      name: 'BlogPostCollection',
      fields: [
        { name: 'items', type: { name: null, kind: 'LIST' } },
        { name: 'offset', type: { name: 'Int', kind: 'SCALAR' } },
        { name: 'limit', type: { name: 'Int', kind: 'SCALAR' } },
        { name: 'total', type: { name: 'Int', kind: 'SCALAR' } },
        { name: 'continuationToken', type: { name: 'String', kind: 'SCALAR' } },
      ],
    });
  });
});

describe('generated types per model', () => {
  it('<Type>Filter has one field per filterable model field plus id, system, and, or', () => {
    expect(fieldsOf(schema, 'BlogPostFilter')).toEqual({
      id: 'CmsIdFilter',
      title: 'CmsStringFilter',
      texts: 'CmsStringListFilter',
      count: 'CmsIntFilter',
      counts: 'CmsIntListFilter',
      price: 'CmsFloatFilter',
      prices: 'CmsFloatListFilter',
      when: 'CmsDateTimeFilter',
      ok: 'CmsBooleanFilter',
      anyRef: 'CmsReferenceFieldFilter',
      twoRef: 'CmsReferenceFieldFilter',
      personRef: 'CmsReferenceFieldFilter',
      anyRefs: 'CmsReferenceListFieldFilter',
      personRefs: 'CmsReferenceListFieldFilter',
      image: 'CmsMediaFieldFilter',
      images: 'CmsMediaListFieldFilter',
      summary: 'CmsStringFilter',
      body: 'CmsRichContentFieldFilter',
      writer: 'CmsAuthorFieldFilter',
      writers: 'CmsAuthorListFieldFilter',
      tag: 'CmsStringFilter',
      tags: 'CmsStringListFilter',
      section: 'CmsSectionFieldFilter',
      sections: 'CmsSectionListFieldFilter',
      link: 'CmsStringFilter',
      system: 'CmsSystemFilter',
      and: '[BlogPostFilter]',
      or: '[BlogPostFilter]',
    });
  });

  it('<Type>Order has id, each orderable field, system and thenBy', () => {
    expect(fieldsOf(schema, 'BlogPostOrder')).toEqual({
      id: 'CmsOrderDirection',
      title: 'CmsOrderDirection',
      count: 'CmsOrderDirection',
      price: 'CmsOrderDirection',
      when: 'CmsOrderDirection',
      ok: 'CmsOrderDirection',
      tag: 'CmsOrderDirection',
      link: 'CmsOrderDirection',
      system: 'CmsSystemOrder',
      thenBy: '[BlogPostOrder]',
    });
    expect(enumValues('CmsOrderDirection')).toEqual(['ASC', 'DESC']);
  });

  it('<Type>Relations implements EntryRelations with referrers, entryCollection and next entries', () => {
    expect(fieldsOf(schema, 'PersonRelations', true)).toEqual({
      entryCollection: '(offset: Int, limit: Int, where: CmsEntryFilter, order: CmsEntryOrder)CmsEntryCollection',
      blogPostCollection: '(offset: Int, limit: Int, where: BlogPostFilter, order: BlogPostOrder)BlogPostCollection',
      nextPersonEntryCollection: '(limit: Int, order: PersonOrder, where: PersonFilter)PersonCollection',
    });
    const r = schema.getType('PersonRelations');
    expect(isObjectType(r) && r.getInterfaces().map((i) => i.name)).toEqual(['EntryRelations']);
    expect(fieldsOf(schema, 'EntryRelations', true)).toEqual({ entryCollection: '(offset: Int, limit: Int, where: CmsEntryFilter, order: CmsEntryOrder)CmsEntryCollection' });
  });
});

describe('root query fields', () => {
  it('has <alias>, <alias>Collection, entry, entryCollection and the cms roots', () => {
    expect(fieldsOf(schema, 'Query', true)).toEqual({
      blogPost: '(id: String)BlogPost',
      blogPostCollection: '(offset: Int, limit: Int, where: BlogPostFilter, order: BlogPostOrder, continuationToken: String, search: String)BlogPostCollection',
      person: '(id: String)Person',
      personCollection: '(offset: Int, limit: Int, where: PersonFilter, order: PersonOrder, continuationToken: String, search: String)PersonCollection',
      entry: '(id: String)CmsEntry',
      entryCollection: '(offset: Int, limit: Int, where: CmsEntryFilter, order: CmsEntryOrder, continuationToken: String, search: String)CmsEntryCollection',
      cmsAsset: '(id: String)CmsAsset',
      cmsAssetCollection: '(offset: Int, limit: Int, where: CmsAssetFilter)CmsAssetCollection',
      cmsSection: '(id: String)CmsSection',
      cmsSectionCollection: '(offset: Int, limit: Int, where: CmsSectionFilter)CmsSectionCollection',
      cmsAuthor: '(id: String)CmsAuthor',
      cmsAuthorCollection: '(offset: Int, limit: Int, where: CmsAuthorFilter)CmsAuthorCollection',
      cmsLabelCollection: '(offset: Int, limit: Int, where: CmsLabelFilter)CmsLabelCollection',
      cmsList: '(id: String)CmsList',
      cmsListCollection: '(offset: Int, limit: Int, where: CmsListFilter)CmsListCollection',
    });
  });

  it('builds a valid schema with no models at all', () => {
    const empty = buildDeliverySchema([]);
    expect(Object.keys(fieldsOf(empty, 'Query'))).toContain('entryCollection');
    expect(fieldsOf(empty, 'CmsEntryFilter')).toEqual({ id: 'CmsIdFilter', system: 'CmsSystemFilter', and: '[CmsEntryFilter]', or: '[CmsEntryFilter]' });
  });
});

describe('built-in types', () => {
  it('CmsEntry, CmsSystem, CmsMetrics, CmsLocation', () => {
    expect(fieldsOf(schema, 'CmsEntry')).toEqual({ id: 'String!', system: 'CmsSystem', attrs: 'Json' });
    expect(fieldsOf(schema, 'CmsSystem')).toEqual({
      title: 'String',
      slug: 'String',
      clonedFrom: 'String',
      modelAlias: 'String',
      modelId: 'String',
      externalId: 'String',
      versionId: 'String!',
      siteId: 'String!',
      metrics: 'CmsMetrics',
      labels: '[CmsLabel]',
      status: 'CmsEntryStatus',
      publishedAt: 'DateTime',
      firstPublishedAt: 'DateTime',
      createdAt: 'DateTime',
      updatedAt: 'DateTime',
      unpublishedAt: 'DateTime',
      traffic: 'CmsTraffic!',
    });
    expect(fieldsOf(schema, 'CmsTraffic')).toEqual({ requests: 'Int!', visitors: 'Int!', bytes: 'Float!' });
    expect(enumValues('CmsEntryStatus')).toEqual(['PUBLISHED', 'DELETED', 'DRAFT', 'UNPUBLISHED', 'ARCHIVED', 'SCHEDULED', 'EDITED']);
    expect(fieldsOf(schema, 'CmsMetrics')).toEqual({ wordCount: 'Int', characterCount: 'Int', sentenceCount: 'Int', imageCount: 'Int', readingTime: 'Int' });
    expect(fieldsOf(schema, 'CmsLocation')).toEqual({ address: 'String', latitude: 'String', longitude: 'String' });
  });

  it('CmsMedia, Media, CmsAsset, focal points and asset enums', () => {
    expect(fieldsOf(schema, 'CmsMedia', true)).toEqual({
      id: 'String',
      type: 'CmsAssetType!',
      media: 'Media',
      url: '(transformation: CmsAssetTransformation, focalPointRatio: String)String',
      srcSet: '(widths: [Int!]!, transformation: CmsAssetTransformation, focalPointRatio: String)String',
      focalPoints: '[CmsRatioFocalPoint]',
    });
    const asset = {
      id: 'String!',
      title: 'String',
      contentType: 'String',
      fileName: 'String',
      path: 'String',
      caption: 'String',
      alt: 'String',
      author: 'String',
      source: 'String',
      size: 'Long',
      tags: '[String!]',
      externalId: 'String',
      versionId: 'String',
      width: 'Int',
      height: 'Int',
      duration: 'Float',
      type: 'CmsAssetType!',
      focalPoint: 'CmsFocalPoint',
      suggestedFocalPoint: 'CmsFocalPoint',
      placeholder: 'String',
      url: '(transformation: CmsAssetTransformation, useFocalPoint: Boolean)String',
      // added for the browser: a ready srcset
      srcSet: '(widths: [Int!]!, transformation: CmsAssetTransformation, useFocalPoint: Boolean)String',
    };
    expect(fieldsOf(schema, 'CmsAsset', true)).toEqual(asset);
    expect(fieldsOf(schema, 'Media', true)).toEqual(asset);
    expect(fieldsOf(schema, 'CmsRatioFocalPoint')).toEqual({ ratio: 'String!', focalPoint: 'CmsFocalPoint' });
    expect(fieldsOf(schema, 'CmsFocalPoint')).toEqual({ x: 'Float', y: 'Float' });
    expect(enumValues('CmsAssetType')).toEqual(['IMAGE', 'FILE', 'VIDEO', 'VIDEO_PLAYLIST', 'AUDIO', 'PODCAST']);
    expect(fieldsOf(schema, 'CmsAssetTransformation')).toEqual({
      width: 'Int',
      height: 'Int',
      resize: 'CmsImageTransformationResize',
      quality: 'Int',
      gravity: 'CmsImageTransformationGravity',
      format: 'CmsVideoTransformationFormat',
      preset: 'String',
      orientation: 'CmsVideoTransformationOrientation',
      // added to the API's fields: enlarging beyond the source is opt-in
      upscale: 'Boolean',
      // added for the browser: a fixed output format, and a device pixel ratio
      imageFormat: 'CmsImageFormat',
      dpr: 'Float',
      // and image effects
      blur: 'Int',
      sharpen: 'Int',
      // and the everyday edits: smart crop, rotation, mirroring, a crop rectangle, background, grey
      smartCrop: 'CmsImageSmartCrop',
      rotate: 'Int',
      flip: 'CmsImageFlip',
      crop: 'CmsImageCropRect',
      background: 'String',
      grayscale: 'Boolean',
      overlay: 'CmsImageOverlay',
      // and q_auto, a cut in pixels, a trim
      cropPixels: 'CmsImageCropPixels',
      trim: 'Int',
      autoQuality: 'Boolean',
      frame: 'Int',
    });
    expect(fieldsOf(schema, 'CmsImageCropPixels')).toEqual({ x: 'Int!', y: 'Int!', width: 'Int!', height: 'Int!' });
    expect(fieldsOf(schema, 'CmsImageOverlay')).toEqual({ assetId: 'String!', gravity: 'CmsImageTransformationGravity', opacity: 'Float', scale: 'Float', offsetX: 'Int', offsetY: 'Int' });
    expect(fieldsOf(schema, 'CmsImageCropRect')).toEqual({ x: 'Float!', y: 'Float!', width: 'Float!', height: 'Float!' });
    expect(enumValues('CmsImageSmartCrop')).toEqual(['AUTO', 'ATTENTION', 'ENTROPY']);
    expect(enumValues('CmsImageFlip')).toEqual(['HORIZONTAL', 'VERTICAL', 'BOTH']);
    expect(enumValues('CmsImageFormat')).toEqual(['AUTO', 'AVIF', 'WEBP', 'JPEG', 'PNG']);
    // PAD added after the API's values
    expect(enumValues('CmsImageTransformationResize')).toEqual(['FIT', 'FILL', 'AUTO', 'PAD']);
    expect(enumValues('CmsImageTransformationGravity')).toEqual(['NORTH', 'SOUTH', 'EAST', 'WEST', 'NORTH_EAST', 'NORTH_WEST', 'SOUTH_EAST', 'SOUTH_WEST', 'CENTER']);
    expect(enumValues('CmsVideoTransformationFormat')).toEqual(['THUMBNAIL', 'HTML', 'JS', 'JSON']);
    expect(enumValues('CmsVideoTransformationOrientation')).toEqual(['HORIZONTAL', 'VERTICAL']);
  });

  it('rich content and content blocks', () => {
    expect(fieldsOf(schema, 'CmsRichContent', true)).toEqual({
      blocks: '[CmsRichContentBlock]',
      entries: `${PAGE}CmsEntryCollection`,
      media: `${PAGE}CmsAssetCollection`,
      media_v2: `${PAGE}CmsMediaCollection`,
    });
    expect(fieldsOf(schema, 'CmsRichContentBlock')).toEqual({ type: 'String', text: 'String', content: 'Json', marks: '[CmsRichContentBlockMark]', attrs: 'Json', contentHTML: 'String' });
    expect(fieldsOf(schema, 'CmsRichContentBlockMark')).toEqual({ type: 'String', attrs: 'Json' });
    expect(fieldsOf(schema, 'CmsContentBlock', true)).toEqual({
      type: 'String',
      text: 'String',
      content: 'Json',
      marks: '[CmsContentBlockMark!]',
      attrs: 'Json',
      contentHTML: 'String',
      entries: `${PAGE}CmsEntryCollection`,
      media: `${PAGE}CmsMediaCollection`,
    });
    expect(fieldsOf(schema, 'CmsContentBlockMark')).toEqual({ type: 'String', attrs: 'Json' });
  });

  it('sections, labels, authors, lists', () => {
    expect(fieldsOf(schema, 'CmsSection', true)).toEqual({
      id: 'String!',
      title: 'String',
      parentId: 'String',
      slug: 'String',
      url: 'String',
      siteId: 'String',
      externalId: 'String',
      path: '[CmsSection]',
      parent: 'CmsSection',
      description: 'String',
      children: `${PAGE}CmsSectionCollection`,
      media: `${PAGE}CmsAssetCollection`,
      references: `${PAGE}CmsEntryCollection`,
    });
    expect(fieldsOf(schema, 'CmsLabel')).toEqual({ id: 'String!', name: 'String', description: 'String', color: 'String', siteId: 'String', externalId: 'String' });
    const s = 'String';
    expect(fieldsOf(schema, 'CmsAuthor')).toEqual({
      id: 'String!',
      userId: s,
      byline: s,
      externalId: s,
      firstName: s,
      lastName: s,
      url: s,
      imageId: s,
      biography: s,
      profession: '[String!]',
      email: s,
      website: s,
      facebook: s,
      instagram: s,
      twitter: s,
      linkedin: s,
      tiktok: s,
      telegram: s,
      image: 'CmsAsset',
    });
    expect(fieldsOf(schema, 'CmsList', true)).toEqual({
      id: 'String!',
      name: s,
      description: s,
      siteId: s,
      externalId: s,
      entries: '(offset: Int, limit: Int, where: CmsListEntryFilter, order: CmsListEntryOrder)CmsListEntryCollection',
    });
    expect(fieldsOf(schema, 'CmsListEntry')).toEqual({ startAt: 'DateTime', endAt: 'DateTime', entry: 'CmsEntry' });
    expect(fieldsOf(schema, 'CmsListEntryFilter')).toEqual({ startAt: 'CmsDateTimeFilter', endAt: 'CmsDateTimeFilter', displayedAt: 'DateTime', and: '[CmsListEntryFilter]', or: '[CmsListEntryFilter]' });
    expect(fieldsOf(schema, 'CmsListEntryOrder')).toEqual({ position: 'CmsOrderDirection', startAt: 'CmsOrderDirection', endAt: 'CmsOrderDirection' });
  });

  it('collections share one shape', () => {
    for (const name of ['CmsAssetCollection', 'CmsMediaCollection', 'CmsSectionCollection', 'CmsEntryCollection', 'CmsListEntryCollection', 'PersonCollection']) {
      expect(Object.keys(fieldsOf(schema, name))).toEqual(['items', 'offset', 'limit', 'total', 'continuationToken']);
    }
  });

  it('scalars', () => {
    for (const name of ['DateTime', 'Json', 'Decimal', 'Long']) expect(schema.getType(name)?.name).toBe(name);
  });
});

describe('filter inputs', () => {
  const L = (t: string) => `[${t}!]`;
  it.each([
    ['CmsBooleanFilter', { eq: 'Boolean', ne: 'Boolean' }],
    ['CmsDateTimeFilter', { eq: 'DateTime', ne: 'DateTime', lt: 'DateTime', lte: 'DateTime', gt: 'DateTime', gte: 'DateTime', exists: 'Boolean', and: L('CmsDateTimeFilter'), or: L('CmsDateTimeFilter') }],
    ['CmsFloatFilter', { eq: 'Float', ne: 'Float', lt: 'Float', lte: 'Float', gt: 'Float', gte: 'Float', in: L('Float'), notIn: L('Float'), exists: 'Boolean', and: L('CmsFloatFilter'), or: L('CmsFloatFilter') }],
    ['CmsFloatListFilter', { all: L('Float'), some: L('Float'), none: L('Float') }],
    ['CmsIdFilter', { eq: 'String', ne: 'String', in: L('String'), notIn: L('String'), exists: 'Boolean', and: L('CmsIdFilter'), or: L('CmsIdFilter') }],
    ['CmsIntFilter', { eq: 'Int', ne: 'Int', lt: 'Int', lte: 'Int', gt: 'Int', gte: 'Int', in: L('Int'), notIn: L('Int'), exists: 'Boolean', and: L('CmsIntFilter'), or: L('CmsIntFilter') }],
    ['CmsIntListFilter', { all: L('Int'), some: L('Int'), none: L('Int') }],
    [
      'CmsStringFilter',
      {
        eq: 'String',
        ne: 'String',
        contains: 'String',
        notContains: 'String',
        startsWith: 'String',
        endsWith: 'String',
        in: L('String'),
        notIn: L('String'),
        startsWithAny: L('String'),
        endsWithAny: L('String'),
        exists: 'Boolean',
        and: L('CmsStringFilter'),
        or: L('CmsStringFilter'),
      },
    ],
    ['CmsStringListFilter', { all: L('String'), some: L('String'), none: L('String') }],
    ['CmsReferenceFieldFilter', { exists: 'Boolean', entryId: 'CmsStringFilter', model: 'CmsStringFilter' }],
    ['CmsReferenceListFieldFilter', { entryId: 'CmsStringListFilter', model: 'CmsStringListFilter' }],
    ['CmsMediaFieldFilter', { exists: 'Boolean', id: 'CmsStringFilter', type: 'CmsAssetTypeFilter' }],
    ['CmsMediaListFieldFilter', { id: 'CmsStringListFilter', type: 'CmsAssetTypeListFilter' }],
    ['CmsAssetTypeFilter', { in: L('CmsAssetType'), notIn: L('CmsAssetType'), exists: 'Boolean' }],
    ['CmsAssetTypeListFilter', { all: L('CmsAssetType'), none: L('CmsAssetType'), some: L('CmsAssetType') }],
    ['CmsSectionFieldFilter', { eq: 'String', ne: 'String', in: L('String'), notIn: L('String'), includeChildren: 'Boolean' }],
    ['CmsSectionListFieldFilter', { all: L('String'), some: L('String'), none: L('String'), includeChildren: 'Boolean' }],
    ['CmsAuthorFieldFilter', { eq: 'String', ne: 'String', in: L('String'), notIn: L('String') }],
    ['CmsAuthorListFieldFilter', { all: L('String'), some: L('String'), none: L('String') }],
    ['CmsEntryStatusFilter', { in: L('CmsEntryStatus'), notIn: L('CmsEntryStatus'), exists: 'Boolean' }],
    [
      'CmsSystemFilter',
      {
        title: 'CmsStringFilter',
        slug: 'CmsStringFilter',
        siteId: 'CmsIdFilter',
        externalId: 'CmsStringFilter',
        createdAt: 'CmsDateTimeFilter',
        updatedAt: 'CmsDateTimeFilter',
        publishedAt: 'CmsDateTimeFilter',
        firstPublishedAt: 'CmsDateTimeFilter',
        unpublishedAt: 'CmsDateTimeFilter',
        status: 'CmsEntryStatusFilter',
        labels: 'CmsStringListFilter',
        and: L('CmsSystemFilter'),
        or: L('CmsSystemFilter'),
      },
    ],
    ['CmsRichContentFieldFilter', { exists: 'Boolean', blocks: 'CmsRichContentBlockFilter', charCount: 'CmsIntFilter', and: L('CmsRichContentFieldFilter'), or: L('CmsRichContentFieldFilter') }],
    ['CmsRichContentBlockFilter', { type: 'CmsStringFilter', value: 'CmsStringFilter', attrs: 'CmsRichContentBlockAttrsFilter', and: L('CmsRichContentBlockFilter'), or: L('CmsRichContentBlockFilter') }],
    ['CmsRichContentBlockAttrsFilter', { properties: '[CmsRichContentBlockAttrsPropertiesFilter]' }],
    ['CmsRichContentBlockAttrsPropertiesFilter', { key: 'String!', value: 'CmsStringFilter' }],
    ['CmsEntryFilter', { id: 'CmsIdFilter', blogPost: 'BlogPostFilter', person: 'PersonFilter', system: 'CmsSystemFilter', and: '[CmsEntryFilter]', or: '[CmsEntryFilter]' }],
    ['CmsEntryOrder', { id: 'CmsOrderDirection', system: 'CmsSystemOrder', thenBy: '[CmsEntryOrder]' }],
    [
      'CmsSystemOrder',
      {
        title: 'CmsOrderDirection',
        slug: 'CmsOrderDirection',
        createdAt: 'CmsOrderDirection',
        updatedAt: 'CmsOrderDirection',
        publishedAt: 'CmsOrderDirection',
        firstPublishedAt: 'CmsOrderDirection',
        unpublishedAt: 'CmsOrderDirection',
        traffic: 'CmsOrderDirection',
        relevance: 'CmsOrderDirection',
      },
    ],
  ])('%s', (name, fields) => {
    expect(fieldsOf(schema, name)).toEqual(fields);
  });
});
