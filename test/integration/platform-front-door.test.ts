import { Writable } from 'node:stream';
import sharp from 'sharp';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildAssetUrl, type UrlAsset } from '../../shared/assets/build-asset-url.js';
import { derivativeKeyOf } from '../../shared/assets/derivative-source.js';
import { parseImagePath } from '../../shared/assets/url-grammar.js';
import { startTestApp, type TestApp, type TestOrg } from '../support/harness.js';

interface LogLine {
  msg: string;
  requestId?: string;
  req?: { method: string; url: string };
  res?: { statusCode: number };
  responseTime?: number;
}

/**
 * The server's request listener answers `/graphql` and in-memory image hits without Express.
 * Those answers must be indistinguishable from the Express routes': same headers, same errors,
 * the same access-log line and request id, the same duration metric.
 */
describe('front door: GraphQL and in-memory image hits outside Express', () => {
  let app: TestApp;
  let org: TestOrg;
  let asset: UrlAsset;
  const lines: LogLine[] = [];

  const urlOf = (width: number) =>
    buildAssetUrl({ asset, orgId: org.orgId, transformation: { width, height: 10, resize: 'FILL' } }, { baseUrl: app.baseUrl, secret: app.services.secrets.signing, presets: new Map() })!;
  const keyOf = (url: string) => derivativeKeyOf(parseImagePath(app.services.secrets.signing, new URL(url).pathname.slice('/img/'.length))).key;
  const logged = (requestId: string) => lines.filter((l) => l.requestId === requestId && l.msg.startsWith('request '));
  const headersOf = (res: Response) => {
    const h = Object.fromEntries(res.headers);
    for (const volatile of ['date', 'x-request-id', 'x-origin-request-id', 'x-cache', 'connection', 'keep-alive']) delete h[volatile];
    return h;
  };

  beforeAll(async () => {
    const sink = new Writable({
      write(chunk: Buffer, _enc, done) {
        for (const text of chunk.toString().split('\n')) if (text) lines.push(JSON.parse(text) as LogLine);
        done();
      },
    });
    app = await startTestApp({ env: { LOG_LEVEL: 'info' }, logDestination: sink });
    org = await app.createOrg();
    const res = await app.json('/management/v1/assets', { method: 'POST', token: org.manageToken, rawBody: new Uint8Array(await sharp({ create: { width: 64, height: 48, channels: 3, background: '#336699' } }).png().toBuffer()) });
    expect(res.status).toBe(201);
    asset = res.body.result as UrlAsset;
  });
  afterAll(async () => app?.close());

  it('a memory hit carries the same headers and bytes as a hit read from the blob store', async () => {
    const url = urlOf(20);
    const miss = await fetch(url);
    expect(miss.headers.get('x-cache')).toBe('MISS');
    const bytes = Buffer.from(await miss.arrayBuffer());
    const memory = app.services.assetCaches.derivatives;
    expect(memory.has(keyOf(url))).toBe(true);

    const fromMemory = await fetch(url);
    const memoryBytes = Buffer.from(await fromMemory.arrayBuffer());
    memory.delete(keyOf(url));
    const fromStore = await fetch(url);
    const storeBytes = Buffer.from(await fromStore.arrayBuffer());

    expect([fromMemory.status, fromStore.status]).toEqual([200, 200]);
    expect([fromMemory.headers.get('x-cache'), fromStore.headers.get('x-cache')]).toEqual(['HIT', 'HIT']);
    expect(headersOf(fromMemory)).toEqual(headersOf(fromStore));
    expect(memoryBytes.equals(bytes) && storeBytes.equals(bytes)).toBe(true);
  });

  it('answers HEAD and If-None-Match on a memory hit like the route does', async () => {
    const url = urlOf(21);
    const first = await fetch(url);
    await first.arrayBuffer();
    const head = await fetch(url, { method: 'HEAD' });
    expect(head.status).toBe(200);
    expect(head.headers.get('content-length')).toBe(first.headers.get('content-length'));
    expect((await head.arrayBuffer()).byteLength).toBe(0);
    const notModified = await fetch(url, { headers: { 'if-none-match': first.headers.get('etag')! } });
    expect(notModified.status).toBe(304);
  });

  it('a tampered URL of a derivative held in memory is still refused with the envelope', async () => {
    const url = urlOf(22);
    await (await fetch(url)).arrayBuffer();
    const path = new URL(url).pathname;
    const sig = path.split('/')[2];
    // the first character carries six bits of the MAC (the last one only two, the rest padding)
    const tampered = await app.json(path.replace(sig, `${sig[0] === 'A' ? 'B' : 'A'}${sig.slice(1)}`));
    expect(tampered.status).toBe(403);
    expect(tampered.body).toMatchObject({ success: false });
    expect(tampered.body.errors.length).toBeGreaterThan(0);
    // a POST to a hit's URL is not a hit: Express answers it (no such route)
    expect((await fetch(url, { method: 'POST' })).status).toBe(404);
  });

  it('logs one JSON line per request with its id, for GraphQL, memory hits and Express routes alike', async () => {
    const url = urlOf(23);
    await (await fetch(url)).arrayBuffer();
    const requests: Array<[string, Promise<Response>]> = [
      ['req-front-door-img-1', fetch(url, { headers: { 'x-request-id': 'req-front-door-img-1' } })],
      ['req-front-door-gql-1', fetch(`${app.baseUrl}/graphql`, { method: 'POST', headers: { 'x-request-id': 'req-front-door-gql-1', 'content-type': 'application/json' }, body: '{"query":"{ __typename }"}' })],
      ['req-front-door-rest-1', fetch(`${app.baseUrl}/management/v1/sites`, { headers: { 'x-request-id': 'req-front-door-rest-1', authorization: `Bearer ${org.manageToken}` } })],
      ['req-front-door-token-1', fetch(`${app.baseUrl}/management/v1/sites?access_token=secret-in-url`, { headers: { 'x-request-id': 'req-front-door-token-1' } })],
    ];
    const statuses = new Map<string, number>();
    for (const [id, pending] of requests) {
      const res = await pending;
      await res.arrayBuffer();
      // a cacheable answer (the image) names its request as the origin of the copy a CDN stores
      expect(res.headers.get(id.includes('-img-') ? 'x-origin-request-id' : 'x-request-id')).toBe(id);
      statuses.set(id, res.status);
    }
    await (await fetch(`${app.baseUrl}/healthz`, { headers: { 'x-request-id': 'req-front-door-health' } })).arrayBuffer();
    // lines are written when the response closes, just after the client has it
    await expect.poll(() => requests.every(([id]) => logged(id).length === 1)).toBe(true);

    expect(logged('req-front-door-img-1')[0]).toMatchObject({ msg: 'request completed', req: { method: 'GET', url: new URL(url).pathname }, res: { statusCode: 200 } });
    expect(logged('req-front-door-gql-1')[0]).toMatchObject({ req: { method: 'POST', url: '/graphql' }, res: { statusCode: statuses.get('req-front-door-gql-1') } });
    expect(logged('req-front-door-rest-1')[0]).toMatchObject({ req: { url: '/management/v1/sites' }, res: { statusCode: 200 } });
    const withToken = logged('req-front-door-token-1')[0];
    expect(withToken.req?.url).toBe('/management/v1/sites?access_token=[redacted]');
    expect(withToken.res?.statusCode).toBe(401);
    for (const [id] of requests) expect(typeof logged(id)[0].responseTime).toBe('number');
    expect(logged('req-front-door-health')).toEqual([]);
  });

  it('times front-door answers under their route templates', async () => {
    const count = async (labels: string) => {
      const metrics = await (await app.fetch('/metrics', { token: app.metricsToken })).text();
      const line = metrics.split('\n').find((l) => l.startsWith(`folio_http_request_duration_seconds_count{${labels}}`));
      return line ? Number(line.split(' ').pop()) : 0;
    };
    const url = urlOf(24);
    await (await fetch(url)).arrayBuffer(); // the miss, through Express
    const hitsBefore = await count('method="GET",route="/img/*rest",status="200"');
    // without a token: 401 from yoga's tenant plugin
    const graphqlBefore = await count('method="POST",route="/graphql",status="401"');
    await (await fetch(url)).arrayBuffer();
    await (await fetch(url)).arrayBuffer();
    const graphql = await fetch(`${app.baseUrl}/graphql`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: '{"query":"{ __typename }"}' });
    await graphql.arrayBuffer();
    expect(graphql.status).toBe(401);
    await expect.poll(() => count('method="GET",route="/img/*rest",status="200"')).toBe(hitsBefore + 2);
    await expect.poll(() => count('method="POST",route="/graphql",status="401"')).toBe(graphqlBefore + 1);
  });
});
