import { GraphQLInt, GraphQLList, GraphQLObjectType, GraphQLString, type GraphQLOutputType } from 'graphql';
import { badRequest } from '../../errors/index.js';

/** `limit` default 20, maximum 500; anything larger is an error, never a silent cap. */
export const DEFAULT_LIMIT = 20;
export const MAX_LIMIT = 500;

export interface PageArgs {
  offset?: number | null;
  limit?: number | null;
}

export function pageOf(args: PageArgs): { offset: number; limit: number } {
  const limit = args.limit ?? DEFAULT_LIMIT;
  const offset = args.offset ?? 0;
  if (limit < 0 || limit > MAX_LIMIT) throw badRequest(`limit must be between 0 and ${MAX_LIMIT} (got ${limit}).`);
  if (offset < 0) throw badRequest(`offset must be 0 or more (got ${offset}).`);
  return { offset, limit };
}

/** The value behind every `…Collection` type; `total` and the token are made only when selected. */
export interface CollectionValue<T> {
  items: T[];
  offset: number;
  limit: number;
  continuationToken: () => string | null;
  total: () => Promise<number> | number;
}

const noToken = () => null;

export function collectionOf<T>(
  items: T[],
  page: { offset: number; limit: number },
  total: () => Promise<number> | number,
  token: () => string | null = noToken,
): CollectionValue<T> {
  let memo: Promise<number> | null = null;
  return { items, offset: page.offset, limit: page.limit, continuationToken: token, total: () => (memo ??= Promise.resolve(total())) };
}

/** Slices an in-memory list (e.g. a block's own targets) into a collection. */
export function sliceCollection<T>(all: T[], page: { offset: number; limit: number }): CollectionValue<T> {
  return collectionOf(all.slice(page.offset, page.offset + page.limit), page, () => all.length);
}

export function collectionType(name: string, item: () => GraphQLOutputType, description?: string): GraphQLObjectType {
  return new GraphQLObjectType<CollectionValue<unknown>>({
    name,
    description,
    fields: () => ({
      items: { type: new GraphQLList(item()) },
      offset: { type: GraphQLInt, description: 'Number of items skipped.' },
      limit: { type: GraphQLInt, description: 'Number of items requested.' },
      total: { type: GraphQLInt, description: 'Size of the whole collection (computed only when selected).', resolve: (c) => c.total() },
      continuationToken: {
        type: GraphQLString,
        // signing a token (an HMAC over the canonical request) is skipped when nobody asks for it
        resolve: (c) => c.continuationToken(),
        description: 'Cursor for the next page: given for offset 0 or a continuationToken request when more items exist.',
      },
    }),
  });
}

export const pageArgsConfig = { offset: { type: GraphQLInt }, limit: { type: GraphQLInt } };
