import { readdir } from 'node:fs/promises';
import path from 'node:path';
import { gzipSync } from 'node:zlib';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { STUDIO_DIR } from '../../api/http/studio/index.js';
import { startTestApp, type TestApp } from '../support/harness.js';
import { ensureStudioBuilt } from '../support/studio-build.js';

/** The API serves the built Studio at /studio: the page for every screen, hashed assets cached for a year. */

let t: TestApp;

beforeAll(async () => {
  await ensureStudioBuilt();
  t = await startTestApp();
});
afterAll(async () => {
  await t?.close();
});

describe('/studio', () => {
  it('answers the page for the app and for any of its screens, never cached, with a strict CSP', async () => {
    for (const p of ['/studio', '/studio/', '/studio/entries/abc', '/studio/assets']) {
      const res = await t.fetch(p);
      expect(res.status, p).toBe(200);
      expect(res.headers.get('content-type')).toMatch(/text\/html/);
      expect(res.headers.get('cache-control')).toBe('no-cache');
      const csp = res.headers.get('content-security-policy')!;
      expect(csp).toContain("script-src 'self'");
      expect(csp).toContain("frame-ancestors 'none'");
      expect(csp).not.toContain('unsafe-inline');
      const html = await res.text();
      expect(html).toContain('<div id="root"></div>');
      // no inline script: everything the page runs comes from /studio/bundle
      expect(html).not.toMatch(/<script(?![^>]*\bsrc=)[^>]*>/);
    }
  });

  it('serves hashed assets as immutable for a year, and a missing one as 404 (not the page)', async () => {
    const files = await readdir(path.join(STUDIO_DIR, 'bundle'));
    const script = files.find((f) => f.endsWith('.js'))!;
    const res = await t.fetch(`/studio/bundle/${script}`);
    expect(res.status).toBe(200);
    expect(res.headers.get('content-type')).toMatch(/javascript/);
    expect(res.headers.get('cache-control')).toBe('public, max-age=31536000, immutable');
    const missing = await t.fetch('/studio/bundle/index-00000000.js');
    expect(missing.status).toBe(404);
    expect(missing.headers.get('content-type')).not.toMatch(/text\/html/);
  });

  it('keeps the first page under the JavaScript budget (250 KB compressed)', async () => {
    const html = await (await t.fetch('/studio')).text();
    const scripts = [...html.matchAll(/(?:src|href)="(\/studio\/bundle\/[^"]+\.js)"/g)].map((m) => m[1]);
    expect(scripts.length).toBeGreaterThan(0);
    let compressed = 0;
    for (const s of scripts) compressed += gzipSync(Buffer.from(await (await t.fetch(s)).arrayBuffer())).byteLength;
    expect(compressed).toBeGreaterThan(10_000);
    expect(compressed).toBeLessThan(250 * 1024);
  });
});
