import { createRequire } from 'node:module';
import { LRUCache } from 'lru-cache';

/** The part of `negotiator` (Express's content negotiation, which ships no types) used here. */
type NegotiatorClass = new (request: { headers: { accept?: string } }) => {
  /** The `available` media types the Accept header takes, best first (q, specificity, order). */
  mediaTypes(available: string[]): string[];
};
const Negotiator = createRequire(import.meta.url)('negotiator') as NegotiatorClass;

/** The media types a GraphQL result is answered in (yoga's regular result processor). */
export type GraphqlMediaType = 'application/json' | 'application/graphql-response+json';

/**
 * Offered in this order, so that a tie (`*∕*`, no Accept) is application/json, as yoga answers
 * it. Each with `charset=utf-8`: an Accept that names another charset takes neither (yoga answers
 * it).
 */
const OFFERED = ['application/json;charset=utf-8', 'application/graphql-response+json;charset=utf-8'];

const chosen = new LRUCache<string, GraphqlMediaType | 'none'>({ max: 1000 });
const MAX_REMEMBERED_LENGTH = 512;

/**
 * The JSON media type a GraphQL answer takes for this `Accept`, negotiated as a media-type list
 * (RFC 9110: q-values, then specificity, then the order listed), so clients' defaults — urql's
 * `application/graphql-response+json, application/graphql+json, application/json,
 * text/event-stream, multipart/mixed`, axios's `application/json, text/plain, *∕*` — are answered
 * like the exact types. Null when neither JSON type is acceptable, or when the request names
 * `text/html` (a browser: yoga shows it GraphiQL).
 */
export function graphqlMediaTypeOf(accept: string | undefined): GraphqlMediaType | null {
  const header = accept ?? '';
  let known = chosen.get(header);
  if (known === undefined) {
    known = negotiate(header);
    // a few clients send a few short headers: bounded in count and length, so odd ones cannot grow it
    if (header.length <= MAX_REMEMBERED_LENGTH) chosen.set(header, known);
  }
  return known === 'none' ? null : known;
}

function negotiate(accept: string): GraphqlMediaType | 'none' {
  if (accept.toLowerCase().includes('text/html')) return 'none';
  const best = new Negotiator({ headers: { accept: accept === '' ? undefined : accept } }).mediaTypes(OFFERED)[0];
  if (best === undefined) return 'none';
  return best.startsWith('application/json') ? 'application/json' : 'application/graphql-response+json';
}
