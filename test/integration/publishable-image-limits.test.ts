import { readFile } from 'node:fs/promises';
import path from 'node:path';
import sharp from 'sharp';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { projectRoot } from '../../shared/paths.js';
import { startTestApp, type TestApp, type TestOrg } from '../support/harness.js';

// An organization limits what its publishable keys may ask of images — sizes and presets — in its
// delivery settings. A URL outside the limits is a FORBIDDEN error and no URL is signed; delivery
// and preview tokens are not limited; the response cache keeps the two kinds of answer apart.

interface GraphqlBody {
  data?: { cmsAsset: Record<string, string | null> | null } | null;
  errors?: { message: string; path?: (string | number)[]; extensions: { code: string } }[];
}

let t: TestApp;
let org: TestOrg;
let other: TestOrg;
let assetId: string;
let otherAssetId: string;
let delivery: string;

const settings = (body?: unknown, token = org.manageToken) =>
  t.json('/management/v1/delivery-settings', body === undefined ? { token } : { token, method: 'PATCH', body });

async function publishableKey(of: TestOrg = org): Promise<string> {
  const res = await t.json('/management/v1/tokens', { token: of.manageToken, body: { name: 'site', scopes: ['delivery'], publishable: true } });
  expect(res.status).toBe(201);
  return res.body.result.token as string;
}

async function upload(of: TestOrg): Promise<string> {
  const jpeg = await sharp({ create: { width: 1200, height: 900, channels: 3, background: '#3a7' } }).jpeg().toBuffer();
  const res = await t.json('/management/v1/assets?fileName=photo.jpg', { method: 'POST', token: of.manageToken, rawBody: new Uint8Array(jpeg), headers: { 'content-type': 'image/jpeg' } });
  expect(res.status, JSON.stringify(res.body)).toBe(201);
  return res.body.result.id as string;
}

/** One field `u` of the asset, asked with a publishable key in the URL or a token in the header. */
async function ask(
  field: string,
  auth: { key: string } | { header: string },
  id = assetId,
): Promise<{ asset: Record<string, string | null> | null | undefined; value: string | null | undefined; errors: GraphqlBody['errors'] }> {
  const query = `{ cmsAsset(id: "${id}") { u: ${field} } }`;
  const params = new URLSearchParams({ query, ...('key' in auth ? { access_token: auth.key } : {}) });
  const res = await t.fetch(`/graphql?${params}`, 'header' in auth ? { token: auth.header } : {});
  expect(res.status).toBe(200);
  const body = (await res.json()) as GraphqlBody;
  return { asset: body.data?.cmsAsset, value: body.data?.cmsAsset?.u, errors: body.errors };
}

const url = (transformation: string) => `url(transformation: ${transformation})`;

/** Signed and with these operations, or refused with FORBIDDEN naming `reason` and no URL. */
async function expectSigned(field: string, key: string, ops: RegExp) {
  const { value, errors } = await ask(field, { key });
  expect(errors, field).toBeUndefined();
  expect(value, field).toMatch(ops);
}
async function expectRefused(field: string, key: string, reason: string) {
  const { value, errors } = await ask(field, { key });
  expect(value, field).toBeNull();
  expect(errors?.map((e) => e.extensions.code), field).toEqual(['FORBIDDEN']);
  expect(errors![0].message).toContain('publishable keys of this organization may not ask for this image');
  expect(errors![0].message).toContain(reason);
}

beforeAll(async () => {
  // every request reads the settings as they are now (no token cache between a change and its check)
  t = await startTestApp({ env: { TOKEN_CACHE_TTL_MS: '0' } });
  [org, other] = await Promise.all([t.createOrg(), t.createOrg()]);
  [assetId, otherAssetId] = await Promise.all([upload(org), upload(other)]);
  delivery = await t.createToken(org.manageToken, ['delivery']);
  for (const [name, preset] of [
    ['card', { width: 300, height: 200, resize: 'FILL' }],
    ['hero', { width: 1200 }],
  ] as const) {
    expect((await t.json(`/management/v1/image-presets/${name}`, { method: 'PUT', token: org.manageToken, body: preset })).status).toBe(201);
  }
});
afterAll(async () => t?.close());

describe('the delivery settings of publishable image limits', () => {
  it('start unlimited, refuse bad values in the envelope, and belong to one organization', async () => {
    expect((await settings()).body.result).toMatchObject({ publishableImageSizes: null, publishableImagePresets: null });
    for (const body of [
      { publishableImageSizes: {} },
      { publishableImageSizes: { maxWidth: 0 } },
      { publishableImageSizes: { maxWidth: 8193 } },
      { publishableImageSizes: { maxWidth: 1.5 } },
      { publishableImageSizes: { widths: [] } },
      { publishableImageSizes: { widths: [320, 9000] } },
      { publishableImageSizes: { maxWidth: 800, depth: 1 } },
      { publishableImageSizes: 800 },
      { publishableImagePresets: 'card' },
      { publishableImagePresets: ['Not A Name'] },
      { publishableImagePresets: Array.from({ length: 101 }, (_, i) => `p${i}`) },
    ]) {
      const res = await settings(body);
      expect(res.status, JSON.stringify(body)).toBe(400);
      expect(res.body.success).toBe(false);
      expect(res.body.errors.length).toBeGreaterThan(0);
    }
    const set = await settings({ publishableImageSizes: { maxWidth: 800, widths: [640, 320, 320] }, publishableImagePresets: ['card', 'card'] });
    expect(set.status).toBe(200);
    expect(set.body.result).toMatchObject({ publishableImageSizes: { maxWidth: 800, widths: [320, 640] }, publishableImagePresets: ['card'], cacheMaxAge: 60 });
    // audited like the other settings
    const audited = await t.json('/management/v1/audit-log?subjectType=organization', { token: org.manageToken });
    expect(audited.body.result[0]).toMatchObject({
      action: 'organization.changed',
      changes: { publishable_image_sizes: { before: null, after: { maxWidth: 800, widths: [320, 640] } }, publishable_image_presets: { before: null, after: ['card'] } },
    });
    // another organization's token reads and changes its own settings only; a delivery token none
    expect((await settings(undefined, other.manageToken)).body.result).toMatchObject({ publishableImageSizes: null, publishableImagePresets: null });
    expect((await settings({ publishableImagePresets: [] }, other.manageToken)).status).toBe(200);
    expect((await settings()).body.result.publishableImagePresets).toEqual(['card']);
    expect((await settings({ publishableImagePresets: null }, delivery)).status).toBe(403);
    // null clears a limit and leaves the others alone
    expect((await settings({ publishableImagePresets: null })).body.result).toMatchObject({ publishableImageSizes: { maxWidth: 800 }, publishableImagePresets: null });
    expect((await settings({ publishableImageSizes: null, publishableImagePresets: null })).body.result).toMatchObject({ publishableImageSizes: null, publishableImagePresets: null });
    expect((await settings({ publishableImagePresets: null }, other.manageToken)).status).toBe(200);
  });
});

describe('a publishable key held to sizes', () => {
  it('is signed URLs within them and refused others; delivery tokens and other organizations are not limited', async () => {
    expect((await settings({ publishableImageSizes: { maxWidth: 800, maxHeight: 500, widths: [320, 600, 640, 1000] } })).status).toBe(200);
    const key = await publishableKey();
    await expectSigned(url('{ width: 320 }'), key, /\/img\/[^/]+\/[^/]+\/[^/]+\/[^/]+\/w_320\.jpg$/);
    await expectSigned(url('{ width: 600, imageFormat: AUTO }'), key, /\/w_600,f_auto\.jpg$/);
    await expectSigned('url', key, /\/files\//);
    await expectRefused(url('{ width: 480 }'), key, 'the width 480 is not one of 320, 600, 640, 1000');
    await expectSigned(url('{ width: 320, dpr: 2 }'), key, /\/w_640\.jpg$/);
    await expectRefused(url('{ width: 320, dpr: 1.5 }'), key, 'the width 480 is not one of');
    await expectRefused(url('{ imageFormat: AVIF }'), key, 'a derivative must name a width');
    // 1000 is listed, but the 1000×750 output is wider and taller than allowed
    await expectRefused(url('{ width: 1000 }'), key, 'more than 800 ("publishableImageSizes.maxWidth")');
    // 640×480 fits; 640 × 2 upscaled does not
    await expectSigned(url('{ width: 640, height: 480, resize: FILL }'), key, /\/w_640,h_480,r_fill\.jpg$/);
    await expectRefused(url('{ width: 640, height: 600, resize: FILL }'), key, 'more than 500 ("publishableImageSizes.maxHeight")');
    await expectSigned('srcSet(widths: [320, 640])', key, /w_320\.jpg 320w, .*w_640\.jpg 640w$/);
    await expectRefused('srcSet(widths: [320, 480])', key, 'the width 480 is not one of');

    // the same requests with a delivery token in the header, and another organization's key
    for (const field of [url('{ width: 480 }'), url('{ width: 1000 }'), 'srcSet(widths: [320, 480])']) {
      const { value, errors } = await ask(field, { header: delivery });
      expect(errors, field).toBeUndefined();
      expect(value, field).toContain('/img/');
    }
    const theirs = await ask(url('{ width: 480 }'), { key: await publishableKey(other) }, otherAssetId);
    expect([theirs.errors, theirs.value]).toEqual([undefined, expect.stringContaining('/w_480.jpg')]);
    // another organization's key cannot reach this organization's asset at all
    const across = await ask(url('{ width: 320 }'), { key: await publishableKey(other) });
    expect([across.errors, across.asset]).toEqual([undefined, null]);
  });

  it('a widths list keeps a srcSet of a small source to a listed width', async () => {
    expect((await settings({ publishableImageSizes: { widths: [2000, 4000] } })).status).toBe(200);
    // the 1,200-pixel source is narrower than both: the smallest listed width stands in, not enlarged
    await expectSigned('srcSet(widths: [2000, 4000])', await publishableKey(), /\/w_2000\.jpg 1200w$/);
  });
});

describe('a video through a publishable key', () => {
  it('has its thumbnail held to the sizes; embeds and the original are not limited', async () => {
    const clip = await readFile(path.join(projectRoot, 'test/fixtures/images/clip.mp4'));
    const video = await t.json('/management/v1/assets?fileName=clip.mp4', { method: 'POST', token: org.manageToken, rawBody: new Uint8Array(clip) });
    expect(video.status, JSON.stringify(video.body)).toBe(201);
    const videoId = video.body.result.id as string;
    expect((await t.json(`/management/v1/assets/${videoId}`, { method: 'PATCH', token: org.manageToken, body: { posterAssetId: assetId } })).status).toBe(200);
    expect((await settings({ publishableImageSizes: { widths: [320] }, publishableImagePresets: null })).status).toBe(200);
    const key = await publishableKey();
    const thumbnail = await ask(url('{ format: THUMBNAIL, width: 320 }'), { key }, videoId);
    expect([thumbnail.errors, thumbnail.value]).toEqual([undefined, expect.stringMatching(/\/img\/.*\/w_320\.jpg$/)]);
    const wide = await ask(url('{ format: THUMBNAIL, width: 640 }'), { key }, videoId);
    expect([wide.value, wide.errors?.[0].extensions.code, wide.errors?.[0].message]).toEqual([null, 'FORBIDDEN', expect.stringContaining('the width 640 is not one of 320')]);
    expect((await ask(url('{ format: HTML }'), { key }, videoId)).value).toMatch(/\/embed\/.*\.html$/);
    expect((await ask('url', { key }, videoId)).value).toContain('/files/');
    expect((await settings({ publishableImageSizes: null })).status).toBe(200);
  });
});

describe('a publishable key held to presets', () => {
  it('names a listed preset, adds no shaping, and sizes only within limited sizes', async () => {
    expect((await settings({ publishableImageSizes: null, publishableImagePresets: ['card'] })).status).toBe(200);
    const key = await publishableKey();
    await expectSigned(url('{ preset: "card" }'), key, /\/w_300,h_200,r_fill\.jpg$/);
    await expectSigned(url('{ preset: "card", imageFormat: AUTO }'), key, /\/w_300,h_200,r_fill,f_auto\.jpg$/);
    await expectSigned('url', key, /\/files\//);
    await expectRefused(url('{ preset: "hero" }'), key, 'the preset "hero" is not one of card');
    await expectRefused(url('{ width: 300 }'), key, 'a derivative must name one of the presets card');
    await expectRefused(url('{ preset: "card", quality: 30 }'), key, 'quality cannot be added to a preset');
    await expectRefused(url('{ preset: "card", width: 600 }'), key, 'width cannot be added to a preset');
    await expectRefused('srcSet(widths: [300, 600], transformation: { preset: "card" })', key, 'width cannot be added to a preset');

    // with sizes limited too, a preset may be resized within them
    expect((await settings({ publishableImageSizes: { widths: [300, 600] } })).status).toBe(200);
    const sized = await publishableKey();
    await expectSigned(url('{ preset: "card", width: 600 }'), sized, /\/w_600,h_200,r_fill\.jpg$/);
    await expectSigned('srcSet(widths: [300, 600], transformation: { preset: "card" })', sized, /w_300,h_200,r_fill\.jpg 300w, .*w_600,h_200,r_fill\.jpg 600w$/);
    await expectRefused(url('{ preset: "card", width: 900 }'), sized, 'the width 900 is not one of 300, 600');

    // an empty list: originals only
    expect((await settings({ publishableImageSizes: null, publishableImagePresets: [] })).status).toBe(200);
    const none = await publishableKey();
    await expectRefused(url('{ preset: "card" }'), none, 'is not one of none');
    await expectSigned('url', none, /\/files\//);
    const { errors } = await ask(url('{ preset: "hero", quality: 10 }'), { header: delivery });
    expect(errors).toBeUndefined();
    expect((await settings({ publishableImagePresets: null })).status).toBe(200);
  });
});

describe('the response cache', () => {
  it("never gives a publishable key an answer minted for another token or under other limits", async () => {
    expect((await settings({ publishableImageSizes: null, publishableImagePresets: null })).status).toBe(200);
    const field = url('{ width: 777 }');
    // asked twice with a delivery token: admitted to the cache on the second time
    for (let i = 0; i < 2; i++) expect((await ask(field, { header: delivery })).value).toContain('/w_777.jpg');
    // and twice by a publishable key while there are no limits
    const key = await publishableKey();
    for (let i = 0; i < 2; i++) expect((await ask(field, { key })).value).toContain('/w_777.jpg');

    expect((await settings({ publishableImageSizes: { maxWidth: 500 } })).status).toBe(200);
    for (let i = 0; i < 2; i++) await expectRefused(field, key, 'more than 500');
    // the delivery token's answer is still its own
    expect((await ask(field, { header: delivery })).value).toContain('/w_777.jpg');
    expect((await settings({ publishableImageSizes: null })).status).toBe(200);
    expect((await ask(field, { key })).value).toContain('/w_777.jpg');
  });
});
