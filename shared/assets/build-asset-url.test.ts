import { randomBytes } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import { buildAssetUrl, buildSrcSet, overlayAssetIdOf, type UrlAsset } from './build-asset-url.js';
import type { ImagePresetOptions } from './types.js';
import { parseImagePath } from './url-grammar.js';

const secret = randomBytes(32);
const presets = new Map<string, ImagePresetOptions>([['card', { width: 400, height: 300, resize: 'FILL', format: 'webp', quality: 60 }]]);
const ctx = { baseUrl: 'https://cdn.test', secret, presets };
const image: UrlAsset = {
  id: 'img1',
  versionId: 'v1',
  type: 'IMAGE',
  contentType: 'image/jpeg',
  fileName: 'photo.jpg',
  focalPoint: { x: 0.25, y: 0.75 },
  focalPoints: [{ ratio: '1:1', focalPoint: { x: 0.9, y: 0.1 } }],
  posterAssetId: null,
  posterKey: null,
  width: 3840,
  height: 2400,
};
const video: UrlAsset = { ...image, id: 'vid1', type: 'VIDEO', contentType: 'video/mp4', fileName: 'clip.mp4', posterAssetId: 'img1' };
const opsOf = (url: string | null) => parseImagePath(secret, url!.slice('https://cdn.test/img/'.length)).ops;

describe('buildAssetUrl', () => {
  it('returns the original without a transformation', () => {
    expect(buildAssetUrl({ asset: image, orgId: 'o1' }, ctx)).toMatch(/^https:\/\/cdn\.test\/files\/[^/]+\/o1\/img1\/v1\/photo\.jpg$/);
    expect(buildAssetUrl({ asset: image, orgId: 'o1', transformation: { gravity: 'NORTH' } }, ctx)).toContain('/files/');
  });

  it('signs a derivative with the operations and the source format', () => {
    const url = buildAssetUrl({ asset: image, orgId: 'o1', transformation: { width: 800, height: 600, resize: 'FILL', gravity: 'NORTH' } }, ctx);
    expect(url).toMatch(/\/img\/[^/]+\/o1\/img1\/v1\/w_800,h_600,r_fill,g_north\.jpg$/);
  });

  it('dpr multiplies both sides by one factor, within the source and 8,192 pixels; refuses values outside 1–4', () => {
    const at = (transformation: object, asset: UrlAsset = image) => opsOf(buildAssetUrl({ asset, orgId: 'o1', transformation }, ctx));
    expect(at({ width: 400, height: 300, resize: 'FILL', dpr: 2 })).toMatchObject({ width: 800, height: 600 });
    expect(at({ width: 400, dpr: 1.5 })).toMatchObject({ width: 600 });
    expect(at({ preset: 'card', dpr: 3 })).toMatchObject({ width: 1200, height: 900, format: 'webp' });
    // the source is 3840×2400: 3000 at 2× would be 6000, so both sides scale by 3840/3000 instead
    expect(at({ width: 3000, height: 1000, resize: 'FILL', dpr: 2 })).toMatchObject({ width: 3840, height: 1280 });
    expect(at({ width: 3000, dpr: 4, upscale: true })).toMatchObject({ width: 8192 });
    expect(at({ width: 5000, dpr: 2 })).toMatchObject({ width: 5000 }); // never below the 1× size asked for
    for (const dpr of [0.5, 4.5, Number.NaN]) {
      expect(() => buildAssetUrl({ asset: image, orgId: 'o1', transformation: { width: 10, dpr } }, ctx)).toThrow('transformation.dpr');
    }
  });

  it('imageFormat picks the output format over the preset and the source', () => {
    expect(buildAssetUrl({ asset: image, orgId: 'o1', transformation: { imageFormat: 'WEBP' } }, ctx)).toMatch(/\/-\.webp$/);
    expect(opsOf(buildAssetUrl({ asset: image, orgId: 'o1', transformation: { preset: 'card', imageFormat: 'AVIF' } }, ctx)).format).toBe('avif');
    expect(opsOf(buildAssetUrl({ asset: image, orgId: 'o1', transformation: { width: 100, imageFormat: 'PNG' } }, ctx)).format).toBe('png');
    // AUTO: the f_auto operation, the source's format (or a preset's) as the fallback extension
    expect(buildAssetUrl({ asset: image, orgId: 'o1', transformation: { width: 100, imageFormat: 'AUTO' } }, ctx)).toMatch(/\/w_100,f_auto\.jpg$/);
    expect(buildAssetUrl({ asset: image, orgId: 'o1', transformation: { imageFormat: 'AUTO' } }, ctx)).toMatch(/\/f_auto\.jpg$/);
    expect(opsOf(buildAssetUrl({ asset: image, orgId: 'o1', transformation: { preset: 'card', imageFormat: 'AUTO' } }, ctx))).toMatchObject({ format: 'webp', autoFormat: true });
    // the source's own format and nothing else: the original
    expect(buildAssetUrl({ asset: image, orgId: 'o1', transformation: { imageFormat: 'JPEG' } }, ctx)).toContain('/files/');
  });

  it('srcSet lists one signed URL per width, ascending, keeping the asked shape, none beyond the source', () => {
    const set = buildSrcSet({ asset: image, orgId: 'o1', transformation: { width: 400, height: 200, resize: 'FILL', imageFormat: 'AUTO' } }, [800, 320, 800, 5000], ctx)!;
    const entries = set.split(', ').map((e) => e.split(' '));
    expect(entries.map(([, d]) => d)).toEqual(['320w', '800w']); // 5000 > the source's 3840
    expect(entries.map(([url]) => opsOf(url))).toEqual([
      { width: 320, height: 160, resize: 'FILL', format: 'jpeg', autoFormat: true },
      { width: 800, height: 400, resize: 'FILL', format: 'jpeg', autoFormat: true },
    ]);
    expect(buildSrcSet({ asset: image, orgId: 'o1' }, [5000], ctx)).toMatch(/\/w_3840\.jpg 3840w$/);
    expect(buildSrcSet({ asset: image, orgId: 'o1', transformation: { upscale: true } }, [5000], ctx)).toMatch(/\/w_5000,up_1\.jpg 5000w$/);
    expect(buildSrcSet({ asset: video, orgId: 'o1' }, [100], ctx)).toBeNull();
    for (const [widths, t, message] of [
      [[], {}, '1 to 20 widths'],
      [Array.from({ length: 21 }, (_, i) => i + 1), {}, '1 to 20 widths'],
      [[0], {}, 'integer from 1 to 8192'],
      [[100.5], {}, 'integer from 1 to 8192'],
      [[100], { dpr: 2 }, 'dpr does not apply'],
    ] as const) {
      expect(() => buildSrcSet({ asset: image, orgId: 'o1', transformation: t }, widths, ctx)).toThrow(message);
    }
  });

  it('applies a preset, explicit fields winning, and refuses unknown presets', () => {
    expect(opsOf(buildAssetUrl({ asset: image, orgId: 'o1', transformation: { preset: 'card', width: 200 } }, ctx))).toEqual({
      width: 200,
      height: 300,
      resize: 'FILL',
      quality: 60,
      format: 'webp',
    });
    expect(() => buildAssetUrl({ asset: image, orgId: 'o1', transformation: { preset: 'nope' } }, ctx)).toThrow(/transformation\.preset/);
  });

  it('uses the focal point only when asked, and the per-ratio one for focalPointRatio', () => {
    const t = { width: 100, height: 100, resize: 'FILL' as const };
    expect(opsOf(buildAssetUrl({ asset: image, orgId: 'o1', transformation: t }, ctx)).focalPoint).toBeUndefined();
    expect(opsOf(buildAssetUrl({ asset: image, orgId: 'o1', transformation: t, useFocalPoint: true }, ctx)).focalPoint).toEqual({ x: 0.25, y: 0.75 });
    expect(opsOf(buildAssetUrl({ asset: image, orgId: 'o1', transformation: t, focalPointRatio: '1:1' }, ctx)).focalPoint).toEqual({ x: 0.9, y: 0.1 });
    // An unknown ratio falls back to the asset's main focal point.
    expect(opsOf(buildAssetUrl({ asset: image, orgId: 'o1', transformation: t, focalPointRatio: '4:3' }, ctx)).focalPoint).toEqual({ x: 0.25, y: 0.75 });
  });

  it('smart crop and the everyday edits reach the signed URL; a preset carries them, explicit fields winning', () => {
    const noFocal = { ...image, focalPoint: null };
    const t = { width: 300, height: 600, resize: 'FILL' as const, smartCrop: 'ENTROPY' as const };
    expect(buildAssetUrl({ asset: noFocal, orgId: 'o1', transformation: t }, ctx)).toMatch(/\/w_300,h_600,r_fill,g_entropy\.jpg$/);
    // the asset's focal point, set by hand, wins over the guess
    expect(buildAssetUrl({ asset: image, orgId: 'o1', transformation: t }, ctx)).toMatch(/\/w_300,h_600,r_fill,fp_0\.25_0\.75\.jpg$/);
    const edits = {
      width: 200,
      height: 200,
      resize: 'PAD' as const,
      crop: { x: 0.1, y: 0, width: 0.8, height: 1 },
      rotate: 270,
      flip: 'VERTICAL' as const,
      background: '#FF0000',
      grayscale: true,
    };
    expect(buildAssetUrl({ asset: noFocal, orgId: 'o1', transformation: edits }, ctx)).toMatch(/\/w_200,h_200,r_pad,c_0\.1_0_0\.8_1,ro_270,fl_v,bg_ff0000,gs_1\.jpg$/);
    const withPreset = {
      ...ctx,
      presets: new Map<string, ImagePresetOptions>([['mono', { width: 300, height: 300, resize: 'FILL', smartCrop: 'AUTO', grayscale: true, rotate: 180, flip: 'HORIZONTAL', background: '#00ff00' }]]),
    };
    expect(opsOf(buildAssetUrl({ asset: noFocal, orgId: 'o1', transformation: { preset: 'mono', rotate: 90 } }, withPreset))).toMatchObject({
      smartCrop: 'AUTO',
      grayscale: true,
      rotate: 90,
      flip: 'HORIZONTAL',
      background: '00ff00',
    });
  });

  it('a preset\'s overlay is every derivative\'s watermark unless the transformation names its own', () => {
    const logo = { id: 'logo', versionId: 'lv1', type: 'IMAGE' as const, contentType: 'image/png' };
    const marked = { ...ctx, presets: new Map<string, ImagePresetOptions>([['marked', { width: 300, overlay: { assetId: 'logo', opacity: 0.5 } }]]) };
    expect(overlayAssetIdOf({ preset: 'marked' }, marked.presets)).toBe('logo');
    expect(overlayAssetIdOf({ preset: 'marked', overlay: { assetId: 'other' } }, marked.presets)).toBe('other');
    expect(buildAssetUrl({ asset: image, orgId: 'o1', transformation: { preset: 'marked' }, overlayAsset: logo }, marked)).toMatch(/\/w_300,o_se_0\.5_0\.25_logo\.lv1\.jpg$/);
    expect(() => buildAssetUrl({ asset: image, orgId: 'o1', transformation: { preset: 'marked' } }, marked)).toThrow('transformation.overlay.assetId');
  });

  it.each([
    [{ rotate: 45 }, 'transformation.rotate'],
    [{ rotate: -90 }, 'transformation.rotate'],
    [{ crop: { x: 0.5, y: 0, width: 0.6, height: 1 } }, 'transformation.crop: the rectangle must lie inside'],
    [{ crop: { x: 0, y: 0, width: 0, height: 1 } }, 'transformation.crop: width and height must be above 0'],
    [{ crop: { x: -0.1, y: 0, width: 0.5, height: 1 } }, 'transformation.crop'],
    [{ background: 'red' }, 'transformation.background'],
    [{ background: '#ff00001' }, 'transformation.background'],
  ])('refuses %j naming the field', (transformation, message) => {
    expect(() => buildAssetUrl({ asset: image, orgId: 'o1', transformation: { width: 100, ...transformation } }, ctx)).toThrow(message);
  });

  it('serves SVG and files only as originals', () => {
    const svg = { ...image, contentType: 'image/svg+xml', fileName: 'logo.svg' };
    expect(buildAssetUrl({ asset: svg, orgId: 'o1', transformation: { width: 10 } }, ctx)).toContain('/files/');
  });

  it('rejects out-of-range values naming the field', () => {
    expect(() => buildAssetUrl({ asset: image, orgId: 'o1', transformation: { width: 9000 } }, ctx)).toThrow(/transformation\.width/);
    expect(() => buildAssetUrl({ asset: image, orgId: 'o1', transformation: { quality: 0 } }, ctx)).toThrow(/transformation\.quality/);
  });

  it('builds video embed, script, config and thumbnail URLs', () => {
    expect(buildAssetUrl({ asset: video, orgId: 'o1', transformation: { format: 'HTML' } }, ctx)).toBe('https://cdn.test/embed/o1/vid1.html');
    expect(buildAssetUrl({ asset: video, orgId: 'o1', transformation: { format: 'JS', orientation: 'VERTICAL' } }, ctx)).toBe(
      'https://cdn.test/embed/o1/vid1.js?orientation=vertical',
    );
    expect(buildAssetUrl({ asset: video, orgId: 'o1', transformation: { format: 'JSON' } }, ctx)).toBe('https://cdn.test/embed/o1/vid1.json');
    expect(buildAssetUrl({ asset: video, orgId: 'o1', transformation: { format: 'THUMBNAIL', width: 320 } }, ctx)).toMatch(/\/img\/[^/]+\/o1\/vid1\/v1\/w_320\.jpg$/);
    expect(buildAssetUrl({ asset: video, orgId: 'o1' }, ctx)).toContain('/files/');
    expect(buildAssetUrl({ asset: { ...video, posterAssetId: null }, orgId: 'o1', transformation: { format: 'THUMBNAIL' } }, ctx)).toBeNull();
    expect(buildAssetUrl({ asset: image, orgId: 'o1', transformation: { format: 'HTML' } }, ctx)).toBeNull();
  });
});
