import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestApp, type TestApp, type TestOrg } from '../support/harness.js';
import { startWebhookReceiver, type Received, type WebhookReceiver } from '../support/webhook-receiver.js';

/**
 * Purge targets: content events turned into purges of a CDN — Fastly and Cloudflare checked
 * against local stand-ins of their APIs (method, path, headers and body as their documentation
 * gives them), and generic HTTP caches (one request per key, per cached URL, or one for all).
 */
const SERVICE_ID = 'SU1Z0isxPaozGVKXdv0eY';
const ZONE_ID = '023e105f4ecef8ad9ca31a8372d0c353';

describe('purge targets', () => {
  let t: TestApp;
  let receiver: WebhookReceiver;
  let org: TestOrg;
  let other: TestOrg;
  let site: string;
  const m = (p: string, o: { method?: string; body?: unknown } = {}, token = org.manageToken) => t.json(`/management/v1${p}`, { token, ...o });
  const at = (prefix: string) => receiver.received.filter((r) => r.path.startsWith(prefix));

  beforeAll(async () => {
    receiver = await startWebhookReceiver();
    receiver.answer = (r) => {
      if (r.path.startsWith('/cloudflare/')) return { status: 200, json: { success: true, errors: [], messages: [], result: { id: ZONE_ID } } };
      if (r.path.startsWith('/fastly/')) return { status: 200, json: Object.fromEntries((JSON.parse(r.body) as { surrogate_keys: string[] }).surrogate_keys.map((k) => [k, `purge-${k.length}`])) };
      return 200;
    };
    t = await startTestApp({
      ownDatabase: true,
      env: {
        WEBHOOK_DISPATCH: 'true',
        WEBHOOK_ALLOW_PRIVATE_TARGETS: 'true',
        WEBHOOK_RETRY_SCHEDULE: '0.2,0.2,0.2',
        WEBHOOK_TIMEOUT_MS: '2000',
        FASTLY_API_URL: `${receiver.url}/fastly`,
        CLOUDFLARE_API_URL: `${receiver.url}/cloudflare/`,
      },
    });
    [org, other] = await Promise.all([t.createOrg(), t.createOrg()]);
    expect((await m('/models/story', { method: 'PUT', body: { titleField: 'title', fields: [{ alias: 'title', type: 'text', required: true }] } })).status).toBe(201);
    site = (await m('/sites', { body: { name: 'Web' } })).body.result.id;
  });
  afterAll(async () => {
    await t?.close();
    await receiver?.close();
  });

  it('refuses bad targets with the reason, hides API tokens, and keeps each org to its own', async () => {
    const bad: [unknown, number, string][] = [
      [{ provider: 'http', url: `${receiver.url}/purge` }, 400, '{key}'],
      [{ provider: 'http', url: `${receiver.url}/purge/{key}`, headers: { 'x-keys': '{keys}' } }, 400, 'exactly one kind'],
      [{ provider: 'http', url: 'ftp://cdn.example/{key}' }, 422, 'http'],
      [{ provider: 'http', method: 'purge', url: `${receiver.url}/{key}` }, 400, 'capitals'],
      [{ provider: 'fastly', serviceId: SERVICE_ID }, 400, 'apiToken'],
      [{ provider: 'cloudflare', zoneId: 'not-a-zone', apiToken: 'x' }, 400, 'zone id'],
      [{ provider: 'akamai', url: 'x' }, 400, 'provider'],
      [{ provider: 'fastly', serviceId: SERVICE_ID, apiToken: 'x', events: ['entry.nope'] }, 400, 'event type'],
      // a value that would split the request (or that Node refuses to send) is refused when saved
      [{ provider: 'http', url: `${receiver.url}/purge/{key}`, headers: { 'x-note': 'a\r\nX-Injected: 1' } }, 422, 'headers.x-note'],
      [{ provider: 'http', url: `${receiver.url}/purge/{key}`, headers: { 'x-note': 'bell\u0007' } }, 422, 'headers.x-note'],
      [{ provider: 'fastly', serviceId: SERVICE_ID, apiToken: 'tok\nen' }, 422, 'apiToken'],
      [{ provider: 'cloudflare', zoneId: 'a'.repeat(32), apiToken: 'tok\ren' }, 422, 'apiToken'],
    ];
    for (const [body, status, reason] of bad) {
      const res = await m('/purge-targets', { body });
      expect(res.status, JSON.stringify(body)).toBe(status);
      expect(res.body.success).toBe(false);
      expect(res.body.errors.join(' '), JSON.stringify(body)).toContain(reason);
    }
    const created = await m('/purge-targets', { body: { provider: 'fastly', serviceId: SERVICE_ID, apiToken: 'secret-fastly', description: 'main' } });
    expect(created.status).toBe(201);
    expect(created.body.result).toMatchObject({ provider: 'fastly', serviceId: SERVICE_ID, softPurge: false, enabled: true, description: 'main' });
    expect(JSON.stringify(created.body)).not.toContain('secret-fastly');
    const id = created.body.result.id as string;
    expect((await m(`/purge-targets/${id}`, {}, other.manageToken)).status).toBe(404);
    expect((await m(`/purge-targets/${id}`, { method: 'PATCH', body: { enabled: false } }, other.manageToken)).status).toBe(404);
    expect((await m(`/purge-targets/${id}`, { method: 'DELETE' }, other.manageToken)).status).toBe(404);
    expect((await m(`/purge-targets`, {}, other.manageToken)).body.result).toEqual([]);
    // a purge target is not a webhook, and the reverse
    expect((await m(`/webhooks/${id}`)).status).toBe(404);
    expect((await m('/webhooks')).body.result).toEqual([]);
    expect((await m(`/purge-targets/${id}`, { method: 'PATCH', body: { url: 'http://x/{key}' } })).status).toBe(422);
    const crlf = await m(`/purge-targets/${id}`, { method: 'PATCH', body: { apiToken: 'rotated\r\nfastly' } });
    expect([crlf.status, crlf.body.errors.join(' ')]).toEqual([422, expect.stringContaining('apiToken')]);
    const patched = await m(`/purge-targets/${id}`, { method: 'PATCH', body: { apiToken: 'rotated-fastly', description: null } });
    expect(patched.body.result).toMatchObject({ id, description: null });
    expect(JSON.stringify(patched.body)).not.toContain('rotated-fastly');
    expect((await m(`/purge-targets/${id}`, { method: 'DELETE' })).status).toBe(200);
    expect((await m(`/purge-targets/${id}`)).status).toBe(404);
    // a PATCH keeps a generic template to the rule a creation follows
    const generic = (await m('/purge-targets', { body: { provider: 'http', url: `${receiver.url}/purge/{key}` } })).body.result.id as string;
    for (const body of [{ url: `${receiver.url}/purge` }, { headers: { 'x-keys': '{keys}' } }]) {
      const res = await m(`/purge-targets/${generic}`, { method: 'PATCH', body });
      expect(res.status, JSON.stringify(body)).toBe(422);
      expect(res.body.errors.join(' ')).toContain('exactly one kind');
    }
    expect((await m(`/purge-targets/${generic}`, { method: 'PATCH', body: { url: `${receiver.url}/ban`, headers: { 'x-keys': '{keys}' } } })).status).toBe(200);
    expect((await m(`/purge-targets/${generic}`, { method: 'DELETE' })).status).toBe(200);
  });

  it('purges Fastly, Cloudflare and generic caches as each documents it when an entry is published, and not for drafts', async () => {
    const delivery = (await m('/tokens', { body: { name: 'site', scopes: ['delivery'], publishable: true } })).body.result.token as string;
    const created = await Promise.all([
      m('/purge-targets', { body: { provider: 'fastly', serviceId: SERVICE_ID, apiToken: 'fastly-token', softPurge: true } }),
      m('/purge-targets', { body: { provider: 'cloudflare', zoneId: ZONE_ID, apiToken: 'cf-token' } }),
      m('/purge-targets', { body: { provider: 'http', method: 'PURGE', url: `${receiver.url}/nginx/purge{path}` } }),
      m('/purge-targets', { body: { provider: 'http', method: 'PURGE', url: `${receiver.url}/varnish/`, headers: { 'xkey-purge': '{keys}' } } }),
      m('/purge-targets', { body: { provider: 'http', method: 'DELETE', url: `${receiver.url}/by-key/{key}` } }),
    ]);
    for (const c of created) expect(c.status, JSON.stringify(c.body)).toBe(201);

    const draft = await m('/entries', { body: { model: 'story', siteId: site, slug: 'one', fields: { title: 'One' } } });
    const id = draft.body.result.id as string;
    // a page served from the CDN: its URL is recorded under its keys for the {path} target
    const query = `{ story(id: "${id}") { title } }`;
    const page = `/graphql?query=${encodeURIComponent(query)}&access_token=${delivery}`;
    expect((await t.fetch(page)).headers.get('surrogate-key')).toContain(`o.${org.orgId}.e.${id}`);
    await t.services.edgeUrls.flush();

    expect((await m(`/entries/${id}/publish`, { method: 'POST' })).status).toBe(200);
    const keys = [`o.${org.orgId}.e.${id}`, `o.${org.orgId}.m.story`, `o.${org.orgId}.entries`];
    await receiver.waitFor(() => ['/fastly/', '/cloudflare/', '/nginx/', '/varnish/'].every((p) => at(p).length >= 1) && at('/by-key/').length >= 3).catch((err: Error) => {
      throw new Error(`${err.message}: ${receiver.received.map((r) => `${r.method} ${r.path}`).join(', ')}`);
    });

    const [fastly] = at('/fastly/');
    expect([fastly.method, fastly.path]).toEqual(['POST', `/fastly/service/${SERVICE_ID}/purge`]);
    expect(fastly.headers).toMatchObject({ 'fastly-key': 'fastly-token', 'fastly-soft-purge': '1', 'content-type': 'application/json', accept: 'application/json' });
    expect(JSON.parse(fastly.body)).toEqual({ surrogate_keys: keys });

    const [cloudflare] = at('/cloudflare/');
    expect([cloudflare.method, cloudflare.path]).toEqual(['POST', `/cloudflare/client/v4/zones/${ZONE_ID}/purge_cache`]);
    expect(cloudflare.headers).toMatchObject({ authorization: 'Bearer cf-token', 'content-type': 'application/json' });
    expect(JSON.parse(cloudflare.body)).toEqual({ tags: keys });

    const [nginx] = at('/nginx/');
    expect([nginx.method, nginx.path, nginx.body]).toEqual(['PURGE', `/nginx/purge${page}`, '']);
    const [varnish] = at('/varnish/');
    expect([varnish.method, varnish.headers['xkey-purge']]).toEqual(['PURGE', keys.join(' ')]);
    expect(at('/by-key/').map((r) => `${r.method} ${decodeURIComponent(r.path)}`).sort()).toEqual(keys.map((k) => `DELETE /by-key/${k}`).sort());

    // the log shows each purge: the event, its keys, the answer
    const fastlyLog = await m(`/purge-targets/${created[0].body.result.id}/deliveries`);
    expect(fastlyLog.body.result.map((d: { eventType: string }) => d.eventType)).toEqual(['entry.published']);
    expect(fastlyLog.body.result[0]).toMatchObject({ status: 'succeeded', attempts: 1, lastStatusCode: 200 });
    expect((await m(`/purge-targets/${created[0].body.result.id}/deliveries`, {}, other.manageToken)).status).toBe(404);

    // a draft edit changes nothing delivery shows: no purge; an asset update purges its key
    expect((await m(`/entries/${id}`, { method: 'PATCH', body: { fields: { title: 'One, draft' } } })).status).toBe(200);
    const asset = (await t.json('/management/v1/assets?fileName=a.txt', { token: org.manageToken, rawBody: 'x', headers: { 'content-type': 'text/plain' } })).body.result.id as string;
    expect((await m(`/assets/${asset}`, { method: 'PATCH', body: { title: 'A' } })).status).toBe(200);
    await receiver.waitFor(() => at('/cloudflare/').some((r) => r.body.includes(`.a.${asset}`)));
    const tags = at('/cloudflare/').map((r) => (JSON.parse(r.body) as { tags: string[] }).tags);
    expect(tags).toEqual([keys, [`o.${org.orgId}.cms.assets`], [`o.${org.orgId}.a.${asset}`, `o.${org.orgId}.cms.assets`]]);
  });

  it('retries a purge the CDN refused, Cloudflare\'s "success": false included', async () => {
    const zone = 'f'.repeat(32);
    let refusals = 0;
    const previous = receiver.answer;
    receiver.answer = (r, seen) => {
      if (!r.path.includes(zone)) return previous(r, seen);
      refusals++;
      return refusals === 1 ? { status: 200, json: { success: false, errors: [{ code: 10000, message: 'Authentication error' }] } } : refusals === 2 ? 503 : { status: 200, json: { success: true } };
    };
    const target = (await m('/purge-targets', { body: { provider: 'cloudflare', zoneId: zone, apiToken: 'x', events: ['model.changed'] } })).body.result.id as string;
    expect((await m('/models/story', { method: 'PUT', body: { titleField: 'title', fields: [{ alias: 'title', type: 'text', required: true }, { alias: 'kicker', type: 'text' }] } })).status).toBe(200);
    await receiver.waitFor(() => refusals >= 3);
    let log: { status: string; attempts: number; lastError: string | null }[] = [];
    for (let i = 0; i < 100 && log[0]?.status !== 'succeeded'; i++) {
      log = (await m(`/purge-targets/${target}/deliveries`)).body.result;
      await new Promise((r) => setTimeout(r, 50));
    }
    expect(log[0]).toMatchObject({ status: 'succeeded', attempts: 3 });
    const bodies = receiver.received.filter((r: Received) => r.path.includes(zone)).map((r) => JSON.parse(r.body));
    expect(bodies).toEqual([{ tags: [`o.${org.orgId}`] }, { tags: [`o.${org.orgId}`] }, { tags: [`o.${org.orgId}`] }]);
    receiver.answer = previous;
  });

  it('fails a purge that cannot be sent with its reason after one attempt, and never retries it', async () => {
    const own = await t.createOrg();
    const mo = (p: string, o: { method?: string; body?: unknown } = {}) => m(p, o, own.manageToken);
    const created = await Promise.all([
      mo('/purge-targets', { body: { provider: 'fastly', serviceId: SERVICE_ID, apiToken: 'fastly-token', events: ['model.changed'] } }),
      mo('/purge-targets', { body: { provider: 'http', method: 'PURGE', url: `${receiver.url}/unsendable/{key}`, events: ['model.changed'] } }),
    ]);
    for (const c of created) expect(c.status, JSON.stringify(c.body)).toBe(201);
    const [fastly, generic] = created.map((c) => c.body.result.id as string);
    // what the API now refuses (422), written past it as a row saved before that check holds it:
    // Node refuses to send either one before a byte goes out
    const set = (id: string, field: string, value: string) =>
      t.services.db.query(`UPDATE webhooks SET purge = jsonb_set(purge, $3::text[], to_jsonb($4::text)) WHERE org_id = $1 AND id = $2`, [own.orgId, id, [field], value]);
    await set(fastly, 'apiToken', 'secret\r\nX-Injected: 1');
    await set(generic, 'url', `${receiver.url.replace('127.0.0.1', '127.0.0 .1')}/unsendable/{key}`);

    expect((await mo('/models/story', { method: 'PUT', body: { titleField: 'title', fields: [{ alias: 'title', type: 'text', required: true }] } })).status).toBe(201);
    type Logged = { status: string; attempts: number; lastStatusCode: number | null; lastError: string | null; nextAttemptAt: string | null };
    const logOf = async (id: string) => (await mo(`/purge-targets/${id}/deliveries`)).body.result as Logged[];
    let logs: Logged[][] = [];
    for (let i = 0; i < 100 && !(logs.length === 2 && logs.every((l) => l.length === 1 && l[0].status !== 'pending')); i++) {
      if (i > 0) await new Promise((r) => setTimeout(r, 50));
      logs = await Promise.all([logOf(fastly), logOf(generic)]);
    }
    const failed = { status: 'failed', attempts: 1, lastStatusCode: null, nextAttemptAt: null };
    expect(logs).toEqual([
      [expect.objectContaining({ ...failed, lastError: expect.stringMatching(/^cannot be sent: ERR_INVALID_CHAR: .*fastly-key/) })],
      [expect.objectContaining({ ...failed, lastError: expect.stringMatching(/^cannot be sent: ERR_INVALID_URL/) })],
    ]);
    expect(JSON.stringify(logs)).not.toContain('secret');
    // the retry schedule (0.2 s three times) would have tried again by now: nothing more happens
    await new Promise((r) => setTimeout(r, 1500));
    expect((await Promise.all([logOf(fastly), logOf(generic)])).map((l) => [l.length, l[0].status, l[0].attempts])).toEqual([
      [1, 'failed', 1],
      [1, 'failed', 1],
    ]);
    expect(receiver.received.filter((r) => r.path.startsWith('/unsendable/'))).toEqual([]);
  });
});
