import { once } from 'node:events';
import { chromiumFor, launchChromium } from '../support/chromium.js';
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import type { Browser } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestApp, type TestApp, type TestOrg } from '../support/harness.js';

/**
 * A web page on another origin calls Folio from a real browser (Debian's Chromium through
 * playwright-core): the browser sends its preflight and checks the answers' CORS headers itself.
 * The page is served by a server of the test on its own port; `127.0.0.1` and `localhost` on
 * that port are two origins. `.ci/run` installs /usr/bin/chromium; without it this file is skipped.
 */
const hasChromium = chromiumFor('cors-browser.test.ts');

describe.skipIf(!hasChromium)('a page on another origin, in Chromium', () => {
  let app: TestApp;
  let open: TestOrg;
  let restricted: TestOrg;
  let browser: Browser;
  let pages: http.Server;
  let pagePort: number;

  beforeAll(async () => {
    app = await startTestApp();
    [open, restricted] = await Promise.all([app.createOrg(), app.createOrg()]);
    pages = http.createServer((_req, res) => res.writeHead(200, { 'content-type': 'text/html' }).end('<!doctype html><title>shop</title><p>a web shop'));
    pages.listen(0, '127.0.0.1');
    await once(pages, 'listening');
    pagePort = (pages.address() as AddressInfo).port;
    await app.json('/management/v1/allowed-origins', { method: 'PUT', token: restricted.manageToken, body: { allowedOrigins: [`http://127.0.0.1:${pagePort}`] } });
    browser = await launchChromium();
  });
  afterAll(async () => {
    await browser?.close();
    pages?.close();
    await app?.close();
  });

  /**
   * Runs a GraphQL request from a page at `pageOrigin` — a POST with `token` in the header, or a
   * GET with `key` in the URL — and returns what the page's script sees.
   */
  async function fromPage(pageOrigin: string, auth: { token: string } | { key: string }) {
    const page = await browser.newPage();
    try {
      await page.goto(`${pageOrigin}/`);
      const query = '{ __typename }';
      const [path, init] =
        'token' in auth
          ? ['/graphql', { method: 'POST', headers: { authorization: `Bearer ${auth.token}`, 'content-type': 'application/json' }, body: JSON.stringify({ query }) }]
          : [`/graphql?query=${encodeURIComponent(query)}&access_token=${auth.key}`, {}];
      return await page.evaluate(
        async ({ url, init }) => {
          try {
            const res = await fetch(url, init);
            const header = (name: string) => res.headers.get(name);
            return {
              status: res.status,
              body: (await res.json()) as { data?: unknown; errors?: { extensions: { code: string } }[] },
              remaining: header('ratelimit-remaining'),
              cacheControl: header('cache-control'),
              etag: header('etag'),
            };
          } catch (err) {
            return { blocked: String(err) };
          }
        },
        { url: app.baseUrl + path, init },
      );
    } finally {
      await page.close();
    }
  }

  it('a delivery token works from any origin; a restricted org refuses an origin outside its list', async () => {
    const [openToken, restrictedToken] = await Promise.all([app.createToken(open.manageToken, ['delivery']), app.createToken(restricted.manageToken, ['delivery'])]);
    const anywhere = await fromPage(`http://localhost:${pagePort}`, { token: openToken });
    expect(anywhere).toMatchObject({ status: 200, body: { data: { __typename: 'Query' } } });
    expect(Number((anywhere as { remaining: string }).remaining)).toBeGreaterThan(0); // an exposed header

    expect(await fromPage(`http://127.0.0.1:${pagePort}`, { token: restrictedToken })).toMatchObject({ status: 200, body: { data: { __typename: 'Query' } } });
    // the refusal is readable by the page: 403 in GraphQL's shape
    expect(await fromPage(`http://localhost:${pagePort}`, { token: restrictedToken })).toMatchObject({ status: 403, body: { errors: [{ extensions: { code: 'FORBIDDEN' } }] } });
  });

  it('a publishable key in the URL works from any origin (cacheable, readable ETag); a restricted org refuses an origin outside its list', async () => {
    const key = async (org: TestOrg) => (await app.json('/management/v1/tokens', { token: org.manageToken, body: { name: 'page', scopes: ['delivery'], publishable: true } })).body.result.token as string;
    const [openKey, restrictedKey] = await Promise.all([key(open), key(restricted)]);
    expect(await fromPage(`http://localhost:${pagePort}`, { key: openKey })).toMatchObject({
      status: 200,
      body: { data: { __typename: 'Query' } },
      cacheControl: expect.stringMatching(/^public, max-age=\d+/),
      etag: expect.stringMatching(/^"/),
    });
    expect(await fromPage(`http://127.0.0.1:${pagePort}`, { key: restrictedKey })).toMatchObject({ status: 200, body: { data: { __typename: 'Query' } } });
    expect(await fromPage(`http://localhost:${pagePort}`, { key: restrictedKey })).toMatchObject({ status: 403, body: { errors: [{ extensions: { code: 'FORBIDDEN' } }] } });
  });
});
