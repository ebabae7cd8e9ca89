import type { AttemptOutcome, WebhookSender } from '../webhooks/webhook-sender.js';
import type { ServedUrl } from './edge-url-repository.js';
import { ACCEPT_OF_CLASS, type EdgeVariant } from './edge-variant.js';
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
  /** The cached URLs (path and query) served with any of `keys`, and their variants. */
  urlsFor(keys: readonly string[]): Promise<ServedUrl[]>;
}

/**
 * The HTTP requests that purge `keys` at a target, as its provider documents them:
 * Fastly's "purge multiple surrogate keys" (`POST /service/{id}/purge`, `Fastly-Key`, body
 * `{"surrogate_keys": [...]}`, `fastly-soft-purge: 1` when soft), Cloudflare's "purge cached
 * content" by tag (`POST /client/v4/zones/{zone}/purge_cache`, bearer token, body `{"tags": [...]}`),
 * or the generic target's template — for `{path}`, one request per URL and variant served.
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
      return (await deps.urlsFor(keys)).flatMap(({ url, variants }) => {
        const request = expand({ path: url });
        return variants.length === 0 ? [request] : variants.map((v) => ({ ...request, headers: withVariant(request.headers, v) }));
      });
    default:
      return [expand({ keys: keys.join(' ') })];
  }
}

/** Purge requests in flight at once: a `{path}` purge sends one per cached URL and variant. */
const PURGES_IN_FLIGHT = 8;

/**
 * Sends a purge's requests, a few at a time, every one of them: one refused request does not keep
 * the others from purging. The purge fails when any failed (the whole purge is retried: purging
 * twice is harmless) — unless one cannot be sent at all: that one fails it for good, and is the
 * one the error tells. A generic target's 404 is a success — a cache such as nginx's purge module
 * answers it for a URL it does not hold (purged before, evicted): nothing to purge. Cloudflare
 * answers 200 with `"success": false` for some refusals: that is a failure.
 */
export async function sendPurge(deps: PurgeDeps, config: PurgeConfig, keys: readonly string[]): Promise<AttemptOutcome> {
  const started = performance.now();
  const requests = await purgeRequests(deps, config, keys);
  if (requests.length === 0) return { ok: true, statusCode: null, durationMs: 0, error: null, excerpt: 'nothing to purge: no cached URL carries these keys' };
  const outcomes: AttemptOutcome[] = new Array(requests.length);
  let next = 0;
  const worker = async () => {
    for (let i = next++; i < requests.length; i = next++) outcomes[i] = await sendOne(deps, config, requests[i]);
  };
  await Promise.all(Array.from({ length: Math.min(PURGES_IN_FLIGHT, requests.length) }, worker));
  const durationMs = Math.round(performance.now() - started);
  const failed = outcomes.filter((o) => !o.ok);
  if (failed.length > 0) {
    const first = failed.find((o) => o.unsendable) ?? failed[0];
    const error = requests.length === 1 ? first.error : `${failed.length} of ${requests.length} purge requests failed; the first: ${first.error ?? 'no answer'}`;
    return { ...first, error, durationMs };
  }
  const notHeld = outcomes.filter((o) => o.statusCode === 404).length;
  const last = outcomes[outcomes.length - 1];
  return { ...last, durationMs, excerpt: notHeld > 0 ? `${requests.length - notHeld} purged, ${notHeld} not in the cache (404: nothing to purge)` : last.excerpt };
}

async function sendOne(deps: PurgeDeps, config: PurgeConfig, r: PurgeRequest): Promise<AttemptOutcome> {
  const outcome = await deps.sender.send(r.url, r.headers, r.body, r.method);
  if (config.provider === 'http' && outcome.statusCode === 404) return { ...outcome, ok: true, error: null };
  if (outcome.ok && config.provider === 'cloudflare' && outcome.excerpt && /"success"\s*:\s*false/.test(outcome.excerpt)) {
    return { ...outcome, ok: false, error: 'Cloudflare answered "success": false' };
  }
  return outcome;
}

/**
 * A purge request's headers for one stored copy: the `Accept` of its class and its `Origin`
 * (none when it had none), in place of the target's own.
 */
function withVariant(headers: Record<string, string>, v: EdgeVariant): Record<string, string> {
  const out: Record<string, string> = {};
  for (const [k, value] of Object.entries(headers)) if (k.toLowerCase() !== 'accept' && k.toLowerCase() !== 'origin') out[k] = value;
  out.accept = ACCEPT_OF_CLASS[v.accept];
  if (v.origin !== '') out.origin = v.origin;
  return out;
}

function chunks<T>(list: readonly T[], size: number): T[][] {
  const out: T[][] = [];
  for (let i = 0; i < list.length; i += size) out.push(list.slice(i, i + size));
  return out;
}
