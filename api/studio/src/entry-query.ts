// The entries list's filters, sort and page live in the URL (/studio?label=…&sort=title&page=2):
// a reload, the back button and a shared link show the same list.

export const SORTS = [
  { value: '', label: 'Creation order' },
  { value: 'updatedAt', label: 'Last updated' },
  { value: 'createdAt', label: 'Created' },
  { value: 'title', label: 'Title' },
  { value: 'status', label: 'Status' },
] as const;

const KEYS = ['model', 'status', 'search', 'locale', 'label', 'author', 'sort', 'order'] as const;
export type ListQuery = Record<(typeof KEYS)[number], string> & { page: number };

export function readListQuery(search: string): ListQuery {
  const p = new URLSearchParams(search);
  const q = Object.fromEntries(KEYS.map((k) => [k, p.get(k) ?? ''])) as Record<(typeof KEYS)[number], string>;
  const page = Number(p.get('page'));
  return { ...q, page: Number.isInteger(page) && page > 0 ? page : 1 };
}

/** The query string of the Studio's own URL: only what differs from the plain list. */
export function listQueryString(q: ListQuery): string {
  const p = new URLSearchParams();
  for (const k of KEYS) if (q[k]) p.set(k, q[k]);
  if (q.page > 1) p.set('page', String(q.page));
  const s = p.toString();
  return s ? `?${s}` : '';
}

/**
 * The management API's parameters for one page: a chosen locale both filters (entries with
 * values in it) and reads the titles in it.
 */
export function apiParams(q: ListQuery, pageSize: number): URLSearchParams {
  const p = new URLSearchParams({ pageIndex: String(q.page), pageSize: String(pageSize) });
  for (const k of ['model', 'status', 'search', 'label', 'author', 'sort'] as const) if (q[k]) p.set(k, q[k]);
  if (q.sort && q.order) p.set('order', q.order);
  if (q.locale) {
    p.set('hasLocale', q.locale);
    p.set('locale', q.locale);
  }
  return p;
}
