import { spawn, type ChildProcess } from 'node:child_process';
import { existsSync } from 'node:fs';
import { chmod, mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildAssetUrl, type UrlAsset } from '../../shared/assets/build-asset-url.js';
import { freePort } from '../support/free-port.js';
import { stopChild } from '../support/stop-child.js';
import { startTestApp, type TestApp, type TestOrg } from '../support/harness.js';

/**
 * Behind a real CDN cache (nginx proxy_cache): a cache replays a stored response's headers on
 * its own hits, so a cacheable response names its request X-Origin-Request-Id — on a CDN hit it
 * is the origin request that produced the copy, never a request id Folio's logs do not know —
 * while errors carry X-Request-Id and Cache-Control: no-store, so no cache keeps them.
 */
const NGINX = '/usr/sbin/nginx';
if (!existsSync(NGINX)) console.warn(`skipping the CDN header test: no ${NGINX} (apt-get install nginx)`);

describe.runIf(existsSync(NGINX))('request ids through nginx proxy_cache', () => {
  let app: TestApp;
  let org: TestOrg;
  let dir: string;
  let cdn: string;
  let nginx: ChildProcess;
  let asset: UrlAsset;

  beforeAll(async () => {
    app = await startTestApp();
    org = await app.createOrg();
    const image = await readFile(new URL('../fixtures/images/goldfish.png', import.meta.url));
    const up = await app.json('/management/v1/assets?fileName=g.png', { method: 'POST', token: org.manageToken, rawBody: new Uint8Array(image), headers: { 'content-type': 'image/png' } });
    asset = up.body.result;
    dir = await mkdtemp(path.join(os.tmpdir(), 'folio-cdn-'));
    // nginx started as root runs its workers as nobody: they write the cache and temp files here
    await chmod(dir, 0o777);
    const port = await freePort();
    cdn = `http://127.0.0.1:${port}`;
    await writeFile(
      path.join(dir, 'nginx.conf'),
      `daemon off; pid ${dir}/nginx.pid; error_log ${dir}/error.log;
events {}
http {
  access_log off;
  proxy_cache_path ${dir}/cache keys_zone=folio:1m;
  client_body_temp_path ${dir}/b; proxy_temp_path ${dir}/p; fastcgi_temp_path ${dir}/f; uwsgi_temp_path ${dir}/u; scgi_temp_path ${dir}/s;
  server {
    listen 127.0.0.1:${port};
    location / {
      proxy_pass ${app.baseUrl};
      proxy_cache folio;
      proxy_cache_valid any 1m;
      add_header X-CDN-Cache $upstream_cache_status always;
    }
  }
}
`,
    );
    nginx = spawn(NGINX, ['-c', path.join(dir, 'nginx.conf'), '-p', dir], { stdio: 'ignore' });
    const deadline = Date.now() + 10_000;
    while (!(await fetch(`${cdn}/healthz`).then((r) => r.status > 0, () => false))) {
      if (Date.now() > deadline) throw new Error('nginx did not start');
      await new Promise((r) => setTimeout(r, 100));
    }
  }, 60_000);

  afterAll(async () => {
    await stopChild(nginx);
    await app?.close();
    await rm(dir, { recursive: true, force: true });
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
