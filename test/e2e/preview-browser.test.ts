import { chromiumFor, launchChromium } from '../support/chromium.js';
import http from 'node:http';
import { once } from 'node:events';
import type { AddressInfo } from 'node:net';
import type { Browser } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestApp, type TestApp, type TestOrg } from '../support/harness.js';

// A site's preview page in a real browser (Debian's Chromium, driven by playwright-core): opened
// from a preview link, it reads the draft with the link's token and subscribes to the entry over
// server-sent events; an editor's save shows on the page within a second. On the production stack
// the page subscribes to a second API instance and the editor writes through the first (they share
// Postgres and Redis); embedded, one instance holds the database, so both are the same.
// `.ci/run` installs /usr/bin/chromium; without it this file is skipped.

const hasChromium = chromiumFor('preview-browser.test.ts');

/** The site's preview page: the draft's title, kept current by an `entryChanged` subscription. */
const PAGE = `<!doctype html><meta charset="utf-8"><title>preview</title><h1 id="title">…</h1>
<script type="module">
const p = new URLSearchParams(location.search);
const gql = (body, accept) => fetch(p.get('api') + '/graphql', {
  method: 'POST',
  headers: { authorization: 'Bearer ' + p.get('token'), 'content-type': 'application/json', accept },
  body: JSON.stringify(body),
});
const title = document.getElementById('title');
const first = await (await gql({ query: 'query ($id: String) { entry(id: $id) { ... on Page { title } } }', variables: { id: p.get('id') } }, 'application/json')).json();
title.textContent = first.data.entry.title;
const res = await gql({ query: 'subscription ($id: String!) { entryChanged(id: $id) { ... on Page { title } } }', variables: { id: p.get('id') } }, 'text/event-stream');
document.body.dataset.state = 'subscribed';
const reader = res.body.pipeThrough(new TextDecoderStream()).getReader();
let buffer = '';
for (;;) {
  const { done, value } = await reader.read();
  if (done) break;
  buffer += value;
  let end;
  while ((end = buffer.indexOf('\\n\\n')) !== -1) {
    const block = buffer.slice(0, end);
    buffer = buffer.slice(end + 2);
    const data = block.split('\\n').filter((l) => l.startsWith('data:')).map((l) => l.slice(5)).join('\\n');
    if (data) title.textContent = JSON.parse(data).data.entryChanged.title;
  }
}
</script>`;

describe.skipIf(!hasChromium)('a preview page in Chromium', () => {
  let writer: TestApp;
  let reader: TestApp;
  let org: TestOrg;
  let browser: Browser;
  let pages: http.Server;
  const m = (path: string, o: { method?: string; body?: unknown } = {}) => writer.json(`/management/v1${path}`, { token: org.manageToken, ...o });

  beforeAll(async () => {
    writer = await startTestApp({ workers: false });
    reader = writer.stack === 'production' ? await startTestApp({ workers: false }) : writer;
    org = await writer.createOrg();
    pages = http.createServer((_req, res) => res.writeHead(200, { 'content-type': 'text/html; charset=utf-8' }).end(PAGE));
    pages.listen(0, '127.0.0.1');
    await once(pages, 'listening');
    const pagePort = (pages.address() as AddressInfo).port;
    const site = (await m('/sites', { body: { name: 'Main' } })).body.result.id;
    const previewUrl = `http://127.0.0.1:${pagePort}/preview?api=${encodeURIComponent(reader.baseUrl)}&id={id}&token={token}`;
    expect((await m('/models/page', { method: 'PUT', body: { titleField: 'title', fields: [{ alias: 'title', type: 'text' }], previewUrl } })).status).toBe(201);
    await m('/entries/home', { method: 'PUT', body: { model: 'page', siteId: site, fields: { title: 'Draft one' } } });
    browser = await launchChromium();
  });
  afterAll(async () => {
    await browser?.close();
    pages?.close();
    if (reader !== writer) await reader?.close();
    await writer?.close();
  });

  it('opened from a preview link, shows each saved change within a second', async () => {
    const link = await m('/entries/home/preview-link', { method: 'POST' });
    expect(link.status).toBe(201);
    const page = await browser.newPage();
    try {
      await page.goto(link.body.result.url);
      await page.waitForSelector('body[data-state="subscribed"]', { timeout: 10_000 });
      expect(await page.textContent('#title')).toBe('Draft one');
      for (const title of ['Draft two', 'Draft three', 'Draft four']) {
        const started = Date.now();
        expect((await m('/entries/home', { method: 'PATCH', body: { fields: { title } } })).status).toBe(200);
        await page.waitForFunction((want) => document.getElementById('title')?.textContent === want, title, { timeout: 5000, polling: 10 });
        const elapsed = Date.now() - started;
        expect(elapsed, `"${title}" showed after ${elapsed} ms`).toBeLessThan(1000);
      }
    } finally {
      await page.close();
    }
  });
});
