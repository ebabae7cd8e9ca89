// Campaign values read from a request's query string at ingest. Only these values are kept; the
// query string itself is not (paths are stored without it).

export interface Campaign {
  /** `utm_source`, else `source`, else `ref`. */
  source: string;
  medium: string;
  campaign: string;
  term: string;
  content: string;
}

const NONE: Campaign = Object.freeze({ source: '', medium: '', campaign: '', term: '', content: '' });
/** Longer values are cut: a campaign name, not a payload. */
const MAX = 200;
/** Skips parsing query strings that cannot hold a campaign value (most lines, on the hot path). */
const MAY_HOLD = /(?:^|&)(?:utm_(?:source|medium|campaign|term|content)|source|ref)=/;

// eslint-disable-next-line no-control-regex -- stripping control characters is the point
const clean = (v: string | null): string => (v === null ? '' : v.replace(/[\u0000-\u001f\u007f]/g, '').trim().slice(0, MAX));

export function campaignOf(query: string | undefined): Campaign {
  if (!query || !MAY_HOLD.test(query)) return NONE;
  let q: URLSearchParams;
  try {
    q = new URLSearchParams(query);
  } catch {
    return NONE;
  }
  return {
    source: clean(q.get('utm_source')) || clean(q.get('source')) || clean(q.get('ref')),
    medium: clean(q.get('utm_medium')),
    campaign: clean(q.get('utm_campaign')),
    term: clean(q.get('utm_term')),
    content: clean(q.get('utm_content')),
  };
}
