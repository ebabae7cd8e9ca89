import sharp from 'sharp';
import { readFile } from 'node:fs/promises';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { pngWithHeaderOnly } from '../support/fake-png.js';
import { startTestApp, type TestApp } from '../support/harness.js';
import { setupOrg, type GqlOrg } from './graphql-support.js';

const fixture = (name: string) => readFile(new URL(`../fixtures/images/${name}`, import.meta.url));

/**
 * The mouse photograph at 800×500, its left 560 columns (560×500): the mouse's face, marked by
 * hand, sits right of centre (the same scene as the smart-crop tests of shared/assets).
 */
const FACE = { left: 345, top: 180, width: 110, height: 130 };
const SCENE = { width: 560, height: 500 };
const SVG = '<?xml version="1.0"?>\n<svg xmlns="http://www.w3.org/2000/svg" width="120" height="80"><rect/></svg>';

describe('suggestedFocalPoint: where the subject of an image was found at upload', () => {
  let app: TestApp;
  let o: GqlOrg;
  let other: GqlOrg;
  let scene: Buffer;

  const upload = async (body: Buffer | string, contentType: string, token = o.manage) => {
    const res = await app.json('/management/v1/assets', { method: 'POST', token, rawBody: typeof body === 'string' ? body : new Uint8Array(body), headers: { 'content-type': contentType } });
    expect(res.status).toBe(201);
    return res.body.result;
  };
  const gqlAsset = async (id: string, org = o) =>
    (await org.d(`query ($id: String!) { cmsAsset(id: $id) { id focalPoint { x y } suggestedFocalPoint { x y } } }`, { id })).cmsAsset;

  beforeAll(async () => {
    app = await startTestApp();
    [o, other] = await Promise.all([setupOrg(app), setupOrg(app)]);
    const photo = await sharp(await fixture('the-mouse.jpg')).resize(800, 500).png().toBuffer();
    scene = await sharp(photo).extract({ left: 0, top: 0, ...SCENE }).png().toBuffer();
  });
  afterAll(async () => app?.close());

  it('lands inside the hand-marked face box of the photograph, in REST and GraphQL alike', async () => {
    const asset = await upload(scene, 'image/png');
    const { x, y } = asset.suggestedFocalPoint as { x: number; y: number };
    expect(x * SCENE.width).toBeGreaterThanOrEqual(FACE.left);
    expect(x * SCENE.width).toBeLessThanOrEqual(FACE.left + FACE.width);
    expect(y * SCENE.height).toBeGreaterThanOrEqual(FACE.top);
    expect(y * SCENE.height).toBeLessThanOrEqual(FACE.top + FACE.height);
    expect(asset.focalPoint).toBeNull();
    expect((await app.json(`/management/v1/assets/${asset.id}`, { token: o.manage })).body.result.suggestedFocalPoint).toEqual({ x, y });
    expect(await gqlAsset(asset.id)).toEqual({ id: asset.id, focalPoint: null, suggestedFocalPoint: { x, y } });
  });

  it('is only a suggestion: no crop uses it, and a manual focal point does not replace it', async () => {
    const asset = await upload(scene, 'image/png');
    const fill = `url(transformation: {width: 100, height: 100, resize: FILL}, useFocalPoint: true)`;
    const before = (await o.d(`{ cmsAsset(id: "${asset.id}") { ${fill} } }`)).cmsAsset.url as string;
    expect(before).not.toContain('fp_');
    const patched = await app.json(`/management/v1/assets/${asset.id}`, { method: 'PATCH', token: o.manage, body: { focalPoint: { x: 0.1, y: 0.5 } } });
    expect(patched.body.result).toMatchObject({ focalPoint: { x: 0.1, y: 0.5 }, suggestedFocalPoint: asset.suggestedFocalPoint });
    expect((await o.d(`{ cmsAsset(id: "${asset.id}") { ${fill} } }`)).cmsAsset.url).toContain('fp_0.1_0.5');
  });

  it('is computed again for a new version of the file, and dropped when the new version is an SVG', async () => {
    const asset = await upload(scene, 'image/png');
    const flipped = await sharp(scene).flop().png().toBuffer();
    const replaced = await app.json(`/management/v1/assets/${asset.id}/content`, { method: 'PUT', token: o.manage, rawBody: new Uint8Array(flipped) });
    expect(replaced.status).toBe(200);
    // the mirror image's subject is mirrored: the same peak, seen from the other edge
    expect(replaced.body.result.suggestedFocalPoint.x).toBeCloseTo(1 - asset.suggestedFocalPoint.x, 1);
    expect(replaced.body.result.suggestedFocalPoint.y).toBeCloseTo(asset.suggestedFocalPoint.y, 1);
    const svg = await app.json(`/management/v1/assets/${asset.id}/content`, { method: 'PUT', token: o.manage, rawBody: SVG, headers: { 'content-type': 'image/svg+xml' } });
    expect(svg.status).toBe(200);
    expect(svg.body.result).toMatchObject({ contentType: 'image/svg+xml', suggestedFocalPoint: null });
  });

  it('is null for an SVG, a file, and a flat image (junk image data, read as black: nothing stands out)', async () => {
    const svg = await upload(SVG, 'image/svg+xml');
    expect(svg).toMatchObject({ contentType: 'image/svg+xml', suggestedFocalPoint: null });
    const file = await upload('just text', 'text/plain');
    expect(file).toMatchObject({ type: 'FILE', suggestedFocalPoint: null });
    const broken = await upload(pngWithHeaderOnly(64, 48, 256), 'image/png');
    expect(broken).toMatchObject({ contentType: 'image/png', width: 64, height: 48, suggestedFocalPoint: null });
    expect((await gqlAsset(svg.id)).suggestedFocalPoint).toBeNull();
  });

  it("cannot be read with another organization's token", async () => {
    const asset = await upload(scene, 'image/png');
    expect(asset.suggestedFocalPoint).not.toBeNull();
    const rest = await app.json(`/management/v1/assets/${asset.id}`, { token: other.manage });
    expect(rest.status).toBe(404);
    expect(rest.body.success).toBe(false);
    expect(JSON.stringify(rest.body)).not.toContain('suggestedFocalPoint');
    expect(await gqlAsset(asset.id, other)).toBeNull();
    expect((await app.json('/management/v1/assets', { token: other.manage })).body.result.map((a: { id: string }) => a.id)).not.toContain(asset.id);
  });
});
