import { badRequest } from '../errors/index.js';
import type { OrgLocales } from './locale-types.js';

/** A full-text search of a collection: the words asked, and which vectors of `entry_search` it reads. */
export interface EntrySearch {
  text: string;
  /** `entry_search.locale`: '' for the default locale's values, else the locale's code. */
  locale: string;
  /** The locale code whose language stems the query (null: `simple`). */
  config: string | null;
}

export const MAX_SEARCH_LENGTH = 500;

/**
 * The search of a collection's `search` argument read in `locale` (the asked locale, or the
 * default when none is asked); null when no search is asked. Blank searches are refused: they
 * would match nothing.
 */
export function entrySearch(text: string | null | undefined, locale: string | null | undefined, locales: OrgLocales | null): EntrySearch | null {
  if (text === null || text === undefined) return null;
  if (text.trim() === '') throw badRequest('search: give at least one word.');
  if (text.length > MAX_SEARCH_LENGTH) throw badRequest(`search: at most ${MAX_SEARCH_LENGTH} characters.`);
  const defaultCode = locales?.defaultCode ?? null;
  const asked = locale ?? defaultCode;
  return { text, locale: asked === defaultCode || asked === null ? '' : asked, config: asked };
}

