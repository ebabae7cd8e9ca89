/**
 * Which stored copy of a URL a cache holds for a request: Folio's answers vary on `Accept` (an
 * image's format, a GraphQL answer's media type) and, for pages, on `Origin`. A cache keeps one
 * copy per variant, and a purge of one URL reaches one copy: the purge must name each variant
 * Folio served. The cache is told to key on the same classes (the README's nginx `map`), so the
 * class is what this records, not the raw header (every browser version sends another).
 */
export type AcceptClass = 'avif' | 'webp' | 'graphql' | 'other';

export interface EdgeVariant {
  accept: AcceptClass;
  /** The request's `Origin` as sent; '' when it named none. */
  origin: string;
}

/**
 * The class of an `Accept` header, as the README's nginx `map` computes it: the first of these
 * that the header names — `image/avif`, `image/webp`, `application/graphql-response+json` — else
 * `other`. (Folio's own negotiation reads q-values too; a class only has to tell apart what it
 * answers differently to the headers clients send.)
 */
export function acceptClassOf(accept: string | undefined): AcceptClass {
  if (!accept) return 'other';
  const lower = accept.toLowerCase();
  if (lower.includes('image/avif')) return 'avif';
  if (lower.includes('image/webp')) return 'webp';
  if (lower.includes('application/graphql-response+json')) return 'graphql';
  return 'other';
}

/** The `Accept` a purge request sends to reach the copy of a class (the map gives it that class). */
export const ACCEPT_OF_CLASS: Readonly<Record<AcceptClass, string>> = {
  avif: 'image/avif',
  webp: 'image/webp',
  graphql: 'application/graphql-response+json',
  other: '*/*',
};

/** Origins longer than this are not recorded (no browser sends one): the copy ages out instead. */
const MAX_ORIGIN_LENGTH = 300;

/** A request's variant, from its headers; null when its `Origin` is too odd to record. */
export function variantOf(headers: { accept?: string; origin?: string }): EdgeVariant | null {
  const origin = headers.origin ?? '';
  // printable ASCII without spaces, as a serialized origin is (it is sent back in a header)
  if (origin.length > MAX_ORIGIN_LENGTH || /[^!-~]/.test(origin)) return null;
  return { accept: acceptClassOf(headers.accept), origin };
}

/** A variant as stored in `edge_urls.variants`: the class, a space, the origin. */
export const encodeVariant = (v: EdgeVariant): string => `${v.accept} ${v.origin}`;

export function decodeVariant(text: string): EdgeVariant | null {
  const space = text.indexOf(' ');
  const accept = text.slice(0, space) as AcceptClass;
  if (space === -1 || !(accept in ACCEPT_OF_CLASS)) return null;
  return { accept, origin: text.slice(space + 1) };
}
