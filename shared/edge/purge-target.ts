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

export const PURGE_PLACEHOLDERS = ['{key}', '{keys}', '{path}'] as const;

/** Which placeholder a generic target expands (one per target); null when it uses none. */
export function placeholderOf(config: { url: string; headers: Record<string, string> }): (typeof PURGE_PLACEHOLDERS)[number] | null {
  const text = [config.url, ...Object.values(config.headers)].join('\n');
  return PURGE_PLACEHOLDERS.find((p) => text.includes(p)) ?? null;
}

/** What a purge target shows through the API: the API token never leaves. */
export function publicPurgeConfig(config: PurgeConfig): Record<string, unknown> {
  if (config.provider === 'http') return { provider: 'http', method: config.method, url: config.url, headerNames: Object.keys(config.headers) };
  if (config.provider === 'fastly') return { provider: 'fastly', serviceId: config.serviceId, softPurge: config.softPurge };
  return { provider: 'cloudflare', zoneId: config.zoneId };
}
