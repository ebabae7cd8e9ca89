import { describe, expect, it } from 'vitest';
import type { AttemptOutcome, WebhookSender } from '../webhooks/webhook-sender.js';
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
  return { sender, apis: { fastly: 'https://api.fastly.com', cloudflare: 'https://api.cloudflare.com' }, urlsFor: async () => ['/graphql?query=%7B%20a%20%7D', '/img/x.jpg'] };
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

  it('stops at the first refusal, and counts Cloudflare\'s "success": false as one', async () => {
    sent.length = 0;
    const failed = await sendPurge(deps([{}, { ok: false, statusCode: 503, error: 'HTTP 503' }]), { provider: 'fastly', serviceId: 's', apiToken: 't', softPurge: true }, [...keys, ...keys, 'x']);
    expect([failed.ok, failed.statusCode, sent.length]).toEqual([false, 503, 2]);
    const cf = await sendPurge(deps([{ excerpt: '{"success":false,"errors":[{"code":10000}]}' }]), { provider: 'cloudflare', zoneId: 'z', apiToken: 't' }, ['a']);
    expect([cf.ok, cf.error]).toEqual([false, 'Cloudflare answered "success": false']);
    const nothing = await sendPurge({ ...deps(), urlsFor: async () => [] }, { provider: 'http', method: 'PURGE', url: 'http://cdn{path}', headers: {} }, ['a']);
    expect([nothing.ok, nothing.excerpt]).toEqual([true, 'nothing to purge: no cached URL carries these keys']);
  });
});
