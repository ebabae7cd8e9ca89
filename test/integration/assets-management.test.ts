import sharp from 'sharp';
import { randomBytes } from 'node:crypto';
import { readFile } from 'node:fs/promises';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { pngWithHeaderOnly } from '../support/fake-png.js';
import { startTestApp, type TestApp, type TestOrg } from '../support/harness.js';
import { buildAssetUrl } from '../../shared/assets/build-asset-url.js';

const fixture = (name: string) => readFile(new URL(`../fixtures/images/${name}`, import.meta.url));
const UPLOAD_LIMIT = 8 * 1024 * 1024;

/** A PNG whose header claims 10000×6000 pixels (60 MP) with junk as image data. */
const oversizedPng = () => pngWithHeaderOnly(10000, 6000, 256);

describe('management API: assets and image presets', () => {
  let app: TestApp;
  let org: TestOrg;
  let other: TestOrg;
  let jpeg: Buffer;
  let png: Buffer;

  const upload = (body: Buffer | string, query = '', token = org.manageToken, headers: Record<string, string> = { 'content-type': 'text/plain' }) =>
    app.json(`/management/v1/assets${query}`, { method: 'POST', token, rawBody: typeof body === 'string' ? body : new Uint8Array(body), headers });
  const objectsOf = async (orgId: string) => {
    const keys: string[] = [];
    for (const prefix of [`originals/${orgId}/`, `assets/${orgId}/`]) for await (const k of app.services.blobs.list(prefix)) keys.push(k);
    return keys;
  };
  const contentVersion = async (orgId: string) =>
    (await app.services.db.query<{ v: number }>('SELECT content_version AS v FROM organizations WHERE id = $1', [orgId])).rows[0].v;

  beforeAll(async () => {
    app = await startTestApp({ env: { UPLOAD_LIMIT_BYTES: String(UPLOAD_LIMIT) } });
    [org, other, jpeg, png] = await Promise.all([app.createOrg(), app.createOrg(), fixture('the-mouse.jpg'), fixture('goldfish.png')]);
  });
  afterAll(async () => app?.close());

  it('uploads a raw body, typed from its bytes, with sharp dimensions and metadata from the query', async () => {
    const before = await contentVersion(org.orgId);
    const res = await upload(jpeg, '?fileName=mouse.jpg&title=Mouse&alt=A%20mouse&tags=a,b&tags=c');
    expect(res.status).toBe(201);
    expect(res.body.result).toMatchObject({
      type: 'IMAGE',
      contentType: 'image/jpeg',
      width: 3840,
      height: 2400,
      size: jpeg.length,
      fileName: 'mouse.jpg',
      title: 'Mouse',
      alt: 'A mouse',
      tags: ['a', 'b', 'c'],
      focalPoint: null,
      focalPoints: [],
    });
    expect(res.body.result.url).toMatch(new RegExp(`^${app.baseUrl}/files/[^/]+/${org.orgId}/${res.body.result.id}/`));
    expect(await contentVersion(org.orgId)).toBeGreaterThan(before);
    const stored = await app.fetch(new URL(res.body.result.url).pathname);
    expect(Buffer.from(await stored.arrayBuffer()).equals(jpeg)).toBe(true);
  });

  it('makes a placeholder at upload: a tiny blurred WebP data URI of the image, none for a file', async () => {
    const image = (await upload(jpeg, '?fileName=mouse.jpg')).body.result;
    expect(image.placeholder).toMatch(/^data:image\/webp;base64,[A-Za-z0-9+/=]+$/);
    expect(image.placeholder.length).toBeLessThan(1024);
    const decoded = await sharp(Buffer.from(image.placeholder.split(',')[1], 'base64')).metadata();
    expect(decoded).toMatchObject({ format: 'webp', width: 16, height: 10 }); // 3840×2400 → 16×10
    const replaced = await app.json(`/management/v1/assets/${image.id}/content`, { method: 'PUT', token: org.manageToken, rawBody: new Uint8Array(png) });
    expect(replaced.status).toBe(200);
    expect(replaced.body.result.placeholder).not.toBe(image.placeholder);
    expect((await sharp(Buffer.from(replaced.body.result.placeholder.split(',')[1], 'base64')).metadata()).width).toBeLessThanOrEqual(16);
    expect((await upload('just text', '?fileName=notes.txt')).body.result.placeholder).toBeNull();
  });

  it('uploads multipart/form-data, taking fields before the file and the part file name', async () => {
    const form = new FormData();
    form.append('title', 'Goldfish');
    form.append('file', new Blob([new Uint8Array(png)], { type: 'application/octet-stream' }), 'fish.png');
    const res = await app.json('/management/v1/assets?alt=fish', { method: 'POST', token: org.manageToken, rawBody: form });
    expect(res.status).toBe(201);
    expect(res.body.result).toMatchObject({ type: 'IMAGE', contentType: 'image/png', width: 3640, height: 2400, title: 'Goldfish', alt: 'fish', fileName: 'fish.png' });
  });

  it('accepts videos with their duration and size read from the file (moov at the end)', async () => {
    const res = await upload(await fixture('clip.mp4'), '?fileName=clip.mp4');
    expect(res.status).toBe(201);
    expect(res.body.result).toMatchObject({ type: 'VIDEO', contentType: 'video/mp4', width: 320, height: 180, duration: 3 });
  });

  it('types SVG and markup from the bytes: SVG is an image, HTML is plain text', async () => {
    const svg = await upload('<?xml version="1.0"?>\n<svg xmlns="http://www.w3.org/2000/svg" width="120" height="80"><rect/></svg>', '', org.manageToken, {
      'content-type': 'image/png',
    });
    expect(svg.body.result).toMatchObject({ type: 'IMAGE', contentType: 'image/svg+xml', width: 120, height: 80 });
    const html = await upload('<html><script>alert(1)</script></html>', '', org.manageToken, { 'content-type': 'text/html' });
    expect(html.body.result).toMatchObject({ type: 'FILE', contentType: 'text/plain; charset=utf-8' });
  });

  it('refuses images over 50 megapixels from the header, leaving no blob and no row', async () => {
    const fresh = await app.createOrg();
    const res = await upload(oversizedPng(), '', fresh.manageToken);
    expect(res.status).toBe(422);
    expect(res.body.errors.join(' ')).toMatch(/10000×6000.*50 megapixels/);
    expect(await objectsOf(fresh.orgId)).toEqual([]);
    expect((await app.json('/management/v1/assets', { token: fresh.manageToken })).body.resultInfo.totalCount).toBe(0);
  });

  it('reads an image header that sits behind more than the first megabyte of metadata', async () => {
    // 20 APP15 segments (1.3 MB) between the JPEG's start and its frame header, as large XMP or
    // maker notes put them: the first megabyte alone holds no dimensions.
    const segment = Buffer.alloc(65_537, 0x20);
    segment.set([0xff, 0xef, 0xff, 0xff]);
    const padded = Buffer.concat([jpeg.subarray(0, 2), ...Array<Buffer>(20).fill(segment), jpeg.subarray(2)]);
    const res = await upload(padded);
    expect(res.status).toBe(201);
    expect(res.body.result).toMatchObject({ type: 'IMAGE', contentType: 'image/jpeg', width: 3840, height: 2400, size: padded.length });
    const stored = await app.fetch(`/management/v1/assets/${res.body.result.id}`, { token: org.manageToken }).then((r) => r.json());
    expect(stored.result.size).toBe(padded.length);
  });

  it('refuses a file that is no image at all, however far it is read', async () => {
    const fresh = await app.createOrg();
    // JPEG magic followed by 3 MB of noise: typed as JPEG, no header anywhere
    const fake = Buffer.concat([Buffer.from([0xff, 0xd8, 0xff, 0xe0]), randomBytes(3 * 1024 * 1024)]);
    const res = await upload(fake, '', fresh.manageToken);
    expect(res.status).toBe(422);
    expect(res.body.errors.join(' ')).toMatch(/not a readable image/);
    expect(await objectsOf(fresh.orgId)).toEqual([]);
  });

  it('refuses uploads over the size limit (413) and empty ones (400), leaving nothing behind', async () => {
    const fresh = await app.createOrg();
    // Streamed without a length, so the limit is enforced on the bytes themselves.
    const big = randomBytes(UPLOAD_LIMIT + 1024 * 1024);
    const stream = new ReadableStream({
      start(c) {
        for (let i = 0; i < big.length; i += 256 * 1024) c.enqueue(big.subarray(i, i + 256 * 1024));
        c.close();
      },
    });
    const res = await fetch(`${app.baseUrl}/management/v1/assets`, {
      method: 'POST',
      headers: { authorization: `Bearer ${fresh.manageToken}`, 'content-type': 'application/octet-stream' },
      body: stream,
      duplex: 'half',
    } as RequestInit);
    expect(res.status).toBe(413);
    // With a declared length the refusal comes before any byte is read.
    expect((await upload(big, '', fresh.manageToken)).status).toBe(413);
    expect((await upload(Buffer.alloc(0), '', fresh.manageToken)).status).toBe(400);
    expect(await objectsOf(fresh.orgId)).toEqual([]);
    expect((await app.json('/management/v1/assets', { token: fresh.manageToken })).body.resultInfo.totalCount).toBe(0);
  });

  it.each([
    ['?color=red', 'color'],
    [`?title=${'x'.repeat(501)}`, 'title: at most 500'],
    ['?fileName=', 'fileName: must not be empty'],
  ])('refuses the query %s naming the field', async (query, message) => {
    const res = await upload(jpeg.subarray(0, 100), query.slice(0, 600));
    expect(res.status).toBe(400);
    expect(res.body.errors.join(' ')).toContain(message);
  });

  describe('an uploaded image', () => {
    let id: string;
    beforeAll(async () => {
      id = (await upload(jpeg, '?fileName=mouse.jpg')).body.result.id;
    });

    it('patches metadata, the focal point and per-ratio focal points', async () => {
      const before = await contentVersion(org.orgId);
      const res = await app.json(`/management/v1/assets/${id}`, {
        method: 'PATCH',
        token: org.manageToken,
        body: { title: 'New', caption: null, focalPoint: { x: 0.2, y: 0.8 }, focalPoints: [{ ratio: '1:1', focalPoint: { x: 0, y: 1 } }] },
      });
      expect(res.status).toBe(200);
      expect(res.body.result).toMatchObject({ title: 'New', caption: null, focalPoint: { x: 0.2, y: 0.8 }, focalPoints: [{ ratio: '1:1', focalPoint: { x: 0, y: 1 } }] });
      expect(await contentVersion(org.orgId)).toBeGreaterThan(before);
      expect((await app.json(`/management/v1/assets/${id}`, { token: org.manageToken })).body.result.title).toBe('New');
    });

    it.each([
      [{ focalPoint: { x: 1.5, y: 0 } }, 'focalPoint.x: must be between 0 and 1'],
      [{ focalPoint: { x: 0.5, y: -0.1 } }, 'focalPoint.y: must be between 0 and 1'],
      [{ focalPoint: { x: '0.5', y: 0 } }, 'focalPoint.x: must be a number'],
      [{ focalPoints: [{ ratio: 'square', focalPoint: { x: 0, y: 0 } }] }, 'focalPoints[0].ratio: must look like "16:9"'],
      [{ focalPoints: [{ ratio: '1:1', focalPoint: { x: 2, y: 0 } }] }, 'focalPoints[0].focalPoint.x: must be between 0 and 1'],
      [
        {
          focalPoints: [
            { ratio: '1:1', focalPoint: { x: 0, y: 0 } },
            { ratio: '1:1', focalPoint: { x: 1, y: 1 } },
          ],
        },
        'focalPoints: each ratio may appear once',
      ],
      [{ size: 5 }, 'size'],
      [{ tags: 'a' }, 'tags'],
    ])('refuses the patch %j naming the field and rule', async (body, message) => {
      const res = await app.json(`/management/v1/assets/${id}`, { method: 'PATCH', token: org.manageToken, body });
      expect(res.status).toBe(400);
      expect(res.body.errors.join(' ')).toContain(message);
    });

    it('allows a poster only on videos and only from an image of the org', async () => {
      const video = (await upload(await fixture('clip.mp4'))).body.result.id;
      const patch = (target: string, posterAssetId: string, token = org.manageToken) =>
        app.json(`/management/v1/assets/${target}`, { method: 'PATCH', token, body: { posterAssetId } });
      expect((await patch(id, id)).body.errors.join(' ')).toContain('posterAssetId: only video assets');
      expect((await patch(video, video)).status).toBe(422);
      const foreign = (await upload(jpeg, '', other.manageToken)).body.result.id;
      const res = await patch(video, foreign);
      expect(res.status).toBe(422);
      expect(res.body.errors.join(' ')).toContain(`posterAssetId: no image asset "${foreign}"`);
      expect((await patch(video, id)).body.result.posterAssetId).toBe(id);
    });

    it('takes new content as a new version and removes the old original', async () => {
      const before = (await app.json(`/management/v1/assets/${id}`, { token: org.manageToken })).body.result;
      const res = await app.json(`/management/v1/assets/${id}/content?fileName=fish.png`, { method: 'PUT', token: org.manageToken, rawBody: new Uint8Array(png) });
      expect(res.status).toBe(200);
      expect(res.body.result).toMatchObject({ id, contentType: 'image/png', width: 3640, fileName: 'fish.png', title: 'New' });
      expect(res.body.result.versionId).not.toBe(before.versionId);
      expect((await app.fetch(new URL(before.url).pathname)).status).toBe(404);
      expect((await app.fetch(new URL(res.body.result.url).pathname)).status).toBe(200);
    });

    it('hides other organizations\' assets (404) and checks token and scope', async () => {
      for (const [method, path] of [
        ['GET', `/management/v1/assets/${id}`],
        ['PATCH', `/management/v1/assets/${id}`],
        ['DELETE', `/management/v1/assets/${id}`],
        ['PUT', `/management/v1/assets/${id}/content`],
      ] as const) {
        const foreign = await app.json(path, { method, token: other.manageToken, ...(method === 'PUT' ? { rawBody: new Uint8Array(png) } : { body: method === 'PATCH' ? { title: 'x' } : undefined }) });
        expect([method, foreign.status]).toEqual([method, 404]);
        expect((await app.json(path, { method })).status).toBe(401);
      }
      const delivery = await app.createToken(org.manageToken, ['delivery']);
      for (const [method, path] of [
        ['GET', `/management/v1/assets/${id}`],
        ['GET', '/management/v1/assets'],
        ['PATCH', `/management/v1/assets/${id}`],
        ['DELETE', `/management/v1/assets/${id}`],
        ['PUT', `/management/v1/assets/${id}/content`],
      ] as const) {
        const res = await app.json(path, { method, token: delivery, ...(method === 'PUT' ? { rawBody: new Uint8Array(png) } : { body: method === 'PATCH' ? { title: 'x' } : undefined }) });
        expect([method, path, res.status]).toEqual([method, path, 403]);
      }
      expect((await app.json('/management/v1/assets')).status).toBe(401);
      expect((await upload(jpeg, '', delivery)).status).toBe(403);
      expect((await upload(jpeg, '', 'folio_nope')).status).toBe(401);
      expect((await app.json('/management/v1/assets', { token: other.manageToken })).body.result.map((a: { id: string }) => a.id)).not.toContain(id);
    });

    it('deletes: 404 afterwards, blobs removed, foreign ids untouched', async () => {
      const res = await app.json(`/management/v1/assets/${id}`, { method: 'DELETE', token: org.manageToken });
      expect(res.status).toBe(200);
      expect((await app.json(`/management/v1/assets/${id}`, { token: org.manageToken })).status).toBe(404);
      expect((await app.json(`/management/v1/assets/${id}`, { method: 'DELETE', token: org.manageToken })).status).toBe(404);
      expect((await objectsOf(org.orgId)).filter((k) => k.includes(`/${id}/`))).toEqual([]);
    });
  });

  it('lists assets with paging and a type filter', async () => {
    const fresh = await app.createOrg();
    await upload(jpeg, '', fresh.manageToken);
    await upload(await fixture('clip.mp4'), '', fresh.manageToken);
    const page = await app.json('/management/v1/assets?pageSize=1', { token: fresh.manageToken });
    expect(page.body.resultInfo).toMatchObject({ totalCount: 2, pageSize: 1, totalPages: 2, hasNextPage: true });
    const videos = await app.json('/management/v1/assets?type=VIDEO', { token: fresh.manageToken });
    expect(videos.body.result.map((a: { type: string }) => a.type)).toEqual(['VIDEO']);
    expect((await app.json('/management/v1/assets?type=MOVIE', { token: fresh.manageToken })).body.errors.join(' ')).toContain('type: must be an asset type');
    expect((await app.json('/management/v1/assets?pageSize=1000', { token: fresh.manageToken })).status).toBe(400);
  });

  it('searches titles, file names and alt text word by word, and filters by tag; only its own organization', async () => {
    const fresh = await app.createOrg();
    await upload(jpeg, '?fileName=mouse-summer.jpg&title=Field%20mouse&tags=Animals,summer', fresh.manageToken);
    await upload(jpeg, '?fileName=cat.jpg&alt=A%20cat%20in%20100%25%20sun&tags=animals', fresh.manageToken);
    await upload(await fixture('clip.mp4'), '?fileName=clip.mp4&title=Summer%20clip', fresh.manageToken);
    const names = async (query: string, token = fresh.manageToken) => {
      const res = await app.json(`/management/v1/assets?${query}`, { token });
      expect(res.status, JSON.stringify(res.body)).toBe(200);
      return (res.body.result as { fileName: string }[]).map((a) => a.fileName).sort();
    };
    expect(await names('search=summer')).toEqual(['clip.mp4', 'mouse-summer.jpg']);
    expect(await names('search=MOUSE%20field')).toEqual(['mouse-summer.jpg']);
    expect(await names('search=cat%20sun')).toEqual(['cat.jpg']);
    // LIKE's wildcards are plain characters
    expect(await names('search=100%25')).toEqual(['cat.jpg']);
    expect(await names('search=_')).toEqual([]);
    expect(await names('tag=ANIMALS')).toEqual(['cat.jpg', 'mouse-summer.jpg']);
    expect(await names('tag=animals&search=field&type=IMAGE')).toEqual(['mouse-summer.jpg']);
    expect(await names('search=summer', other.manageToken)).toEqual([]);
    for (const query of [`search=${'x'.repeat(201)}`, 'tag=%20', 'search=%20', 'sort=title']) {
      const res = await app.json(`/management/v1/assets?${query}`, { token: fresh.manageToken });
      expect(res.status, query).toBe(400);
      expect(res.body.success).toBe(false);
    }
  });

  describe('image presets', () => {
    it('creates (201), replaces (200), lists and deletes a preset', async () => {
      const put = (body: unknown) => app.json('/management/v1/image-presets/card', { method: 'PUT', token: org.manageToken, body });
      const created = await put({ width: 400, height: 300, resize: 'FILL', format: 'webp', quality: 70, gravity: 'NORTH' });
      expect(created.status).toBe(201);
      expect(created.body.result).toMatchObject({ name: 'card', width: 400, height: 300, resize: 'FILL', format: 'webp', quality: 70, gravity: 'NORTH' });
      const replaced = await put({ width: 200 });
      expect(replaced.status).toBe(200);
      expect(replaced.body.result).toMatchObject({ name: 'card', width: 200 });
      expect(replaced.body.result.height).toBeUndefined();
      const list = await app.json('/management/v1/image-presets', { token: org.manageToken });
      expect(list.body.result.map((p: { name: string }) => p.name)).toEqual(['card']);
      expect((await app.json('/management/v1/image-presets', { token: other.manageToken })).body.result).toEqual([]);
      expect((await app.json('/management/v1/image-presets/card', { method: 'DELETE', token: other.manageToken })).status).toBe(404);
      expect((await app.json('/management/v1/image-presets/card', { method: 'DELETE', token: org.manageToken })).status).toBe(200);
      expect((await app.json('/management/v1/image-presets/card', { method: 'DELETE', token: org.manageToken })).status).toBe(404);
    });

    it('takes resize, gravity and format in any case, as the README writes them, and stores them canonically', async () => {
      const res = await app.json('/management/v1/image-presets/any-case', { method: 'PUT', token: org.manageToken, body: { width: 40, height: 30, resize: 'fill', gravity: 'North_East', format: 'WebP' } });
      expect(res.status, JSON.stringify(res.body)).toBe(201);
      expect(res.body.result).toMatchObject({ resize: 'FILL', gravity: 'NORTH_EAST', format: 'webp' });
    });

    it('takes smart crop and the everyday edits, and a GraphQL URL through the preset carries them', async () => {
      const body = {
        width: 300,
        height: 300,
        resize: 'pad',
        smartCrop: 'entropy',
        rotate: 270,
        flip: 'both',
        crop: { x: 0.1, y: 0.1, width: 0.8, height: 0.8 },
        background: '#00FF00',
        grayscale: true,
        overlay: { assetId: 'logo', gravity: 'north_west', opacity: 0.5 },
      };
      const res = await app.json('/management/v1/image-presets/edits', { method: 'PUT', token: org.manageToken, body });
      expect(res.status, JSON.stringify(res.body)).toBe(201);
      expect(res.body.result).toMatchObject({
        resize: 'PAD',
        smartCrop: 'ENTROPY',
        rotate: 270,
        flip: 'BOTH',
        crop: body.crop,
        background: '#00FF00',
        grayscale: true,
        overlay: { assetId: 'logo', gravity: 'NORTH_WEST', opacity: 0.5 },
      });
      const saved = (await app.json('/management/v1/image-presets', { token: org.manageToken })).body.result.find((p: { name: string }) => p.name === 'edits');
      expect(saved).toMatchObject({ smartCrop: 'ENTROPY', rotate: 270, crop: body.crop });
    });

    it('takes q_auto, a cut in pixels and a trim; a URL through the preset carries them, explicit fields winning', async () => {
      const body = { width: 200, autoQuality: true, cropPixels: { x: 10, y: 20, width: 300, height: 200 }, trim: 8 };
      const res = await app.json('/management/v1/image-presets/auto-cut', { method: 'PUT', token: org.manageToken, body });
      expect(res.status, JSON.stringify(res.body)).toBe(201);
      expect(res.body.result).toMatchObject(body);
      const presets = new Map([['auto-cut', res.body.result]]);
      const asset = { id: 'a1', versionId: 'v1', type: 'IMAGE' as const, contentType: 'image/jpeg', fileName: 'a.jpg', focalPoint: null, focalPoints: [], posterAssetId: null, posterKey: null, width: 800, height: 600 };
      const ctx = { baseUrl: 'http://x', secret: Buffer.alloc(32), presets };
      expect(buildAssetUrl({ asset, orgId: 'o1', transformation: { preset: 'auto-cut' } }, ctx)).toMatch(/\/w_200,q_auto,cp_10_20_300_200,t_8\.jpg$/);
      // a quality, a fraction cut given with the transformation replace the preset's
      expect(buildAssetUrl({ asset, orgId: 'o1', transformation: { preset: 'auto-cut', quality: 60, crop: { x: 0, y: 0, width: 0.5, height: 1 } } }, ctx)).toMatch(/\/w_200,q_60,c_0_0_0\.5_1,t_8\.jpg$/);
    });

    it.each([
      ['card', { rotate: 45 }, 'rotate: must be 90, 180 or 270'],
      ['card', { cropPixels: { x: 0, y: 0, width: 0, height: 10 } }, 'cropPixels.width: must be at least 1'],
      ['card', { cropPixels: { x: 0.5, y: 0, width: 10, height: 10 } }, 'cropPixels.x: must be an integer'],
      ['card', { crop: { x: 0, y: 0, width: 1, height: 1 }, cropPixels: { x: 0, y: 0, width: 10, height: 10 } }, 'give the cut once'],
      ['card', { trim: 0 }, 'trim: must be at least 1'],
      ['card', { autoQuality: 'yes' }, 'autoQuality: must be true or false'],
      ['card', { smartCrop: 'faces' }, 'smartCrop: must be one of AUTO, ATTENTION, ENTROPY'],
      ['card', { flip: 'sideways' }, 'flip: must be one of HORIZONTAL, VERTICAL, BOTH'],
      ['card', { crop: { x: 0.5, y: 0, width: 0.6, height: 1 } }, 'crop: the rectangle must lie inside the image'],
      ['card', { crop: { x: 0, y: 0, width: 2, height: 1 } }, 'crop.width: must be between 0 and 1'],
      ['card', { crop: { x: 0, y: 0, width: 1 } }, 'crop.height'],
      ['card', { background: 'green' }, 'background: must be a colour as #rrggbb'],
      ['card', { grayscale: 'yes' }, 'grayscale: must be true or false'],
      ['card', { overlay: { gravity: 'NORTH' } }, 'overlay.assetId'],
      ['card', { overlay: { assetId: 'logo', opacity: 0 } }, 'overlay.opacity: must be above 0'],
      ['card', { overlay: { assetId: 'logo', scale: 1.5 } }, 'overlay.scale: must be at most 1'],
      ['card', { width: 0 }, 'width: must be at least 1'],
      ['card', { height: 8193 }, 'height: must be at most 8192'],
      ['card', { width: 1.5 }, 'width: must be an integer'],
      ['card', { quality: 101 }, 'quality: must be at most 100'],
      ['card', { resize: 'STRETCH' }, 'resize: must be one of FIT, FILL, AUTO'],
      ['card', { gravity: 'UP' }, 'gravity: must be one of'],
      ['card', { format: 'bmp' }, 'format: must be one of jpeg, png, webp, avif, gif'],
      ['card', { colour: 'red' }, 'colour'],
      ['Bad Name', { width: 10 }, 'name: must be 1–64 lowercase'],
    ])('refuses preset %s %j naming the field and rule', async (name, body, message) => {
      const res = await app.json(`/management/v1/image-presets/${encodeURIComponent(name)}`, { method: 'PUT', token: org.manageToken, body });
      expect(res.status).toBe(400);
      expect(res.body.errors.join(' ')).toContain(message);
    });

    it('checks token and scope', async () => {
      const delivery = await app.createToken(org.manageToken, ['delivery']);
      expect((await app.json('/management/v1/image-presets/x', { method: 'PUT', body: {} })).status).toBe(401);
      expect((await app.json('/management/v1/image-presets/x', { method: 'PUT', token: delivery, body: {} })).status).toBe(403);
      expect((await app.json('/management/v1/image-presets', { token: delivery })).status).toBe(403);
      expect((await app.json('/management/v1/image-presets')).status).toBe(401);
      expect((await app.json('/management/v1/image-presets/x', { method: 'DELETE' })).status).toBe(401);
      expect((await app.json('/management/v1/image-presets/x', { method: 'DELETE', token: delivery })).status).toBe(403);
    });
  });
});
