import { readFile } from 'node:fs/promises';
import { pngWithHeaderOnly } from '../../test/support/fake-png.js';
import sharp from 'sharp';
import { beforeAll, describe, expect, it } from 'vitest';
import { probeImage } from './probe-image.js';
import { transformImage } from './transform-image.js';

const fixture = (name: string) => readFile(new URL(`../../test/fixtures/images/${name}`, import.meta.url));

/** A 1000×500 image: left half red, right half blue, a green 40×40 mark centred at (900, 100). */
async function halves(): Promise<Buffer> {
  const half = (color: string) => sharp({ create: { width: 500, height: 500, channels: 3, background: color } }).png().toBuffer();
  const mark = await sharp({ create: { width: 40, height: 40, channels: 3, background: '#00ff00' } }).png().toBuffer();
  return sharp({ create: { width: 1000, height: 500, channels: 3, background: '#000' } })
    .composite([
      { input: await half('#ff0000'), left: 0, top: 0 },
      { input: await half('#0000ff'), left: 500, top: 0 },
      { input: mark, left: 880, top: 80 },
    ])
    .png()
    .toBuffer();
}

async function pixels(buf: Buffer) {
  const { data, info } = await sharp(buf).removeAlpha().raw().toBuffer({ resolveWithObject: true });
  const at = (x: number, y: number) => Array.from(data.subarray((y * info.width + x) * 3, (y * info.width + x) * 3 + 3));
  const hasGreen = () => {
    for (let i = 0; i < data.length; i += 3) if (data[i + 1] > 200 && data[i] < 60 && data[i + 2] < 60) return true;
    return false;
  };
  return { at, hasGreen, info };
}

/** A PNG whose header claims 20000×20000 pixels, followed by junk instead of image data. */
const pngBomb = () => pngWithHeaderOnly(20000, 20000);

describe('transformImage on the fixture images', () => {
  let jpeg: Buffer;
  let png: Buffer;
  beforeAll(async () => {
    [jpeg, png] = await Promise.all([fixture('the-mouse.jpg'), fixture('goldfish.png')]);
  });

  it.each([
    ['FILL', 800, 600, 800, 600],
    ['FIT', 800, 600, 800, 500],
    ['AUTO', 800, 600, 800, 600],
    ['AUTO', 600, 800, 600, 375],
  ] as const)('JPEG %s %d×%d → %d×%d JPEG', async (resize, width, height, w, h) => {
    const out = await transformImage(jpeg, { format: 'jpeg', width, height, resize });
    const meta = await sharp(out.data).metadata();
    expect([meta.format, meta.width, meta.height]).toEqual(['jpeg', w, h]);
    expect(out.contentType).toBe('image/jpeg');
  });

  it('PNG keeps its alpha channel and format; a preset format converts it', async () => {
    const out = await transformImage(png, { format: 'png', width: 400, height: 300, resize: 'FILL' });
    const meta = await sharp(out.data).metadata();
    expect([meta.format, meta.width, meta.height, meta.hasAlpha, meta.channels]).toEqual(['png', 400, 300, true, 4]);
    const translucent = await sharp({ create: { width: 400, height: 200, channels: 4, background: { r: 0, g: 0, b: 255, alpha: 0.5 } } })
      .png()
      .toBuffer();
    for (const format of ['png', 'webp'] as const) {
      const m = await sharp((await transformImage(translucent, { format, width: 100 })).data).metadata();
      expect([m.format, m.width, m.height, m.hasAlpha]).toEqual([format, 100, 50, true]);
    }
    const webp = await sharp((await transformImage(png, { format: 'webp', width: 300 })).data).metadata();
    expect([webp.format, webp.width, webp.height]).toEqual(['webp', 300, 198]);
  });

  it('blur smooths the image and sharpen crisps it, measured by the mean edge strength', async () => {
    // mean absolute response of a Laplacian: the energy of fine detail
    const detail = async (data: Buffer) => {
      const raw = await sharp(data).greyscale().convolve({ width: 3, height: 3, kernel: [0, 1, 0, 1, -4, 1, 0, 1, 0], offset: 128 }).raw().toBuffer();
      let sum = 0;
      for (const v of raw) sum += Math.abs(v - 128);
      return sum / raw.length;
    };
    const at = (extra: object) => transformImage(jpeg, { width: 400, format: 'png', ...extra }).then((r) => detail(r.data));
    const [plain, blurred, sharpened] = await Promise.all([at({}), at({ blur: 10 }), at({ sharpen: 4 })]);
    expect(blurred).toBeLessThan(plain * 0.5);
    expect(sharpened).toBeGreaterThan(plain * 1.1);
  });

  it('caps the output at 8192 pixels per side', async () => {
    const wide = await sharp({ create: { width: 9000, height: 90, channels: 3, background: '#123' } }).png().toBuffer();
    const meta = await sharp((await transformImage(wide, { format: 'png', quality: 50 })).data).metadata();
    expect([meta.width, meta.height]).toEqual([8192, 82]);
  });

  it('one side keeps the aspect ratio', async () => {
    const meta = await sharp((await transformImage(jpeg, { format: 'jpeg', height: 240 })).data).metadata();
    expect([meta.width, meta.height]).toEqual([384, 240]);
  });

  it.each([
    ['WEST', 'red'],
    ['NORTH_WEST', 'red'],
    ['SOUTH_WEST', 'red'],
    ['EAST', 'blue'],
    ['NORTH_EAST', 'blue'],
    ['SOUTH_EAST', 'blue'],
  ] as const)('FILL with gravity %s crops the %s side', async (gravity, color) => {
    const out = await transformImage(await halves(), { format: 'png', width: 100, height: 100, resize: 'FILL', gravity });
    const { at, info } = await pixels(out.data);
    expect([info.width, info.height]).toEqual([100, 100]);
    const [r, , b] = at(50, 50);
    expect(color === 'red' ? r > 200 && b < 50 : b > 200 && r < 50).toBe(true);
  });

  it('a focal-point crop contains the focal point; the centre crop does not', async () => {
    const src = await halves();
    const focal = await transformImage(src, { format: 'png', width: 120, height: 120, resize: 'FILL', focalPoint: { x: 0.9, y: 0.2 } });
    expect((await pixels(focal.data)).hasGreen()).toBe(true);
    expect((await pixels(focal.data)).info.width).toBe(120);
    const centre = await transformImage(src, { format: 'png', width: 120, height: 120, resize: 'FILL' });
    expect((await pixels(centre.data)).hasGreen()).toBe(false);
    // A point at the very edge is clamped: the crop stays inside the image and still holds the point.
    const edge = await transformImage(src, { format: 'png', width: 50, height: 400, resize: 'FILL', focalPoint: { x: 0.9, y: 0.2 } });
    expect((await pixels(edge.data)).hasGreen()).toBe(true);
  });

  it('applies EXIF orientation before resizing and strips metadata', async () => {
    const rotated = await sharp({ create: { width: 200, height: 100, channels: 3, background: '#888' } })
      .jpeg()
      .withMetadata({ orientation: 6 })
      .toBuffer();
    expect((await probeImage(rotated)).width).toBe(100);
    const out = await transformImage(rotated, { format: 'jpeg', width: 50, height: 50, resize: 'FIT' });
    const meta = await sharp(out.data).metadata();
    expect([meta.width, meta.height, meta.orientation, meta.exif]).toEqual([25, 50, undefined, undefined]);
    expect(meta.space).toBe('srgb');
  });

  it('keeps an animated GIF animated as GIF, and takes its first frame for a format that cannot animate', async () => {
    const frame = (background: string) => sharp({ create: { width: 20, height: 20, channels: 3, background } }).png().toBuffer();
    const multi = await sharp([await frame('#f00'), await frame('#0f0'), await frame('#00f')], { join: { animated: true } })
      .gif()
      .toBuffer();
    expect((await sharp(multi).metadata()).pages).toBe(3);
    const kept = await sharp((await transformImage(multi, { format: 'gif', width: 10 })).data).metadata();
    expect([kept.width, kept.height, kept.pages]).toEqual([10, 10, 3]);
    const out = await transformImage(multi, { format: 'png', width: 10 });
    const meta = await sharp(out.data).metadata();
    expect([meta.width, meta.height, meta.pages ?? 1]).toEqual([10, 10, 1]);
    const [r, g] = (await pixels(out.data)).at(5, 5);
    expect(r > 200 && g < 50).toBe(true);
  });

  it('refuses a decompression bomb from its header, before decoding', async () => {
    await expect(probeImage(pngBomb())).rejects.toMatchObject({ status: 422, message: expect.stringContaining('20000×20000') });
    await expect(transformImage(pngBomb(), { format: 'png', width: 10 })).rejects.toMatchObject({ status: 422 });
  });

  it('a corrupt image is an error, not a crash', async () => {
    const truncated = jpeg.subarray(0, 20_000);
    await expect(transformImage(truncated, { format: 'jpeg', width: 100 })).rejects.toBeInstanceOf(Error);
    await expect(transformImage(Buffer.from('not an image'), { format: 'jpeg', width: 100 })).rejects.toMatchObject({ status: 422 });
  });
});
