import { readFile } from 'node:fs/promises';
import sharp from 'sharp';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { imagePath } from '../../shared/assets/url-grammar.js';
import { startTestApp, type TestApp } from '../support/harness.js';
import { setupOrg, type GqlOrg } from './graphql-support.js';

/**
 * What one delivery token can make the image workers do: never enlarge a source unless asked,
 * no single derivative over the pixel budget, transforms counted in the query cost, and cache
 * misses limited per organization (hits never).
 */
const fixture = (name: string) => readFile(new URL(`../fixtures/images/${name}`, import.meta.url));
let app: TestApp;
let o: GqlOrg;

async function upload(body: Buffer, fileName: string, contentType: string) {
  const res = await app.json(`/management/v1/assets?fileName=${fileName}`, { method: 'POST', token: o.manage, rawBody: new Uint8Array(body), headers: { 'content-type': contentType } });
  expect(res.status, JSON.stringify(res.body)).toBe(201);
  return res.body.result as { id: string; versionId: string; width: number; height: number };
}

const sizeOf = async (res: Response) => {
  const meta = await sharp(Buffer.from(await res.arrayBuffer())).metadata();
  return { width: meta.width, height: meta.height };
};

beforeAll(async () => {
  app = await startTestApp({ env: { IMAGE_MISS_MEGAPIXELS_PER_MINUTE: '50' } });
  o = await setupOrg(app);
});
afterAll(async () => app?.close());

describe('enlarging', () => {
  let tiny: { id: string };
  beforeAll(async () => {
    tiny = await upload(await sharp({ create: { width: 64, height: 48, channels: 3, background: '#3366aa' } }).png().toBuffer(), 'tiny.png', 'image/png');
  });
  const urlOf = async (transformation: string) =>
    (await o.d(`{ cmsAsset(id: "${tiny.id}") { url(transformation: ${transformation}) } }`)).cmsAsset.url as string;

  it.each([
    ['FIT to 8192×8192', '{ width: 8192, height: 8192 }', { width: 64, height: 48 }],
    ['one side, 4000', '{ width: 4000 }', { width: 64, height: 48 }],
    ['FILL to 8192×4096 (the shape kept, at the source size)', '{ width: 8192, height: 4096, resize: FILL }', { width: 64, height: 32 }],
  ])('%s: the source is not enlarged', async (_what, transformation, size) => {
    const res = await fetch(await urlOf(transformation));
    expect(res.status).toBe(200);
    expect(await sizeOf(res)).toEqual(size);
  });

  it('upscale: true enlarges, within the pixel budget', async () => {
    const res = await fetch(await urlOf('{ width: 1024, height: 1024, upscale: true }'));
    expect(await sizeOf(res)).toEqual({ width: 1024, height: 768 });
    const over = await o.q(`{ cmsAsset(id: "${tiny.id}") { url(transformation: { width: 8192, height: 8192, resize: FILL, upscale: true }) } }`);
    expect(over.body.errors?.[0]).toMatchObject({ message: expect.stringContaining('one image may have at most 50000000'), extensions: { code: 'BAD_USER_INPUT' } });
  });

  it('a signed /img URL over the budget is refused before any work: 400', async () => {
    const path = imagePath(app.services.secrets.signing, { orgId: o.orgId, assetId: tiny.id, versionId: (await o.d(`{ cmsAsset(id: "${tiny.id}") { versionId } }`)).cmsAsset.versionId, ops: { width: 8192, height: 8192, resize: 'FILL', upscale: true, format: 'png' } });
    const res = await app.json(path);
    expect(res.status).toBe(400);
    expect(res.body).toMatchObject({ success: false, errors: [expect.stringContaining('one image may have at most 50000000')] });
  });

  it('a video poster is not enlarged to the player width (1280) either', async () => {
    const poster = await upload(await sharp({ create: { width: 1200, height: 675, channels: 3, background: '#000' } }).jpeg().toBuffer(), 'poster.jpg', 'image/jpeg');
    const video = await upload(await fixture('clip.mp4'), 'clip.mp4', 'video/mp4');
    expect((await app.json(`/management/v1/assets/${video.id}`, { method: 'PATCH', token: o.manage, body: { posterAssetId: poster.id } })).status).toBe(200);
    const config = await app.json(`/embed/${o.orgId}/${video.id}.json`);
    expect(config.body.poster).toContain('/img/');
    expect(await sizeOf(await fetch(config.body.poster))).toEqual({ width: 1200, height: 675 });
  });
});

describe('query cost', () => {
  it('a page of transformed URLs costs 1 + its megapixels each: 500 enlargements are over the limit', async () => {
    const res = await o.q('{ cmsAssetCollection(limit: 500) { items { url(transformation: { width: 8192, height: 8192, upscale: true }) } } }');
    expect(res.body.errors?.[0]?.extensions?.code).toBe('COMPLEXITY_LIMIT_EXCEEDED');
    const thumbs = await o.q('{ cmsAssetCollection(limit: 10) { items { url(transformation: { width: 320, height: 240 }) } } }');
    expect(thumbs.body.extensions?.cost).toBe(10 * 2);
  });
});

describe('cache misses per organization', () => {
  it('are limited to the minute budget of megapixels (429, Retry-After); hits are not', async () => {
    // 3640×2400: 9 megapixels a miss, so a budget of 50 takes five of them
    const source = await upload(await fixture('string.jpg'), 'string.jpg', 'image/jpeg');
    const url = (quality: number) => app.baseUrl + imagePath(app.services.secrets.signing, { orgId: o.orgId, assetId: source.id, versionId: source.versionId, ops: { quality, format: 'jpeg' } });
    for (let q = 50; q < 55; q++) expect([q, (await fetch(url(q))).status]).toEqual([q, 200]);
    // The bucket refills 9 megapixels in 11 s: on a slow machine the five misses take about that
    // long, and the sixth (even the seventh) may still find room. Refused within a few more.
    let q = 55;
    let refused = await fetch(url(q));
    while (refused.status === 200 && q < 58) refused = await fetch(url(++q));
    expect(refused.status).toBe(429);
    expect(Number(refused.headers.get('retry-after'))).toBeGreaterThanOrEqual(1);
    expect(await refused.json()).toMatchObject({ success: false, errors: [expect.stringContaining('megapixels of image transforms')] });
    // what is cached is served
    const hit = await fetch(url(50));
    expect(hit.status).toBe(200);
    expect(hit.headers.get('x-cache')).toBe('HIT');
    // another organization has its own budget
    const other = await setupOrg(app);
    const theirs = await app.json(`/management/v1/assets?fileName=s.jpg`, { method: 'POST', token: other.manage, rawBody: new Uint8Array(await fixture('string.jpg')), headers: { 'content-type': 'image/jpeg' } });
    const otherUrl = app.baseUrl + imagePath(app.services.secrets.signing, { orgId: other.orgId, assetId: theirs.body.result.id, versionId: theirs.body.result.versionId, ops: { quality: 60, format: 'jpeg' } });
    expect((await fetch(otherUrl)).status).toBe(200);
  }, 60_000);

  it('an overlay counts its decoded source in the budget: a 9-megapixel logo over a tiny image', async () => {
    // Each organization has its own budget of 50. A 64×48 base alone costs 1 megapixel a miss;
    // with the 3640×2400 photograph as its overlay, 10.
    const setup = async () => {
      const org = await setupOrg(app);
      const up = async (body: Buffer, name: string, type: string) =>
        (await app.json(`/management/v1/assets?fileName=${name}`, { method: 'POST', token: org.manage, rawBody: new Uint8Array(body), headers: { 'content-type': type } })).body.result;
      const tiny = await up(await sharp({ create: { width: 64, height: 48, channels: 3, background: '#3366aa' } }).png().toBuffer(), 't.png', 'image/png');
      const logo = await up(await fixture('string.jpg'), 's.jpg', 'image/jpeg');
      const overlay = { assetId: logo.id, versionId: logo.versionId, gravity: 'SOUTH_EAST' as const, opacity: 1, scale: 0.5 };
      return (quality: number, withOverlay: boolean) =>
        app.baseUrl + imagePath(app.services.secrets.signing, { orgId: org.orgId, assetId: tiny.id, versionId: tiny.versionId, ops: { quality, format: 'png', ...(withOverlay ? { overlay } : {}) } });
    };
    const statuses = async (url: (q: number) => string) => {
      const out: number[] = [];
      for (let q = 10; q < 18; q++) out.push((await fetch(url(q))).status);
      return out;
    };
    // the control: eight misses of the base alone are well within the budget
    const plain = await setup();
    expect(await statuses((q) => plain(q, false))).toEqual(Array(8).fill(200));
    const overlaid = await setup();
    const s = await statuses((q) => overlaid(q, true));
    expect(s.slice(0, 4)).toEqual([200, 200, 200, 200]);
    expect(s).toContain(429);
  }, 60_000);
});
