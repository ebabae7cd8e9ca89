import { readFile } from 'node:fs/promises';
import sharp from 'sharp';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestApp, type TestApp, type TestOrg } from '../support/harness.js';

// An organization's default watermark (a delivery setting): an image asset of its own drawn over
// every derivative whose transformation and preset name no overlay. Audited; setting it needs asset
// edit rights besides the models settings; another organization's asset and token cannot reach it.

const fixture = (name: string) => readFile(new URL(`../fixtures/images/${name}`, import.meta.url));

let t: TestApp;
let org: TestOrg;
let other: TestOrg;
type Uploaded = { id: string; versionId: string };
let photo: Uploaded;
let logo: Uploaded;
let theirLogo: Uploaded;
let delivery: string;

const settings = (body?: unknown, token = org.manageToken) => t.json('/management/v1/delivery-settings', body === undefined ? { token } : { token, method: 'PATCH', body });

async function upload(of: TestOrg, name: string): Promise<Uploaded> {
  const res = await t.json(`/management/v1/assets?fileName=${name}`, { method: 'POST', token: of.manageToken, rawBody: new Uint8Array(await fixture(name)) });
  expect(res.status, JSON.stringify(res.body)).toBe(201);
  return res.body.result as Uploaded;
}

async function urlOf(transformation: string, token = delivery, id = photo.id): Promise<{ url?: string | null; errors?: { message: string; extensions: { code: string } }[] }> {
  const res = await t.fetch('/graphql', { method: 'POST', token, body: { query: `{ cmsAsset(id: "${id}") { url${transformation ? `(transformation: ${transformation})` : ''} } }` } });
  const body = (await res.json()) as { data?: { cmsAsset: { url: string | null } | null }; errors?: { message: string; extensions: { code: string } }[] };
  return { url: body.data?.cmsAsset?.url, errors: body.errors };
}

beforeAll(async () => {
  // every request reads the settings as they are now (no token cache between a change and its check)
  t = await startTestApp({ env: { TOKEN_CACHE_TTL_MS: '0' } });
  [org, other] = await Promise.all([t.createOrg(), t.createOrg()]);
  [photo, logo, theirLogo] = await Promise.all([upload(org, 'the-mouse.jpg'), upload(org, 'goldfish.png'), upload(other, 'goldfish.png')]);
  delivery = await t.createToken(org.manageToken, ['delivery']);
});
afterAll(async () => t?.close());

describe("an organization's default watermark", () => {
  it('refuses bad input in the envelope, and assets it does not have (another organization\'s included)', async () => {
    expect((await settings()).body.result.imageWatermark).toBeNull();
    for (const [body, message] of [
      [{ imageWatermark: { gravity: 'NORTH' } }, 'imageWatermark.assetId'],
      [{ imageWatermark: { assetId: logo.id, opacity: 0 } }, 'imageWatermark.opacity'],
      [{ imageWatermark: { assetId: logo.id, scale: 2 } }, 'imageWatermark.scale'],
      [{ imageWatermark: { assetId: logo.id, offsetX: -1 } }, 'imageWatermark.offsetX'],
      [{ imageWatermark: { assetId: logo.id, gravity: 'UP' } }, 'imageWatermark.gravity'],
      [{ imageWatermark: { assetId: logo.id, colour: 'red' } }, 'colour'],
      [{ imageWatermark: { assetId: 'not-here' } }, 'no image asset "not-here" in this organization'],
      [{ imageWatermark: { assetId: theirLogo.id } }, `no image asset "${theirLogo.id}" in this organization`],
    ] as const) {
      const res = await settings(body);
      expect(res.status, JSON.stringify(body)).toBe(400);
      expect(res.body.success).toBe(false);
      expect(res.body.errors.join(' '), JSON.stringify(body)).toContain(message);
    }
    expect((await settings()).body.result.imageWatermark).toBeNull();
  });

  it('is set, audited, and belongs to one organization', async () => {
    const set = await settings({ imageWatermark: { assetId: logo.id, gravity: 'north_west', opacity: 0.5, offsetX: 8 } });
    expect(set.status, JSON.stringify(set.body)).toBe(200);
    expect(set.body.result.imageWatermark).toEqual({ assetId: logo.id, gravity: 'NORTH_WEST', opacity: 0.5, offsetX: 8 });
    const audited = await t.json('/management/v1/audit-log?subjectType=organization', { token: org.manageToken });
    expect(audited.body.result[0]).toMatchObject({ action: 'organization.changed', changes: { image_watermark: { before: null, after: { assetId: logo.id, gravity: 'NORTH_WEST', opacity: 0.5, offsetX: 8 } } } });
    // another organization's token reads and changes its own settings only; a delivery token none
    expect((await settings(undefined, other.manageToken)).body.result.imageWatermark).toBeNull();
    expect((await settings({ imageWatermark: { assetId: logo.id } }, other.manageToken)).status).toBe(400);
    expect((await settings({ imageWatermark: null }, delivery)).status).toBe(403);
    expect((await settings()).body.result.imageWatermark).toMatchObject({ assetId: logo.id });
  });

  it('needs asset edit rights besides the models settings: a developer may change caching, not the watermark', async () => {
    const dev = await t.json('/management/v1/tokens', { token: org.manageToken, body: { name: 'dev', role: 'developer' } });
    expect(dev.status, JSON.stringify(dev.body)).toBe(201);
    const refused = await settings({ imageWatermark: null }, dev.body.result.token);
    expect(refused.status).toBe(403);
    expect(refused.body.success).toBe(false);
    expect((await settings({ cacheMaxAge: 30 }, dev.body.result.token)).status).toBe(200);
    expect((await settings()).body.result.imageWatermark).toMatchObject({ assetId: logo.id });
  });

  it('is drawn over every derivative that names no overlay of its own, and only this organization\'s', async () => {
    const mark = `o_nw_0\\.5_0\\.25_${logo.id}\\.${logo.versionId},ox_8`;
    const sized = await urlOf('{width: 200}');
    expect(sized.errors).toBeUndefined();
    expect(sized.url).toMatch(new RegExp(`/w_200,${mark}\\.jpg$`));
    // without a transformation an image's url is a derivative too
    expect((await urlOf('')).url).toMatch(new RegExp(`/${mark}\\.jpg$`));
    // a transformation's own overlay replaces it
    expect((await urlOf(`{width: 200, overlay: {assetId: "${photo.id}", scale: 0.1}}`)).url).toMatch(new RegExp(`/w_200,o_se_1_0\\.1_${photo.id}\\.${photo.versionId}\\.jpg$`));
    // the derivative is served, the logo drawn in the top-left corner (8 pixels in)
    const [drawn, plainUrl] = [await t.fetch(new URL(sized.url!).pathname), (await urlOf('{width: 200}', await t.createToken(other.manageToken, ['delivery']), photo.id)).url];
    expect(drawn.status).toBe(200);
    // the other organization's token does not see this organization's asset at all
    expect(plainUrl).toBeUndefined();
    const out = await sharp(Buffer.from(await drawn.arrayBuffer())).raw().toBuffer({ resolveWithObject: true });
    const bare = await sharp(await fixture('the-mouse.jpg')).resize({ width: 200 }).raw().toBuffer({ resolveWithObject: true });
    const at = (d: Buffer, x: number, y: number) => Array.from(d.subarray((y * 200 + x) * 3, (y * 200 + x) * 3 + 3));
    const diff = (x: number, y: number) => at(out.data, x, y).reduce((s, v, i) => s + Math.abs(v - at(bare.data, x, y)[i]), 0);
    expect(diff(2, 2)).toBeLessThan(20);
    expect(Math.max(diff(20, 10), diff(30, 15), diff(35, 20), diff(25, 25))).toBeGreaterThan(30);
    // the other organization has no watermark: its URLs carry none
    const theirPhoto = await upload(other, 'the-mouse.jpg');
    const theirDelivery = await t.createToken(other.manageToken, ['delivery']);
    expect((await urlOf('{width: 200}', theirDelivery, theirPhoto.id)).url).toMatch(/\/w_200\.jpg$/);
  });

  it('null removes it: URLs are as before', async () => {
    expect((await settings({ imageWatermark: null })).body.result.imageWatermark).toBeNull();
    expect((await urlOf('{width: 200}')).url).toMatch(/\/w_200\.jpg$/);
  });
});
