import { GraphQLList, GraphQLNonNull, GraphQLObjectType, GraphQLString } from 'graphql';
import { countChildSections, countSectionMedia, findChildSections, findSectionMedia } from '../cms-repository.js';
import type { AssetRow, AuthorRow, ListRow, SectionRow } from '../cms-rows.js';
import type { DeliveryContext } from '../delivery-context.js';
import type { DeliveredEntryRow } from '../entry-row.js';
import { countListEntries, findListEntryPages, type ListEntryFilter, type ListEntryItem, type ListEntryOrder } from '../list-entry-repository.js';
import { entriesPointingAt } from '../relation-loads.js';
import { CmsAsset, CmsAssetCollection } from './asset-types.js';
import { collectionOf, collectionType, pageArgsConfig, pageOf, type PageArgs } from './collection.js';
import { CmsEntry, CmsEntryCollection } from './entry-interface.js';
import { CmsListEntryFilter, CmsListEntryOrder } from './inputs.js';
import { DateTimeScalar } from './scalars.js';

const str = { type: GraphQLString };
const col = <T>(c: keyof T) => ({ type: GraphQLString, resolve: (r: T) => r[c] });

/** Child pages of many parents through one keyed loader; rows carry `_parent`. */
function childPage<R extends { _parent: string }, V>(
  ctx: DeliveryContext,
  sig: string,
  parentId: string,
  page: { offset: number; limit: number },
  find: (ids: readonly string[]) => Promise<R[]>,
  count: (ids: readonly string[]) => Promise<Map<string, number>>,
  map: (r: R) => V,
) {
  const pages = ctx.loaders.keyed<string, V[]>(JSON.stringify([sig, page]), async (ids) => {
    const rows = await find(ids);
    return ids.map((id) => rows.filter((r) => r._parent === id).map(map));
  });
  const totals = ctx.loaders.keyed<string, number>(`${sig}:count`, async (ids) => {
    const m = await count(ids);
    return ids.map((id) => m.get(id) ?? 0);
  });
  return pages.load(parentId).then((items) => collectionOf(items.slice(0, page.limit), page, () => totals.load(parentId)));
}

export const CmsSection: GraphQLObjectType = new GraphQLObjectType<SectionRow, DeliveryContext>({
  name: 'CmsSection',
  fields: () => ({
    id: { type: new GraphQLNonNull(GraphQLString) },
    title: str,
    parentId: col<SectionRow>('parent_id'),
    slug: str,
    url: str,
    siteId: col<SectionRow>('site_id'),
    externalId: col<SectionRow>('external_id'),
    path: { type: new GraphQLList(CmsSection), description: 'Ancestors from the root down to this section.', resolve: (s, _a, ctx) => ctx.loaders.sectionPath.load(s.id) },
    parent: { type: CmsSection, resolve: (s, _a, ctx) => (s.parent_id ? ctx.loaders.section.load(s.parent_id) : null) },
    description: str,
    children: {
      type: CmsSectionCollection,
      args: pageArgsConfig,
      resolve: (s, args: PageArgs, ctx) =>
        childPage(ctx, 'section-children', s.id, pageOf(args), (ids) => findChildSections(ctx.db, ctx.orgId, ids, pageOf(args)), (ids) => countChildSections(ctx.db, ctx.orgId, ids), (r) => r),
    },
    media: {
      type: CmsAssetCollection,
      args: pageArgsConfig,
      resolve: (s, args: PageArgs, ctx) => {
        ctx.reads.cmsKind('assets');
        return childPage(ctx, 'section-media', s.id, pageOf(args), (ids) => findSectionMedia(ctx.db, ctx.orgId, ids, pageOf(args)), (ids) => countSectionMedia(ctx.db, ctx.orgId, ids), (r): AssetRow => r.j);
      },
    },
    references: {
      type: CmsEntryCollection,
      args: pageArgsConfig,
      description: 'Entries placed in this section.',
      resolve: (s, args: PageArgs, ctx, info) => entriesPointingAt(ctx, s.id, { kinds: ['section'], model: null }, pageOf(args), info),
    },
  }),
});

export const CmsSectionCollection: GraphQLObjectType = collectionType('CmsSectionCollection', () => CmsSection);

export const CmsAuthor = new GraphQLObjectType<AuthorRow, DeliveryContext>({
  name: 'CmsAuthor',
  fields: {
    id: { type: new GraphQLNonNull(GraphQLString) },
    userId: col<AuthorRow>('user_id'),
    byline: str,
    externalId: col<AuthorRow>('external_id'),
    firstName: col<AuthorRow>('first_name'),
    lastName: col<AuthorRow>('last_name'),
    url: str,
    imageId: col<AuthorRow>('image_id'),
    biography: str,
    profession: { type: new GraphQLList(new GraphQLNonNull(GraphQLString)) },
    email: str,
    website: str,
    facebook: str,
    instagram: str,
    twitter: str,
    linkedin: str,
    tiktok: str,
    telegram: str,
    image: { type: CmsAsset, resolve: (a, _args, ctx) => (a.image_id ? ctx.loaders.asset.load(a.image_id) : null) },
  },
});

export const CmsAuthorCollection = collectionType('CmsAuthorCollection', () => CmsAuthor);

export const CmsListEntry = new GraphQLObjectType<ListEntryItem>({
  name: 'CmsListEntry',
  fields: {
    startAt: { type: DateTimeScalar, resolve: (r) => r._start_at },
    endAt: { type: DateTimeScalar, resolve: (r) => r._end_at },
    entry: { type: CmsEntry, resolve: (r): DeliveredEntryRow => r },
  },
});

export const CmsListEntryCollection = collectionType('CmsListEntryCollection', () => CmsListEntry);

interface ListEntriesArgs extends PageArgs {
  where?: ListEntryFilter | null;
  order?: ListEntryOrder | null;
}

export const CmsList = new GraphQLObjectType<ListRow, DeliveryContext>({
  name: 'CmsList',
  fields: {
    id: { type: new GraphQLNonNull(GraphQLString) },
    name: str,
    description: str,
    siteId: col<ListRow>('site_id'),
    externalId: col<ListRow>('external_id'),
    entries: {
      type: CmsListEntryCollection,
      args: { ...pageArgsConfig, where: { type: CmsListEntryFilter }, order: { type: CmsListEntryOrder } },
      description: 'Entries the token may see, in list order unless `order` says otherwise; `where.displayedAt` keeps those displayed at an instant.',
      resolve: (l, args: ListEntriesArgs, ctx) => {
        const page = pageOf(args);
        const q = { orgId: ctx.orgId, scope: ctx.scope, where: args.where, order: args.order };
        ctx.reads.collection(null);
        return childPage(
          ctx,
          JSON.stringify(['list-entries', args.where ?? null, args.order ?? null]),
          l.id,
          page,
          (ids) => findListEntryPages(ctx.db, q, ids, page),
          (ids) => countListEntries(ctx.db, q, ids),
          (r) => r,
        );
      },
    },
  },
});

export const CmsListCollection = collectionType('CmsListCollection', () => CmsList);
