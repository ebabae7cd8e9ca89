/**
 * Where a purge target sends its purges. The generic one is any HTTP cache: a method, a URL
 * template and headers, with placeholders —
 * `{key}` one request per surrogate key, `{keys}` one request for all of them (space-separated),
 * `{path}` one request per cached URL that carried any of them (the path and query as served,
 * for caches such as nginx that purge one URL at a time).
 */
export type PurgeConfig =
  | { provider: 'http'; method: string; url: string; headers: Record<string, string> }
  | { provider: 'fastly'; serviceId: string; apiToken: string; softPurge: boolean }
  | { provider: 'cloudflare'; zoneId: string; apiToken: string };

const PURGE_PLACEHOLDERS = ['{key}', '{keys}', '{path}'] as const;

/** Every placeholder in a template, by name (`key`, `keys`, `path`). */
export const PLACEHOLDER = /\{(key|keys|path)\}/g;

type Template = { url: string; headers: Record<string, string> };
const placeholdersIn = (t: Template) => PURGE_PLACEHOLDERS.filter((p) => [t.url, ...Object.values(t.headers)].some((v) => v.includes(p)));

/** Which placeholder a generic target expands (one per target); null when it uses none. */
export function placeholderOf(config: Template): (typeof PURGE_PLACEHOLDERS)[number] | null {
  return placeholdersIn(config)[0] ?? null;
}

/** Why a generic target's template cannot be used, or null: it names exactly one kind of placeholder. */
export function templateProblem(config: Template): string | null {
  return placeholdersIn(config).length === 1
    ? null
    : 'use one of {key} (a request per surrogate key), {keys} (one request, keys space-separated) or {path} (a request per cached URL) in url or headers — exactly one kind';
}

/** What a purge target shows through the API: the API token never leaves. */
export function publicPurgeConfig(config: PurgeConfig): Record<string, unknown> {
  if (config.provider === 'http') return { provider: 'http', method: config.method, url: config.url, headerNames: Object.keys(config.headers) };
  if (config.provider === 'fastly') return { provider: 'fastly', serviceId: config.serviceId, softPurge: config.softPurge };
  return { provider: 'cloudflare', zoneId: config.zoneId };
}
