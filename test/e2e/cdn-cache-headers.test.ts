import { readFile } from 'node:fs/promises';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildAssetUrl, type UrlAsset } from '../../shared/assets/build-asset-url.js';
import { cachingProxy, hasNginx, NGINX, startNginx, type Nginx } from '../support/nginx.js';
import { startTestApp, type TestApp, type TestOrg } from '../support/harness.js';

/**
 * Behind a real CDN cache (nginx proxy_cache): a cache replays a stored response's headers on
 * its own hits, so a cacheable response names its request X-Origin-Request-Id — on a CDN hit it
 * is the origin request that produced the copy, never a request id Folio's logs do not know —
 * while errors carry X-Request-Id and Cache-Control: no-store, so no cache keeps them.
 */
if (!hasNginx) console.warn(`skipping the CDN header test: no ${NGINX} (apt-get install nginx)`);

describe.runIf(hasNginx)('request ids through nginx proxy_cache', () => {
  let app: TestApp;
  let org: TestOrg;
  let cdn: string;
  let nginx: Nginx;
  let asset: UrlAsset;

  beforeAll(async () => {
    app = await startTestApp();
    org = await app.createOrg();
    const image = await readFile(new URL('../fixtures/images/goldfish.png', import.meta.url));
    const up = await app.json('/management/v1/assets?fileName=g.png', { method: 'POST', token: org.manageToken, rawBody: new Uint8Array(image), headers: { 'content-type': 'image/png' } });
    asset = up.body.result;
    nginx = await startNginx({
      server: () => cachingProxy(app.baseUrl, ['proxy_cache_valid any 1m']),
    });
    cdn = nginx.url;
  }, 60_000);

  afterAll(async () => {
    await nginx?.stop();
    await app?.close();
  });

  const throughCdn = (pathname: string, requestId: string) => fetch(cdn + pathname, { headers: { 'x-request-id': requestId } });

  it.each([
    ['an image derivative', () => new URL(buildAssetUrl({ asset, orgId: org.orgId, transformation: { width: 100, height: 100, resize: 'FILL' } }, { baseUrl: app.baseUrl, secret: app.services.secrets.signing, presets: new Map() })!).pathname],
    ['an original', () => new URL(buildAssetUrl({ asset, orgId: org.orgId }, { baseUrl: app.baseUrl, secret: app.services.secrets.signing, presets: new Map() })!).pathname],
  ])('%s: the CDN hit names the origin request that produced its copy', async (_what, pathOf) => {
    const pathname = pathOf();
    const first = await throughCdn(pathname, `req-cdn-first-${_what.length}`);
    expect([first.status, first.headers.get('x-cdn-cache')]).toEqual([200, 'MISS']);
    expect(first.headers.get('x-origin-request-id')).toBe(`req-cdn-first-${_what.length}`);
    expect(first.headers.get('x-request-id')).toBeNull();
    await first.arrayBuffer();
    const second = await throughCdn(pathname, 'req-cdn-second-1');
    expect([second.status, second.headers.get('x-cdn-cache')]).toEqual([200, 'HIT']);
    // the copy's origin request, not the second request's id (which never reached Folio)
    expect(second.headers.get('x-origin-request-id')).toBe(`req-cdn-first-${_what.length}`);
    expect(second.headers.get('x-request-id')).toBeNull();
  });

  it('an error is not stored: no-store, its own X-Request-Id, and the next request reaches Folio', async () => {
    const original = new URL(buildAssetUrl({ asset, orgId: org.orgId }, { baseUrl: app.baseUrl, secret: app.services.secrets.signing, presets: new Map() })!).pathname;
    const tampered = original.replace(/\/files\/[^/]+\//, '/files/AAAAAAAAAAAAAAAAAAAAAA/');
    const first = await throughCdn(tampered, 'req-cdn-error-1');
    expect([first.status, first.headers.get('cache-control'), first.headers.get('x-request-id')]).toEqual([403, 'no-store', 'req-cdn-error-1']);
    const second = await throughCdn(tampered, 'req-cdn-error-2');
    expect([second.status, second.headers.get('x-cdn-cache'), second.headers.get('x-request-id')]).toEqual([403, 'MISS', 'req-cdn-error-2']);
  });
});
