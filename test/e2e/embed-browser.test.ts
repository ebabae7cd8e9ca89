import { once } from 'node:events';
import { chromiumFor, launchChromium } from '../support/chromium.js';
import { createServer } from 'node:http';
import { readFile } from 'node:fs/promises';
import type { Browser } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildAssetUrl } from '../../shared/assets/build-asset-url.js';
import { startTestApp, type TestApp, type TestOrg } from '../support/harness.js';

/**
 * A real browser (Debian's Chromium, driven by playwright-core) plays the embed and loads a
 * derivative. `.ci/run` installs /usr/bin/chromium with apt-get; without it this file is skipped.
 */
const hasChromium = chromiumFor('embed-browser.test.ts');

const fixture = (name: string) => readFile(new URL(`../fixtures/images/${name}`, import.meta.url));

describe.skipIf(!hasChromium)('embeds and derivatives in Chromium', () => {
  let app: TestApp;
  let org: TestOrg;
  let browser: Browser;
  let video: { id: string; url: string };
  let image: { id: string; versionId: string; url: string };

  const upload = async (name: string) =>
    (await app.json('/management/v1/assets', { method: 'POST', token: org.manageToken, rawBody: new Uint8Array(await fixture(name)) })).body.result;

  beforeAll(async () => {
    app = await startTestApp();
    org = await app.createOrg();
    [video, image] = [await upload('clip.mp4'), await upload('the-mouse.jpg')];
    await app.json(`/management/v1/assets/${video.id}`, { method: 'PATCH', token: org.manageToken, body: { posterAssetId: image.id } });
    browser = await launchChromium(['--autoplay-policy=no-user-gesture-required']);
  });
  afterAll(async () => {
    await browser?.close();
    await app?.close();
  });

  it('the HTML embed plays the original from /files with its poster', async () => {
    const page = await browser.newPage({ viewport: { width: 640, height: 400 } });
    await page.goto(`${app.baseUrl}/embed/${org.orgId}/${video.id}.html`);
    const state = await page.evaluate(async () => {
      const v = document.querySelector('video')!;
      if (v.readyState < 1) await new Promise((resolve, reject) => {
        v.addEventListener('loadedmetadata', resolve, { once: true });
        v.addEventListener('error', () => reject(new Error(`video error ${v.error?.code}`)), { once: true });
      });
      const poster = new Image();
      poster.src = v.poster;
      await poster.decode();
      const box = v.getBoundingClientRect();
      return { src: v.currentSrc, videoWidth: v.videoWidth, videoHeight: v.videoHeight, duration: v.duration, poster: v.poster, posterWidth: poster.naturalWidth, box: [box.width, box.height] };
    });
    expect(state.src).toBe(video.url);
    expect([state.videoWidth, state.videoHeight, Math.round(state.duration)]).toEqual([320, 180, 3]);
    expect(state.poster).toContain('/img/');
    expect(state.posterWidth).toBe(1280);
    expect(state.box[0]).toBeGreaterThan(state.box[1]);
    await page.close();
  });

  it('the vertical embed is taller than wide', async () => {
    const page = await browser.newPage({ viewport: { width: 800, height: 600 } });
    await page.goto(`${app.baseUrl}/embed/${org.orgId}/${video.id}.html?orientation=vertical`);
    const [w, h] = await page.evaluate(() => {
      const r = document.querySelector('video')!.getBoundingClientRect();
      return [r.width, r.height];
    });
    expect(h).toBeGreaterThan(w);
    expect(Math.round((w / h) * 16)).toBe(9);
    await page.close();
  });

  it('the JS embed mounts the player into a host page on another origin', async () => {
    const hostPage = `<html><body><h1>Host</h1><script src="${app.baseUrl}/embed/${org.orgId}/${video.id}.js"></script><p>after</p></body></html>`;
    const host = createServer((_req, res) => res.writeHead(200, { 'content-type': 'text/html' }).end(hostPage)).listen(0, '127.0.0.1');
    await once(host, 'listening');
    const page = await browser.newPage();
    await page.goto(`http://localhost:${(host.address() as { port: number }).port}/`);
    const frame = await page.waitForSelector('.folio-player iframe');
    expect(await frame.getAttribute('src')).toBe(`${app.baseUrl}/embed/${org.orgId}/${video.id}.html`);
    const inner = await (await frame.contentFrame())!.waitForSelector('video');
    expect(await inner.getAttribute('poster')).toContain('/img/');
    await page.close();
    host.close();
  });

  it('an <img> of a derivative URL has the requested natural size', async () => {
    const src = buildAssetUrl(
      { asset: { ...image, type: 'IMAGE', contentType: 'image/jpeg', fileName: 'm.jpg', focalPoint: null, focalPoints: [], posterAssetId: null, posterKey: null, width: null, height: null }, orgId: org.orgId, transformation: { width: 800, height: 600, resize: 'FILL' } },
      { baseUrl: app.baseUrl, secret: app.services.secrets.signing, presets: new Map() },
    )!;
    const page = await browser.newPage();
    await page.setContent(`<img id="d" src="${src}">`);
    const size = await page.evaluate(async () => {
      const img = document.getElementById('d') as HTMLImageElement;
      await img.decode();
      return [img.naturalWidth, img.naturalHeight];
    });
    expect(size).toEqual([800, 600]);
    await page.close();
  });
});
