import express from 'express';
import { once } from 'node:events';
import { readFile } from 'node:fs/promises';
import sharp from 'sharp';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { errorHandler } from '../../api/http/error-handler.js';
import { imageRoutes } from '../../api/http/img/index.js';
import { requestId } from '../../api/http/request-context.js';
import { removeAsset } from '../../shared/assets/asset-service.js';
import { buildAssetUrl, type AssetTransformationInput, type UrlAsset } from '../../shared/assets/build-asset-url.js';
import { derivativeKeyOf } from '../../shared/assets/derivative-source.js';
import { signPath } from '../../shared/assets/signing.js';
import { parseImagePath } from '../../shared/assets/url-grammar.js';
import { createBlobStore } from '../../shared/adapters/blobs/index.js';
import { createQueue } from '../../shared/adapters/queue/index.js';
import { randomBase62 } from '../../shared/ids.js';
import { startTestApp, type TestApp, type TestOrg } from '../support/harness.js';
import { createAssetCaches } from '../../shared/assets/asset-caches.js';

const fixture = (name: string) => readFile(new URL(`../fixtures/images/${name}`, import.meta.url));

describe('image delivery: /img derivatives and /files originals', () => {
  let app: TestApp;
  let org: TestOrg;
  let mouse: UrlAsset & { url: string; size: number };
  let fish: UrlAsset & { url: string; size: number };
  let presets: Map<string, object>;

  const upload = async (body: Buffer | string, query = '') => {
    const res = await app.json(`/management/v1/assets${query}`, { method: 'POST', token: org.manageToken, rawBody: typeof body === 'string' ? body : new Uint8Array(body) });
    expect(res.status).toBe(201);
    return { ...res.body.result, posterKey: res.body.result.hasExtractedPoster ? "extracted" : null } as UrlAsset & { url: string; size: number };
  };
  const urlOf = (asset: UrlAsset, transformation?: AssetTransformationInput, extra: { useFocalPoint?: boolean; overlayAsset?: UrlAsset } = {}) =>
    buildAssetUrl({ asset, orgId: org.orgId, transformation, ...extra }, { baseUrl: app.baseUrl, secret: app.services.secrets.signing, presets: presets as never })!;
  const get = (url: string, headers: Record<string, string> = {}) => fetch(url, { headers });
  const transforms = async () => (await app.services.metrics.imageTransforms.get()).values.reduce((sum, v) => sum + v.value, 0);

  beforeAll(async () => {
    app = await startTestApp();
    org = await app.createOrg();
    [mouse, fish] = [await upload(await fixture('the-mouse.jpg'), '?fileName=the-mouse.jpg'), await upload(await fixture('goldfish.png'))];
    presets = new Map([['thumb', { width: 320, height: 240, resize: 'FILL', format: 'webp', quality: 70 }]]);
  });
  afterAll(async () => app?.close());

  it('dpr=2 doubles the pixel size, and imageFormat gives the format asked for', async () => {
    const double = await get(urlOf(mouse, { width: 160, height: 120, resize: 'FILL', dpr: 2, imageFormat: 'WEBP' }));
    expect(double.status).toBe(200);
    expect(double.headers.get('content-type')).toBe('image/webp');
    expect(await sharp(Buffer.from(await double.arrayBuffer())).metadata()).toMatchObject({ format: 'webp', width: 320, height: 240 });
    const avif = await get(urlOf(fish, { width: 100, imageFormat: 'AVIF' }));
    expect(avif.headers.get('content-type')).toBe('image/avif');
    expect(await sharp(Buffer.from(await avif.arrayBuffer())).metadata()).toMatchObject({ format: 'heif', width: 100 });
  });

  it('images and files name their asset in Surrogate-Key and Cache-Tag, hits and misses alike, and their paths are recorded for purges', async () => {
    const keys = [`o.${org.orgId}`, `o.${org.orgId}.a.${mouse.id}`];
    const url = urlOf(mouse, { width: 90, blur: 8, sharpen: 2 });
    expect(url).toContain('w_90,bl_8,sh_2');
    for (const cache of ['MISS', 'HIT']) {
      const res = await get(url);
      expect([res.status, res.headers.get('x-cache')]).toEqual([200, cache]);
      expect(res.headers.get('surrogate-key')).toBe(keys.join(' '));
      expect(res.headers.get('cache-tag')).toBe(keys.join(','));
    }
    const file = await get(mouse.url);
    expect(file.headers.get('surrogate-key')).toBe(keys.join(' '));
    await app.services.edgeUrls.flush();
    const { rows } = await app.services.db.query<{ url: string }>('SELECT url FROM edge_urls WHERE org_id = $1 AND keys && $2::text[] ORDER BY url', [org.orgId, [keys[1]]]);
    expect(rows.map((r) => r.url)).toEqual(expect.arrayContaining([new URL(url).pathname, new URL(mouse.url).pathname]));
    // out of range: refused when the URL is built (BAD_USER_INPUT in GraphQL)
    expect(() => urlOf(mouse, { width: 90, blur: 101 })).toThrow('transformation.blur');
    expect(() => urlOf(mouse, { width: 90, sharpen: 0 })).toThrow('transformation.sharpen');
  });

  it('smart crop and the everyday edits are served from their signed URLs; out of range is a 400', async () => {
    const url = urlOf({ ...mouse, focalPoint: null }, { width: 120, height: 120, resize: 'PAD', rotate: 90, flip: 'HORIZONTAL', crop: { x: 0, y: 0, width: 0.5, height: 1 }, background: '#102030', grayscale: true });
    expect(url).toMatch(/\/w_120,h_120,r_pad,c_0_0_0\.5_1,ro_90,fl_h,bg_102030,gs_1\.jpg$/);
    const res = await get(url);
    expect([res.status, res.headers.get('x-cache')]).toEqual([200, 'MISS']);
    const body = Buffer.from(await res.arrayBuffer());
    expect(await sharp(body).metadata()).toMatchObject({ format: 'jpeg', width: 120, height: 120 });
    // the left half (1920×2400) turned is 2400×1920: 120×96 with 12 rows of background above
    const { data } = await sharp(body).raw().toBuffer({ resolveWithObject: true });
    expect(Math.abs(data[0] - 0x10) + Math.abs(data[1] - 0x20) + Math.abs(data[2] - 0x30)).toBeLessThan(12);
    const smart = await get(urlOf({ ...mouse, focalPoint: null }, { width: 100, height: 300, resize: 'FILL', smartCrop: 'AUTO' }));
    expect(smart.status).toBe(200);
    expect(await sharp(Buffer.from(await smart.arrayBuffer())).metadata()).toMatchObject({ width: 100, height: 300 });
    const signed = (ops: string) => `${org.orgId}/${mouse.id}/${mouse.versionId}/${ops}.jpg`;
    for (const [ops, key] of [
      ['ro_45', '"ro"'],
      ['c_0.5_0_0.6_1', '"c"'],
      ['fl_x', '"fl"'],
      ['bg_red', '"bg"'],
      ['g_faces', '"g"'],
    ]) {
      const bad = await app.json(`/img/${signPath(app.services.secrets.signing, `img/${signed(ops)}`)}/${signed(ops)}`);
      expect(bad.status, ops).toBe(400);
      expect(bad.body.errors.join(' ')).toContain(key);
    }
    // and unsigned, a valid edit is refused like any other change to the path
    expect((await get(url.replace('ro_90', 'ro_180'))).status).toBe(403);
  });

  it('q_auto, a cut in pixels and a trim are served from their signed URLs; out of range is a 400', async () => {
    const url = urlOf({ ...mouse, focalPoint: null }, { width: 100, autoQuality: true, cropPixels: { x: 1920, y: 0, width: 1920, height: 1200 }, trim: 5 });
    expect(url).toMatch(/\/w_100,q_auto,cp_1920_0_1920_1200,t_5\.jpg$/);
    const res = await get(url);
    expect([res.status, res.headers.get('x-cache')]).toEqual([200, 'MISS']);
    const meta = await sharp(Buffer.from(await res.arrayBuffer())).metadata();
    expect(meta).toMatchObject({ format: 'jpeg', width: 100 });
    // the photograph's top-right quarter has no uniform border: the trim keeps its 16:10 shape
    expect(meta.height).toBe(63);
    // refused where the URL is built: a cut outside the 3840×2400 source, both cuts, a trim out of range
    expect(() => urlOf(mouse, { cropPixels: { x: 3000, y: 0, width: 1000, height: 10 } })).toThrow('transformation.cropPixels: the rectangle');
    expect(() => urlOf(mouse, { crop: { x: 0, y: 0, width: 0.5, height: 1 }, cropPixels: { x: 0, y: 0, width: 10, height: 10 } })).toThrow('give the cut once');
    expect(() => urlOf(mouse, { trim: 0 })).toThrow('transformation.trim');
    const signed = (ops: string) => `${org.orgId}/${mouse.id}/${mouse.versionId}/${ops}.jpg`;
    for (const [ops, key] of [
      ['cp_3000_0_1000_10', 'inside the 3840×2400 source'],
      ['cp_0_0_0_10', '"cp"'],
      ['t_101', '"t"'],
      ['q_best', '"q"'],
    ]) {
      const bad = await app.json(`/img/${signPath(app.services.secrets.signing, `img/${signed(ops)}`)}/${signed(ops)}`);
      expect(bad.status, ops).toBe(400);
      expect(bad.body.success).toBe(false);
      expect(bad.body.errors.join(' ')).toContain(key);
    }
  });

  it('an animated GIF stays animated as WebP with its frame count; fr_N is one frame; out of range is refused', async () => {
    const src = await sharp(await fixture('the-mouse.jpg')).resize(480).png().toBuffer();
    const frames = await Promise.all([0, 1, 2, 3, 4].map((i) => sharp(src).extract({ left: i * 40, top: 0, width: 240, height: 160 }).png().toBuffer()));
    const gif = await upload(await sharp(frames, { join: { animated: true } }).gif({ delay: 80 }).toBuffer(), '?fileName=walk.gif');
    const moving = await get(urlOf(gif, { width: 120, imageFormat: 'WEBP' }));
    expect(moving.status).toBe(200);
    expect(await sharp(Buffer.from(await moving.arrayBuffer())).metadata()).toMatchObject({ format: 'webp', pages: 5, width: 120, height: 80 });
    const url = urlOf(gif, { width: 120, frame: 3, imageFormat: 'WEBP' });
    expect(url).toMatch(/\/w_120,fr_3\.webp$/);
    const still = await sharp(Buffer.from(await (await get(url)).arrayBuffer())).metadata();
    expect([still.pages ?? 1, still.width]).toEqual([1, 120]);
    expect(() => urlOf(gif, { frame: 1000 })).toThrow('transformation.frame');
    const signed = (ops: string) => `${org.orgId}/${gif.id}/${gif.versionId}/${ops}.webp`;
    const bad = await app.json(`/img/${signPath(app.services.secrets.signing, `img/${signed('fr_1000')}`)}/${signed('fr_1000')}`);
    expect([bad.status, bad.body.success]).toEqual([400, false]);
    // a frame the source does not have: refused by the worker in the envelope
    const missing = await app.json(`/img/${signPath(app.services.secrets.signing, `img/${signed('fr_7')}`)}/${signed('fr_7')}`);
    expect(missing.status).toBe(422);
    expect(missing.body.errors.join(' ')).toContain('the source has 5 frames');
  });

  it('an overlay of another image asset of the organization is drawn; another organization\'s is refused', async () => {
    const url = urlOf(mouse, { width: 200, overlay: { assetId: fish.id, gravity: 'SOUTH_EAST', opacity: 0.8, scale: 0.3 } }, { overlayAsset: fish });
    expect(url).toMatch(new RegExp(`/w_200,o_se_0\\.8_0\\.3_${fish.id}\\.${fish.versionId}\\.jpg$`));
    const res = await get(url);
    expect([res.status, res.headers.get('x-cache')]).toEqual([200, 'MISS']);
    const plain = Buffer.from(await (await get(urlOf(mouse, { width: 200 }))).arrayBuffer());
    const drawn = Buffer.from(await res.arrayBuffer());
    // bottom-right corner changed, top-left not
    const [a, b] = await Promise.all([plain, drawn].map((x) => sharp(x).raw().toBuffer({ resolveWithObject: true })));
    const at = (d: Buffer, x: number, y: number) => d.subarray((y * 200 + x) * 3, (y * 200 + x) * 3 + 3);
    const diff = (x: number, y: number) => at(a.data, x, y).reduce((sum, v, i) => sum + Math.abs(v - at(b.data, x, y)[i]), 0);
    expect(diff(5, 5)).toBeLessThan(15);
    expect(Math.max(diff(190, a.info.height - 10), diff(180, a.info.height - 20), diff(170, a.info.height - 5))).toBeGreaterThan(30);
    // moved 40 pixels in from both edges: the corner itself is the photograph again
    const moved = urlOf(mouse, { width: 200, overlay: { assetId: fish.id, gravity: 'SOUTH_EAST', opacity: 0.8, scale: 0.3, offsetX: 40, offsetY: 40 } }, { overlayAsset: fish });
    expect(moved).toMatch(new RegExp(`/w_200,o_se_0\\.8_0\\.3_${fish.id}\\.${fish.versionId},ox_40,oy_40\\.jpg$`));
    const m = await sharp(Buffer.from(await (await get(moved)).arrayBuffer())).raw().toBuffer({ resolveWithObject: true });
    const movedDiff = (x: number, y: number) => at(a.data, x, y).reduce((sum, v, i) => sum + Math.abs(v - at(m.data, x, y)[i]), 0);
    expect(Math.max(movedDiff(195, a.info.height - 3), movedDiff(190, a.info.height - 8))).toBeLessThan(15);
    expect(() => urlOf(mouse, { width: 200, overlay: { assetId: fish.id, offsetX: -1 } }, { overlayAsset: fish })).toThrow('transformation.overlay: offsetX');
    // through GraphQL's builder: an asset the organization does not have is refused
    expect(() => urlOf(mouse, { width: 200, overlay: { assetId: 'nope' } })).toThrow('transformation.overlay.assetId');
    expect(() => urlOf(mouse, { width: 200, overlay: { assetId: fish.id, opacity: 0 } }, { overlayAsset: fish })).toThrow('transformation.overlay: opacity');
    // signed by hand with another organization's asset: not found in this organization
    const other = await app.createOrg();
    const theirs = await app.json('/management/v1/assets', { method: 'POST', token: other.manageToken, rawBody: new Uint8Array(await fixture('goldfish.png')) });
    const rest = `${org.orgId}/${mouse.id}/${mouse.versionId}/w_200,o_se_1_0.3_${theirs.body.result.id}.${theirs.body.result.versionId}.jpg`;
    const refused = await get(`${app.baseUrl}/img/${signPath(app.services.secrets.signing, `img/${rest}`)}/${rest}`);
    expect(refused.status).toBe(404);
  });

  it('imageFormat AUTO: AVIF, WebP or the source format by Accept, with Vary: Accept; each stored once', async () => {
    const url = urlOf(mouse, { width: 120, imageFormat: 'AUTO' });
    expect(url).toMatch(/,f_auto\.jpg$/);
    const chromium = 'image/avif,image/webp,image/apng,image/*,*/*;q=0.8';
    for (const [accept, type, format] of [
      [chromium, 'image/avif', 'heif'],
      ['image/webp,*/*', 'image/webp', 'webp'],
      ['*/*', 'image/jpeg', 'jpeg'],
    ] as const) {
      const res = await get(url, { accept });
      expect(res.status, accept).toBe(200);
      expect(res.headers.get('content-type')).toBe(type);
      expect(res.headers.get('vary')).toBe('Accept');
      expect(await sharp(Buffer.from(await res.arrayBuffer())).metadata()).toMatchObject({ format, width: 120 });
    }
    const again = await get(url, { accept: chromium });
    expect(again.headers.get('x-cache')).toBe('HIT');
    expect(again.headers.get('content-type')).toBe('image/avif');
    const revalidated = await get(url, { accept: chromium, 'if-none-match': again.headers.get('etag')! });
    expect(revalidated.status).toBe(304);
    expect(revalidated.headers.get('vary')).toBe('Accept');
    // the same derivative as the fixed-format URL: no second transform
    const before = await transforms();
    const fixed = await get(urlOf(mouse, { width: 120, imageFormat: 'WEBP' }));
    expect(fixed.headers.get('x-cache')).toBe('HIT');
    expect(fixed.headers.get('vary')).toBeNull();
    expect(await transforms()).toBe(before);
  });

  it('a miss transforms once and stores the derivative; the next request is a hit', async () => {
    const url = urlOf(mouse, { width: 800, height: 600, resize: 'FILL' });
    const before = await transforms();
    const miss = await get(url);
    expect(miss.status).toBe(200);
    expect(miss.headers.get('x-cache')).toBe('MISS');
    expect(miss.headers.get('content-type')).toBe('image/jpeg');
    expect(miss.headers.get('cache-control')).toBe('public, max-age=31536000, immutable');
    expect(miss.headers.get('etag')).toMatch(/^"[0-9a-f]{40}"$/);
    const bytes = Buffer.from(await miss.arrayBuffer());
    expect(Number(miss.headers.get('content-length'))).toBe(bytes.length);
    expect(await sharp(bytes).metadata()).toMatchObject({ format: 'jpeg', width: 800, height: 600 });

    const hit = await get(url);
    expect(hit.headers.get('x-cache')).toBe('HIT');
    expect(Buffer.from(await hit.arrayBuffer()).equals(bytes)).toBe(true);
    expect(await transforms()).toBe(before + 1);

    const notModified = await get(url, { 'if-none-match': miss.headers.get('etag')! });
    expect(notModified.status).toBe(304);

    // The derivative sits in the configured blob store (S3 when FOLIO_TEST_S3=1: the RADOS Gateway in CI).
    const parts = parseImagePath(app.services.secrets.signing, new URL(url).pathname.slice('/img/'.length));
    expect(await app.services.blobs.head(derivativeKeyOf(parts).key)).toMatchObject({ size: bytes.length });
    if (process.env.FOLIO_TEST_S3 === '1') expect(app.services.blobs.kind).toBe('s3');
  });

  it.each([
    ['FIT', 800, 600, 800, 527],
    ['AUTO', 600, 800, 600, 396],
    ['FILL', 300, 300, 300, 300],
  ] as const)('PNG %s %d×%d → %d×%d PNG with alpha', async (resize, width, height, w, h) => {
    const res = await get(urlOf(fish, { width, height, resize }));
    const meta = await sharp(Buffer.from(await res.arrayBuffer())).metadata();
    expect([res.headers.get('content-type'), meta.format, meta.width, meta.height, meta.hasAlpha]).toEqual(['image/png', 'png', w, h, true]);
  });

  it('a preset sets the output format; gravity picks the crop', async () => {
    const res = await get(urlOf(mouse, { preset: 'thumb' }));
    expect(res.headers.get('content-type')).toBe('image/webp');
    expect(await sharp(Buffer.from(await res.arrayBuffer())).metadata()).toMatchObject({ format: 'webp', width: 320, height: 240 });
    const north = Buffer.from(await (await get(urlOf(mouse, { width: 400, height: 100, resize: 'FILL', gravity: 'NORTH' }))).arrayBuffer());
    const south = Buffer.from(await (await get(urlOf(mouse, { width: 400, height: 100, resize: 'FILL', gravity: 'SOUTH' }))).arrayBuffer());
    expect((await sharp(north).metadata()).height).toBe(100);
    expect(north.equals(south)).toBe(false);
  });

  it('a focal-point crop contains the focal point', async () => {
    const mark = await sharp({ create: { width: 40, height: 40, channels: 3, background: '#00ff00' } }).png().toBuffer();
    const image = await sharp({ create: { width: 2000, height: 1000, channels: 3, background: '#808080' } })
      .composite([{ input: mark, left: 1780, top: 780 }])
      .png()
      .toBuffer();
    const asset = await upload(image);
    const patched = await app.json(`/management/v1/assets/${asset.id}`, { method: 'PATCH', token: org.manageToken, body: { focalPoint: { x: 0.9, y: 0.8 } } });
    const withFocus = { ...asset, focalPoint: patched.body.result.focalPoint };
    const green = async (url: string) => {
      const { data } = await sharp(Buffer.from(await (await get(url)).arrayBuffer())).raw().toBuffer({ resolveWithObject: true });
      for (let i = 0; i < data.length; i += 3) if (data[i + 1] > 200 && data[i] < 60 && data[i + 2] < 60) return true;
      return false;
    };
    expect(await green(urlOf(withFocus, { width: 200, height: 200, resize: 'FILL' }, { useFocalPoint: true }))).toBe(true);
    expect(await green(urlOf(withFocus, { width: 200, height: 200, resize: 'FILL' }))).toBe(false);
  });

  it('answers HEAD like GET without the body, and errors in the REST envelope with the request id', async () => {
    const url = urlOf(mouse, { width: 123, height: 45, resize: 'FILL' });
    const head = await fetch(url, { method: 'HEAD' });
    expect(head.status).toBe(200);
    expect(head.headers.get('x-cache')).toBe('MISS');
    expect(head.headers.get('content-type')).toBe('image/jpeg');
    expect(Number(head.headers.get('content-length'))).toBeGreaterThan(0);
    expect((await head.arrayBuffer()).byteLength).toBe(0);
    const hit = await get(url);
    expect(hit.headers.get('x-cache')).toBe('HIT');
    expect((await hit.arrayBuffer()).byteLength).toBe(Number(head.headers.get('content-length')));

    const refused = await fetch(url.replace('w_123', 'w_124'), { headers: { 'x-request-id': 'req-img-refused-1' } });
    expect(refused.status).toBe(403);
    expect(refused.headers.get('content-type')).toBe('application/json; charset=utf-8');
    expect(refused.headers.get('x-request-id')).toBe('req-img-refused-1');
    const body = (await refused.json()) as { success: boolean; errors: string[]; result: unknown };
    expect(body).toMatchObject({ success: false, result: null });
    expect(body.errors.length).toBeGreaterThan(0);
    // other methods are not image reads: Express answers them (no such route)
    expect((await fetch(url, { method: 'POST' })).status).toBe(404);
  });

  it('refuses tampered URLs with 403 and signed malformed operations with 400', async () => {
    const url = urlOf(mouse, { width: 200 });
    expect((await get(url.replace('w_200', 'w_201'))).status).toBe(403);
    const path = new URL(url).pathname;
    const sig = path.split('/')[2];
    expect((await get(app.baseUrl + path.replace(sig, sig.split('').reverse().join('')))).status).toBe(403);
    expect((await get(`${app.baseUrl}/img/nope`)).status).toBe(403);
    const signed = (rest: string) => `${app.baseUrl}/img/${signPath(app.services.secrets.signing, `img/${rest}`)}/${rest}`;
    const bad = await app.json(new URL(signed(`${org.orgId}/${mouse.id}/${mouse.versionId}/w_0.jpg`)).pathname);
    expect(bad.status).toBe(400);
    expect(bad.body.errors.join(' ')).toContain('"w"');
    expect((await get(signed(`${org.orgId}/${mouse.id}/${mouse.versionId}/w_10,zz_1.jpg`))).status).toBe(400);
    expect((await get(signed(`${org.orgId}/${mouse.id}/${mouse.versionId}/w_10.bmp`))).status).toBe(400);
    // Well-signed but unknown asset, or an outdated version: 404.
    expect((await get(signed(`${org.orgId}/${randomBase62(20)}/${mouse.versionId}/w_10.jpg`))).status).toBe(404);
    expect((await get(signed(`${org.orgId}/${mouse.id}/oldversion/w_10.jpg`))).status).toBe(404);
  });

  it('serves SVG only as the original, under a restrictive CSP', async () => {
    const svg = await upload('<svg xmlns="http://www.w3.org/2000/svg" width="10" height="10"><script>alert(1)</script></svg>');
    expect(urlOf(svg, { width: 5 })).toBe(svg.url);
    const signedRest = `${org.orgId}/${svg.id}/${svg.versionId}/w_5.png`;
    expect((await get(`${app.baseUrl}/img/${signPath(app.services.secrets.signing, `img/${signedRest}`)}/${signedRest}`)).status).toBe(400);
    const original = await get(svg.url);
    expect(original.headers.get('content-type')).toBe('image/svg+xml');
    expect(original.headers.get('content-security-policy')).toContain("default-src 'none'");
  });

  it('a corrupt image gives an error, and the worker keeps working', async () => {
    const corrupt = await upload((await fixture('the-mouse.jpg')).subarray(0, 30_000));
    const res = await app.json(new URL(urlOf(corrupt, { width: 100 })).pathname);
    expect(res.status).toBe(422);
    expect(res.body.errors.join(' ')).toContain('could not be decoded');
    expect((await get(urlOf(mouse, { width: 101 }))).status).toBe(200);
  });

  it('100 concurrent identical requests for a new derivative run exactly one transform', async () => {
    const url = urlOf(mouse, { width: 640, height: 480, resize: 'FILL', quality: 61 });
    const before = await transforms();
    const responses = await Promise.all(Array.from({ length: 100 }, () => get(url)));
    const bodies = await Promise.all(responses.map(async (r) => Buffer.from(await r.arrayBuffer())));
    expect(responses.map((r) => r.status)).toEqual(Array(100).fill(200));
    expect(bodies.every((b) => b.equals(bodies[0]))).toBe(true);
    expect(await transforms()).toBe(before + 1);
  });

  it('two API instances sharing the queue run one transform for the same new derivative', async () => {
    const second = express().use(requestId).use(imageRoutes(app.services)).use(errorHandler(app.services.logger)).listen(0);
    await once(second, 'listening');
    try {
      const url = urlOf(fish, { width: 500, height: 500, resize: 'FILL', gravity: 'NORTH' });
      const other = `http://127.0.0.1:${(second.address() as { port: number }).port}${new URL(url).pathname}`;
      const before = await transforms();
      const responses = await Promise.all(Array.from({ length: 40 }, (_, i) => get(i % 2 === 0 ? url : other)));
      expect(responses.map((r) => r.status)).toEqual(Array(40).fill(200));
      await Promise.all(responses.map((r) => r.arrayBuffer()));
      expect(await transforms()).toBe(before + 1);
    } finally {
      second.close();
    }
  });

  it('answers 504 when the transform outlives the wait, and the job still completes', async () => {
    const slow = express().use(requestId).use(imageRoutes(app.services, { timeoutMs: 1 })).use(errorHandler(app.services.logger));
    const server = slow.listen(0);
    try {
      const port = (server.address() as { port: number }).port;
      const url = urlOf(fish, { width: 3000, height: 2000, resize: 'FILL', quality: 99 });
      const res = await fetch(`http://127.0.0.1:${port}${new URL(url).pathname}`);
      expect(res.status).toBe(504);
      // The same job finishes in the background; the normal route then serves it.
      expect((await get(url)).status).toBe(200);
    } finally {
      server.close();
    }
  });

  it('answers 503 with Retry-After when the transform queue is full', async () => {
    const full = await createQueue(app.services.config, { prefix: `folio:full${randomBase62(8)}`, maxWaiting: { 'image-transform': 0 } });
    const server = express()
      .use(requestId)
      .use(imageRoutes({ ...app.services, queue: full }))
      .use(errorHandler(app.services.logger))
      .listen(0);
    try {
      const port = (server.address() as { port: number }).port;
      const res = await fetch(`http://127.0.0.1:${port}${new URL(urlOf(mouse, { width: 77 })).pathname}`);
      expect(res.status).toBe(503);
      expect(Number(res.headers.get('retry-after'))).toBeGreaterThan(0);
    } finally {
      server.close();
      await full.close();
    }
  });

  it('a deleted asset answers 404 for its derivatives and its original', async () => {
    const asset = await upload(await fixture('the-mouse.jpg'));
    const url = urlOf(asset, { width: 50 });
    expect((await get(url)).status).toBe(200);
    await app.json(`/management/v1/assets/${asset.id}`, { method: 'DELETE', token: org.manageToken });
    expect((await get(url)).status).toBe(404);
    expect((await get(asset.url)).status).toBe(404);
  });

  it('an asset deleted on another instance stops being served from this one\'s memory once the change is announced', async () => {
    // The other instance: same database and storage, its own memory caches.
    const otherBlobs = await createBlobStore(app.services.config);
    const other = { db: app.services.db, blobs: otherBlobs, logger: app.services.logger, assetCaches: createAssetCaches() };
    try {
      const [quiet, announced] = [await upload(await fixture('the-mouse.jpg')), await upload(await fixture('the-mouse.jpg'))];
      const [quietUrl, announcedUrl] = [urlOf(quiet, { width: 60 }), urlOf(announced, { width: 60 })];
      for (const url of [quietUrl, announcedUrl]) {
        expect((await get(url)).headers.get('x-cache')).toBe('MISS');
        expect((await get(url)).headers.get('x-cache')).toBe('HIT');
      }
      // without the bus, this instance keeps answering from memory (until the entry expires)
      await removeAsset(other, org.orgId, quiet.id);
      expect((await get(quietUrl)).status).toBe(200);
      // with it, the next request finds nothing
      await removeAsset({ ...other, bus: app.services.bus }, org.orgId, announced.id);
      await expect.poll(async () => (await get(announcedUrl)).status, { timeout: 5000 }).toBe(404);
      expect((await get(announced.url)).status).toBe(404);
    } finally {
      await otherBlobs.close();
    }
  });

  it('video thumbnails come from the poster asset', async () => {
    const video = await upload(await fixture('clip.mp4'));
    if (!video.posterKey) expect(urlOf(video, { format: 'THUMBNAIL' })).toBeNull();
    await app.json(`/management/v1/assets/${video.id}`, { method: 'PATCH', token: org.manageToken, body: { posterAssetId: mouse.id } });
    const res = await get(urlOf({ ...video, posterAssetId: mouse.id }, { format: 'THUMBNAIL', width: 160 }));
    expect(res.status).toBe(200);
    expect(res.headers.get('cache-control')).toBe('public, max-age=3600');
    expect(await sharp(Buffer.from(await res.arrayBuffer())).metadata()).toMatchObject({ format: 'jpeg', width: 160, height: 100 });
  });

  describe('/files originals', () => {
    it('shows a metadata change and a deletion on the next request (asset rows are cached for reads)', async () => {
      const asset = await upload(await fixture('goldfish.png'), '?fileName=before.png');
      const first = await get(asset.url);
      await first.arrayBuffer();
      expect(first.headers.get('content-disposition')).toContain('filename="before.png"');
      const patched = await app.json(`/management/v1/assets/${asset.id}`, { method: 'PATCH', token: org.manageToken, body: { fileName: 'after.png' } });
      expect(patched.status).toBe(200);
      const second = await get(asset.url);
      await second.arrayBuffer();
      expect(second.headers.get('content-disposition')).toContain('filename="after.png"');
      expect((await app.json(`/management/v1/assets/${asset.id}`, { method: 'DELETE', token: org.manageToken })).status).toBe(200);
      expect((await get(asset.url)).status).toBe(404);
    });

    it('streams with type, disposition, length, ETag and long caching; HEAD and 304', async () => {
      const res = await get(mouse.url);
      expect(res.status).toBe(200);
      expect(res.headers.get('content-type')).toBe('image/jpeg');
      expect(res.headers.get('content-disposition')).toBe(`inline; filename="the-mouse.jpg"; filename*=UTF-8''the-mouse.jpg`);
      expect(res.headers.get('accept-ranges')).toBe('bytes');
      expect(res.headers.get('cache-control')).toBe('public, max-age=31536000, immutable');
      expect(Buffer.from(await res.arrayBuffer()).equals(await fixture('the-mouse.jpg'))).toBe(true);
      const head = await fetch(mouse.url, { method: 'HEAD' });
      expect([head.status, head.headers.get('content-length'), head.headers.get('etag')]).toEqual([200, String(mouse.size), res.headers.get('etag')]);
      expect((await get(mouse.url, { 'if-none-match': res.headers.get('etag')! })).status).toBe(304);
    });

    it('serves byte ranges (206) and refuses unsatisfiable ones (416)', async () => {
      const original = await fixture('the-mouse.jpg');
      const part = await get(mouse.url, { range: 'bytes=100-199' });
      expect(part.status).toBe(206);
      expect(part.headers.get('content-range')).toBe(`bytes 100-199/${original.length}`);
      expect(Buffer.from(await part.arrayBuffer()).equals(original.subarray(100, 200))).toBe(true);
      const tail = await get(mouse.url, { range: 'bytes=-10' });
      expect(Buffer.from(await tail.arrayBuffer()).equals(original.subarray(original.length - 10))).toBe(true);
      const beyond = await get(mouse.url, { range: `bytes=${original.length}-` });
      expect([beyond.status, beyond.headers.get('content-range')]).toEqual([416, `bytes */${original.length}`]);
    });

    it('serves the whole file (200) to a Range whose If-Range does not match the current version (RFC 9110)', async () => {
      const original = await fixture('the-mouse.jpg');
      const etag = (await fetch(mouse.url, { method: 'HEAD' })).headers.get('etag')!;
      const current = await get(mouse.url, { range: 'bytes=100-199', 'if-range': etag });
      expect([current.status, current.headers.get('content-range')]).toEqual([206, `bytes 100-199/${original.length}`]);
      await current.arrayBuffer();
      for (const ifRange of ['"another-version"', `W/${etag}`, 'Sat, 28 Nov 2026 10:00:00 GMT']) {
        const whole = await get(mouse.url, { range: 'bytes=100-199', 'if-range': ifRange });
        expect([whole.status, whole.headers.get('content-range')], ifRange).toEqual([200, null]);
        expect(Buffer.from(await whole.arrayBuffer()).equals(original), ifRange).toBe(true);
      }
    });

    it('refuses tampered paths (403) and unknown assets (404)', async () => {
      expect((await get(mouse.url.replace('the-mouse.jpg', 'other.jpg'))).status).toBe(403);
      const rest = `${org.orgId}/${randomBase62(20)}/v1/x.jpg`;
      expect((await get(`${app.baseUrl}/files/${signPath(app.services.secrets.signing, `files/${rest}`)}/${rest}`)).status).toBe(404);
    });
  });
});
