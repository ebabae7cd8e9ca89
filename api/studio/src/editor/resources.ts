import { keepPreviousData, useQuery } from '@tanstack/react-query';
import { get, m } from '../api';

// The organization's media, authors and sections as the editor's pickers read them.

export type ResourceKind = 'media' | 'author' | 'section';

export interface Resource {
  id: string;
  title?: string | null;
  name?: string | null;
  fileName?: string | null;
  firstName?: string | null;
  lastName?: string | null;
  tags?: string[] | null;
  type?: string | null;
  /** Media only: where the file is served. */
  url?: string;
}

/** An image the Studio may show: its CSP lets images come from its own origin only. */
export const thumbnailOf = (r: Resource | null | undefined): string | null =>
  r?.type === 'IMAGE' && r.url && new URL(r.url, location.href).origin === location.origin ? r.url : null;

const SOURCES: Record<ResourceKind, string> = { media: '/assets', author: '/authors', section: '/sections' };

/** What a picker calls one of them, in its buttons and names. */
export const NOUNS: Record<ResourceKind, string> = { media: 'media', author: 'an author', section: 'a section' };

export const nameOf = (r: Resource): string => r.title || r.name || [r.firstName, r.lastName].filter(Boolean).join(' ') || r.fileName || r.id;

/**
 * The newest hundred of a kind (the API's largest page), searched in the browser: the listings
 * of authors and sections take no search parameter.
 */
export const useResources = (kind: ResourceKind, enabled = true) =>
  useQuery({ queryKey: ['resources', kind], queryFn: () => get<Resource[]>(m(`${SOURCES[kind]}?pageSize=100`)), enabled, staleTime: 10_000 });

/**
 * The media whose title, file name or alt text hold every word of `query`, newest first, searched
 * by the API (so among all of them, not only the newest hundred); the newest when `query` is blank.
 */
export function useMediaSearch(query: string, enabled = true) {
  const params = new URLSearchParams({ pageSize: '20' });
  if (query.trim()) params.set('search', query.trim().slice(0, 200));
  return useQuery({
    queryKey: ['media-search', params.toString()],
    queryFn: () => get<Resource[]>(m(`/assets?${params}`)),
    enabled,
    staleTime: 10_000,
    // the last answer stays listed while the next word's is on its way
    placeholderData: keepPreviousData,
  });
}

/** Whether `r` matches the words typed: each word in its name, file name, tags or type. */
export function matches(r: Resource, query: string): boolean {
  const text = [nameOf(r), r.fileName, r.type, ...(r.tags ?? [])].filter(Boolean).join(' ').toLowerCase();
  return query
    .toLowerCase()
    .split(/\s+/)
    .filter(Boolean)
    .every((w) => text.includes(w));
}
