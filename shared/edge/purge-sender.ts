import type { AttemptOutcome, WebhookSender } from '../webhooks/webhook-sender.js';
import { PLACEHOLDER, placeholderOf, type PurgeConfig } from './purge-target.js';

/** Keys per request, as the CDNs' APIs take them: Fastly 256 surrogate keys, Cloudflare 30 tags. */
const FASTLY_KEYS_PER_REQUEST = 256;
const CLOUDFLARE_TAGS_PER_REQUEST = 30;
/** Cached URLs purged per delivery by a `{path}` target (the most recently served first). */
export const PATHS_PER_PURGE = 1000;

export interface PurgeRequest {
  method: string;
  url: string;
  headers: Record<string, string>;
  body: string;
}

export interface PurgeDeps {
  sender: WebhookSender;
  apis: { fastly: string; cloudflare: string };
  /** The cached URLs (path and query) served with any of `keys`. */
  urlsFor(keys: readonly string[]): Promise<string[]>;
}

/**
 * The HTTP requests that purge `keys` at a target, as its provider documents them:
 * Fastly's "purge multiple surrogate keys" (`POST /service/{id}/purge`, `Fastly-Key`, body
 * `{"surrogate_keys": [...]}`, `fastly-soft-purge: 1` when soft), Cloudflare's "purge cached
 * content" by tag (`POST /client/v4/zones/{zone}/purge_cache`, bearer token, body `{"tags": [...]}`),
 * or the generic target's template.
 */
export async function purgeRequests(deps: PurgeDeps, config: PurgeConfig, keys: readonly string[]): Promise<PurgeRequest[]> {
  if (keys.length === 0) return [];
  if (config.provider === 'fastly') {
    const headers: Record<string, string> = { 'fastly-key': config.apiToken, accept: 'application/json', 'content-type': 'application/json' };
    if (config.softPurge) headers['fastly-soft-purge'] = '1';
    return chunks(keys, FASTLY_KEYS_PER_REQUEST).map((part) => ({
      method: 'POST',
      url: `${deps.apis.fastly}/service/${encodeURIComponent(config.serviceId)}/purge`,
      headers,
      body: JSON.stringify({ surrogate_keys: part }),
    }));
  }
  if (config.provider === 'cloudflare') {
    return chunks(keys, CLOUDFLARE_TAGS_PER_REQUEST).map((part) => ({
      method: 'POST',
      url: `${deps.apis.cloudflare}/client/v4/zones/${encodeURIComponent(config.zoneId)}/purge_cache`,
      headers: { authorization: `Bearer ${config.apiToken}`, 'content-type': 'application/json' },
      body: JSON.stringify({ tags: part }),
    }));
  }
  // keys are percent-encoded in the URL and sent as they are in headers; a path is already a URL's
  const expand = (values: Record<string, string>) => {
    const fill = (t: string, inUrl: boolean) =>
      t.replace(PLACEHOLDER, (_m, name: string) => (inUrl && name !== 'path' ? encodeURIComponent(values[name] ?? '') : (values[name] ?? '')));
    const headers: Record<string, string> = {};
    for (const [k, v] of Object.entries(config.headers)) headers[k] = fill(v, false);
    return { method: config.method, url: fill(config.url, true), headers, body: '' };
  };
  switch (placeholderOf(config)) {
    case '{key}':
      return keys.map((key) => expand({ key }));
    case '{path}':
      return (await deps.urlsFor(keys)).map((path) => expand({ path }));
    default:
      return [expand({ keys: keys.join(' ') })];
  }
}

/**
 * Sends a purge's requests one after another; the first that fails ends the attempt (the whole
 * purge is retried: purging twice is harmless). Cloudflare answers 200 with `"success": false`
 * for some refusals: that is a failure too.
 */
export async function sendPurge(deps: PurgeDeps, config: PurgeConfig, keys: readonly string[]): Promise<AttemptOutcome> {
  const started = performance.now();
  const requests = await purgeRequests(deps, config, keys);
  let last: AttemptOutcome = { ok: true, statusCode: null, durationMs: 0, error: null, excerpt: requests.length === 0 ? 'nothing to purge: no cached URL carries these keys' : null };
  for (const r of requests) {
    last = await deps.sender.send(r.url, r.headers, r.body, r.method);
    if (last.ok && config.provider === 'cloudflare' && last.excerpt && /"success"\s*:\s*false/.test(last.excerpt)) {
      last = { ...last, ok: false, error: 'Cloudflare answered "success": false' };
    }
    if (!last.ok) break;
  }
  return { ...last, durationMs: Math.round(performance.now() - started) };
}

function chunks<T>(list: readonly T[], size: number): T[][] {
  const out: T[][] = [];
  for (let i = 0; i < list.length; i += size) out.push(list.slice(i, i + size));
  return out;
}
