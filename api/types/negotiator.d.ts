/** The part of `negotiator` (Express's content negotiation) Folio uses; it ships no types. */
declare module 'negotiator' {
  export default class Negotiator {
    constructor(request: { headers: Record<string, string | string[] | undefined> });
    /** The `available` media types the Accept header takes, best first (q, specificity, order). */
    mediaTypes(available?: string[]): string[];
  }
}
