import { describe, expect, it } from 'vitest';
import type { AttemptOutcome, WebhookSender } from '../webhooks/webhook-sender.js';
import type { ServedUrl } from './edge-url-repository.js';
import type { EdgeVariant } from './edge-variant.js';
import { purgeRequests, sendPurge, type PurgeDeps } from './purge-sender.js';

const sent: { url: string; method?: string; body: string }[] = [];
function deps(answers: Partial<AttemptOutcome>[] = []): PurgeDeps {
  const sender: WebhookSender = {
    async send(url, _headers, body, method) {
      sent.push({ url, method, body });
      return { ok: true, statusCode: 200, durationMs: 1, error: null, excerpt: null, ...answers.shift() };
    },
    close() {},
  };
  return { sender, apis: { fastly: 'https://api.fastly.com', cloudflare: 'https://api.cloudflare.com' }, urlsFor: async () => [served('/graphql?query=%7B%20a%20%7D'), served('/img/x.jpg')] };
}
function served(url: string, variants: EdgeVariant[] = []): ServedUrl {
  return { url, variants };
}
const keys = Array.from({ length: 300 }, (_, i) => `k${i}`);

describe('purge requests', () => {
  it('chunks keys as the CDN APIs take them: Fastly 256, Cloudflare 30', async () => {
    const fastly = await purgeRequests(deps(), { provider: 'fastly', serviceId: 's1', apiToken: 't', softPurge: false }, keys);
    expect(fastly.map((r) => (JSON.parse(r.body) as { surrogate_keys: string[] }).surrogate_keys.length)).toEqual([256, 44]);
    expect(fastly[0]).toMatchObject({ method: 'POST', url: 'https://api.fastly.com/service/s1/purge', headers: { 'fastly-key': 't' } });
    expect(fastly[0].headers['fastly-soft-purge']).toBeUndefined();
    const cf = await purgeRequests(deps(), { provider: 'cloudflare', zoneId: 'z', apiToken: 't' }, keys);
    expect(cf).toHaveLength(10);
    expect(cf[0]).toMatchObject({ url: 'https://api.cloudflare.com/client/v4/zones/z/purge_cache', headers: { authorization: 'Bearer t' } });
  });

  it('expands a generic template per key (encoded in the URL), for all keys, or per cached URL', async () => {
    const http = (url: string, headers: Record<string, string> = {}) => ({ provider: 'http' as const, method: 'PURGE', url, headers });
    expect((await purgeRequests(deps(), http('http://cdn/k/{key}'), ['a b', 'c'])).map((r) => r.url)).toEqual(['http://cdn/k/a%20b', 'http://cdn/k/c']);
    const all = await purgeRequests(deps(), http('http://cdn/ban', { xkey: '{keys}' }), ['a', 'b']);
    expect(all).toEqual([{ method: 'PURGE', url: 'http://cdn/ban', headers: { xkey: 'a b' }, body: '' }]);
    expect((await purgeRequests(deps(), http('http://cdn/purge{path}'), ['a'])).map((r) => r.url)).toEqual(['http://cdn/purge/graphql?query=%7B%20a%20%7D', 'http://cdn/purge/img/x.jpg']);
    expect(await purgeRequests(deps(), http('http://cdn/k/{key}'), [])).toEqual([]);
  });

  it('sends a {path} purge once per variant served, with that variant\'s Accept and Origin in place of the target\'s', async () => {
    const variants: EdgeVariant[] = [
      { accept: 'avif', origin: '' },
      { accept: 'webp', origin: '' },
      { accept: 'graphql', origin: 'https://www.example.com' },
      { accept: 'other', origin: '' },
    ];
    const requests = await purgeRequests(
      { ...deps(), urlsFor: async () => [served('/img/x', variants), served('/old')] },
      { provider: 'http', method: 'PURGE', url: 'http://cdn/purge{path}', headers: { Accept: '*/*', Origin: 'https://x', 'x-purge-token': 't' } },
      ['k'],
    );
    expect(requests.map((r) => [r.url, r.headers])).toEqual([
      ['http://cdn/purge/img/x', { 'x-purge-token': 't', accept: 'image/avif' }],
      ['http://cdn/purge/img/x', { 'x-purge-token': 't', accept: 'image/webp' }],
      ['http://cdn/purge/img/x', { 'x-purge-token': 't', accept: 'application/graphql-response+json', origin: 'https://www.example.com' }],
      ['http://cdn/purge/img/x', { 'x-purge-token': 't', accept: '*/*' }],
      // recorded before variants were: the target's own headers
      ['http://cdn/purge/old', { Accept: '*/*', Origin: 'https://x', 'x-purge-token': 't' }],
    ]);
  });

  it('sends every request though one is refused, fails the purge then, and counts Cloudflare\'s "success": false as a refusal', async () => {
    sent.length = 0;
    const failed = await sendPurge(deps([{}, { ok: false, statusCode: 503, error: 'HTTP 503' }]), { provider: 'fastly', serviceId: 's', apiToken: 't', softPurge: true }, [...keys, ...keys, 'x']);
    expect([failed.ok, failed.statusCode, failed.error, sent.length]).toEqual([false, 503, '1 of 3 purge requests failed; the first: HTTP 503', 3]);
    const cf = await sendPurge(deps([{ excerpt: '{"success":false,"errors":[{"code":10000}]}' }]), { provider: 'cloudflare', zoneId: 'z', apiToken: 't' }, ['a']);
    expect([cf.ok, cf.error]).toEqual([false, 'Cloudflare answered "success": false']);
    const nothing = await sendPurge({ ...deps(), urlsFor: async () => [] }, { provider: 'http', method: 'PURGE', url: 'http://cdn{path}', headers: {} }, ['a']);
    expect([nothing.ok, nothing.excerpt]).toEqual([true, 'nothing to purge: no cached URL carries these keys']);
  });

  it('takes a generic target\'s 404 as "nothing to purge", and purges the URLs after a failed one', async () => {
    const nginx = { provider: 'http' as const, method: 'PURGE', url: 'http://cdn/purge{path}', headers: {} };
    const urls = ['/a', '/b', '/c', '/d'];
    const servedUrls = async () => urls.map((u) => served(u));
    sent.length = 0;
    const notHeld = await sendPurge({ ...deps([{ ok: false, statusCode: 404, error: 'HTTP 404' }]), urlsFor: servedUrls }, nginx, ['k']);
    expect([notHeld.ok, notHeld.error, notHeld.excerpt, sent.length]).toEqual([true, null, '3 purged, 1 not in the cache (404: nothing to purge)', 4]);
    sent.length = 0;
    const oneDown = await sendPurge({ ...deps([{ ok: false, statusCode: 500, error: 'HTTP 500' }]), urlsFor: servedUrls }, nginx, ['k']);
    expect([oneDown.ok, oneDown.statusCode, sent.map((s) => s.url).sort()]).toEqual([false, 500, urls.map((u) => `http://cdn/purge${u}`)]);
    // a CDN API's 404 is no "nothing to purge": a wrong service id fails
    const fastly = await sendPurge(deps([{ ok: false, statusCode: 404, error: 'HTTP 404' }]), { provider: 'fastly', serviceId: 'nope', apiToken: 't', softPurge: false }, ['k']);
    expect([fastly.ok, fastly.statusCode]).toEqual([false, 404]);
  });

  it('fails a purge for good when one of its requests cannot be sent, and tells that one', async () => {
    const nginx = { provider: 'http' as const, method: 'PURGE', url: 'http://cdn/purge{path}', headers: {} };
    const answers = [
      { ok: false, statusCode: 503, error: 'HTTP 503' },
      { ok: false, statusCode: null, error: 'cannot be sent: ERR_INVALID_URL: Invalid URL', unsendable: true },
    ];
    const purge = await sendPurge(deps(answers), nginx, ['k']);
    expect([purge.ok, purge.unsendable, purge.error]).toEqual([false, true, '2 of 2 purge requests failed; the first: cannot be sent: ERR_INVALID_URL: Invalid URL']);
  });
});
