import { readFile } from 'node:fs/promises';
import sharp, { type OutputInfo } from 'sharp';
import { beforeAll, describe, expect, it } from 'vitest';
import { probeImage } from './probe-image.js';
import { overlayPosition, transformImage } from './transform-image.js';
import type { ImageOps, ImageOverlay, OutputFormat } from './types.js';

// Smart crop and the everyday edits, each against raw sharp doing the same work step by step.

const fixture = (name: string) => readFile(new URL(`../../test/fixtures/images/${name}`, import.meta.url));

type Raw = { data: Buffer; width: number; height: number };
const raw = async (buf: Buffer): Promise<Raw> => {
  const { data, info } = await sharp(buf).removeAlpha().toColourspace('srgb').raw().toBuffer({ resolveWithObject: true });
  return { data, width: info.width, height: info.height };
};

/** Same size, and the mean channel difference and the share of channels off by more than 16. */
async function difference(actual: Buffer, expected: Buffer) {
  const [a, e] = await Promise.all([raw(actual), raw(expected)]);
  expect([a.width, a.height]).toEqual([e.width, e.height]);
  let sum = 0;
  let far = 0;
  for (let i = 0; i < a.data.length; i++) {
    const d = Math.abs(a.data[i] - e.data[i]);
    sum += d;
    if (d > 16) far++;
  }
  return { mean: sum / a.data.length, far: far / a.data.length };
}

async function expectClose(actual: Buffer, expected: Buffer, mean = 1.5) {
  const d = await difference(actual, expected);
  expect(d.mean).toBeLessThan(mean);
  expect(d.far).toBeLessThan(0.01);
}

const run = (input: Buffer, ops: ImageOps, format: OutputFormat = 'png') => transformImage(input, { ...ops, format }).then((r) => r.data);

describe('everyday edits against raw sharp', () => {
  let src: Buffer;
  let alpha: Buffer;
  beforeAll(async () => {
    // A real photograph at a size that keeps the test quick (480×300).
    src = await sharp(await fixture('the-mouse.jpg')).resize(480).png().toBuffer();
    // The photograph half transparent throughout.
    alpha = await sharp(src).ensureAlpha(0.5).png().toBuffer();
  });

  it('rotates by 90° steps, then resizes', async () => {
    for (const angle of [90, 180, 270] as const) {
      const expected = await sharp(await sharp(src).rotate(angle).png().toBuffer()).resize({ width: 150 }).png().toBuffer();
      const out = await run(src, { width: 150, rotate: angle });
      await expectClose(out, expected);
    }
    // and the test can tell: 90 is not 270
    const d = await difference(await run(src, { rotate: 90 }), await sharp(src).rotate(270).png().toBuffer());
    expect(d.mean).toBeGreaterThan(10);
  });

  it('mirrors horizontally, vertically and both', async () => {
    await expectClose(await run(src, { flip: 'HORIZONTAL' }), await sharp(src).flop().png().toBuffer(), 0.01);
    await expectClose(await run(src, { flip: 'VERTICAL' }), await sharp(src).flip().png().toBuffer(), 0.01);
    await expectClose(await run(src, { flip: 'BOTH' }), await sharp(src).flip().flop().png().toBuffer(), 0.01);
  });

  it('crops a rectangle of fractions of the source before resizing', async () => {
    const cut = await sharp(src).extract({ left: 120, top: 60, width: 240, height: 150 }).png().toBuffer();
    const expected = await sharp(cut).resize({ width: 120, height: 120, fit: 'cover' }).png().toBuffer();
    const out = await run(src, { crop: { x: 0.25, y: 0.2, width: 0.5, height: 0.5 }, width: 120, height: 120, resize: 'FILL' });
    await expectClose(out, expected);
  });

  it('crops, rotates and mirrors in that order', async () => {
    const cut = await sharp(src).extract({ left: 0, top: 0, width: 240, height: 300 }).png().toBuffer();
    const turned = await sharp(cut).rotate(90).png().toBuffer();
    const expected = await sharp(turned).flop().png().toBuffer();
    await expectClose(await run(src, { crop: { x: 0, y: 0, width: 0.5, height: 1 }, rotate: 90, flip: 'HORIZONTAL' }), expected, 0.01);
  });

  it('greys', async () => {
    const expected = await sharp(src).grayscale().png().toBuffer();
    await expectClose(await run(src, { grayscale: true }), expected);
    const out = await raw(await run(src, { grayscale: true }));
    let spread = 0;
    for (let i = 0; i < out.data.length; i += 3) spread = Math.max(spread, Math.abs(out.data[i] - out.data[i + 1]), Math.abs(out.data[i] - out.data[i + 2]));
    expect(spread).toBeLessThanOrEqual(1);
  });

  it('PAD letterboxes into the box on the background colour', async () => {
    const expected = await sharp(src).resize({ width: 200, height: 200, fit: 'contain', background: '#ff0000' }).png().toBuffer();
    const out = await run(src, { width: 200, height: 200, resize: 'PAD', background: 'ff0000' });
    await expectClose(out, expected);
    const meta = await sharp(out).metadata();
    expect([meta.width, meta.height]).toEqual([200, 200]);
    // 480×300 into 200×200: 200×125, 37 rows of red above and 38 below
    const r = await raw(out);
    expect(Array.from(r.data.subarray(0, 3))).toEqual([255, 0, 0]);
    expect(Array.from(r.data.subarray((199 * 200 + 100) * 3, (199 * 200 + 100) * 3 + 3))).toEqual([255, 0, 0]);
  });

  it('greys the image, not the background it is padded on', async () => {
    const grey = await sharp(src).grayscale().toColourspace('srgb').png().toBuffer();
    const expected = await sharp(grey).resize({ width: 200, height: 200, fit: 'contain', background: '#ff0000' }).png().toBuffer();
    const out = await run(src, { width: 200, height: 200, resize: 'PAD', background: 'ff0000', grayscale: true });
    await expectClose(out, expected);
    expect(Array.from((await raw(out)).data.subarray(0, 3))).toEqual([255, 0, 0]);
  });

  it('PAD without a background is transparent in PNG and white in JPEG', async () => {
    const png = await run(src, { width: 200, height: 200, resize: 'PAD' });
    const { data } = await sharp(png).ensureAlpha().raw().toBuffer({ resolveWithObject: true });
    expect(data[3]).toBe(0);
    const jpeg = await raw(await run(src, { width: 200, height: 200, resize: 'PAD' }, 'jpeg'));
    expect(Array.from(jpeg.data.subarray(0, 3)).every((v) => v > 245)).toBe(true);
  });

  it('flattens a transparent source on the background colour for JPEG', async () => {
    const expected = await sharp(alpha).flatten({ background: '#003366' }).jpeg({ quality: 80 }).toBuffer();
    await expectClose(await run(alpha, { background: '003366' }, 'jpeg'), expected, 2);
    // and white without one: not the same picture
    const d = await difference(await run(alpha, {}, 'jpeg'), expected);
    expect(d.mean).toBeGreaterThan(5);
  });

  it('an EXIF-rotated source comes out upright', async () => {
    // Pixels stored sideways, tagged "rotate 90° clockwise to display" (orientation 6).
    const stored = await sharp(src).rotate(270).jpeg({ quality: 95 }).withMetadata({ orientation: 6 }).toBuffer();
    const out = await run(stored, { width: 240 });
    const meta = await sharp(out).metadata();
    expect([meta.width, meta.height]).toEqual([240, 150]);
    await expectClose(out, await sharp(src).resize({ width: 240 }).png().toBuffer(), 4);
    // with a rotation on top of it
    const turned = await run(stored, { rotate: 180 });
    await expectClose(turned, await sharp(src).rotate(180).png().toBuffer(), 4);
  });
});

describe('q_auto, pixel cuts and trim against raw sharp', () => {
  let src: Buffer;
  let framed: Buffer;
  beforeAll(async () => {
    src = await sharp(await fixture('the-mouse.jpg')).resize(480).png().toBuffer();
    // The photograph (480×300) on a uniform border: 40 pixels of flat blue-grey each side.
    framed = await sharp(src).extend({ top: 40, bottom: 40, left: 40, right: 40, background: '#405060' }).png().toBuffer();
  });

  it('q_auto encodes each lossy format at its chosen quality', async () => {
    for (const [format, quality] of [
      ['webp', 75],
      ['avif', 40],
      ['jpeg', 80],
    ] as const) {
      const out = await run(src, { width: 240, autoQuality: true }, format);
      const expected = await sharp(src).resize({ width: 240 })[format]({ quality }).toBuffer();
      expect(out.equals(expected), format).toBe(true);
    }
    // the control: q_auto is not sharp's default quality where they differ
    const auto = await run(src, { width: 240, autoQuality: true }, 'webp');
    const at80 = await sharp(src).resize({ width: 240 }).webp({ quality: 80 }).toBuffer();
    expect(auto.length).toBeLessThan(at80.length);
    const avif50 = await sharp(src).resize({ width: 240 }).avif({ quality: 50 }).toBuffer();
    expect((await run(src, { width: 240, autoQuality: true }, 'avif')).length).toBeLessThan(avif50.length);
    // a number given with q_auto loses to it
    expect((await run(src, { width: 240, autoQuality: true, quality: 20 }, 'webp')).equals(auto)).toBe(true);
  });

  it('cuts a rectangle in source pixels before resizing', async () => {
    const expected = await sharp(await sharp(src).extract({ left: 100, top: 30, width: 200, height: 160 }).png().toBuffer()).resize({ width: 100 }).png().toBuffer();
    await expectClose(await run(src, { cropPixels: { x: 100, y: 30, width: 200, height: 160 }, width: 100 }), expected);
    // the control: a rectangle 40 pixels to the right is another picture
    const moved = await run(src, { cropPixels: { x: 140, y: 30, width: 200, height: 160 }, width: 100 });
    expect((await difference(moved, expected)).mean).toBeGreaterThan(5);
  });

  it('trims a uniform border, then resizes', async () => {
    const expected = await sharp(await sharp(framed).trim({ threshold: 10 }).png().toBuffer()).resize({ width: 240 }).png().toBuffer();
    const out = await run(framed, { trim: 10, width: 240 });
    const meta = await sharp(out).metadata();
    expect([meta.width, meta.height]).toEqual([240, 150]);
    await expectClose(out, expected);
    await expectClose(out, await sharp(src).resize({ width: 240 }).png().toBuffer(), 3);
    // the control: without t the border stays (and shrinks the photograph in the same width)
    const kept = await run(framed, { width: 240 });
    expect((await sharp(kept).metadata()).height).toBe(163);
  });

  it('cuts, then trims, then turns: a fill is planned from the trimmed size', async () => {
    // The cut keeps the left border and the photograph's left half; the trim removes that border.
    const cut = await sharp(framed).extract({ left: 0, top: 0, width: 280, height: 380 }).png().toBuffer();
    const trimmedCut = await sharp(cut).trim({ threshold: 10 }).png().toBuffer();
    expect((await sharp(trimmedCut).metadata()).width).toBe(240);
    const expected = await sharp(await sharp(trimmedCut).rotate(90).png().toBuffer()).resize({ width: 150, height: 150, fit: 'cover' }).png().toBuffer();
    const out = await run(framed, { cropPixels: { x: 0, y: 0, width: 280, height: 380 }, trim: 10, rotate: 90, width: 150, height: 150, resize: 'FILL' });
    await expectClose(out, expected);
  });

  it('a uniform image trims to itself', async () => {
    const flat = await sharp({ create: { width: 64, height: 48, channels: 3, background: '#808080' } }).png().toBuffer();
    const out = await run(flat, { trim: 10 });
    const meta = await sharp(out).metadata();
    expect([meta.width, meta.height]).toEqual([64, 48]);
  });
});

describe('overlays against raw sharp', () => {
  it('draws the overlay scaled, at its gravity and opacity, over the resized image', async () => {
    const base = await sharp(await fixture('the-mouse.jpg')).resize(480).png().toBuffer();
    const logo = await sharp(await fixture('goldfish.png')).resize(364).png().toBuffer();
    const header = await probeImage(logo);
    const out = await transformImage(base, { width: 240, overlay: { assetId: 'a', versionId: 'v', gravity: 'NORTH_WEST', opacity: 0.5, scale: 0.5 }, format: 'png' }, { overlay: { input: logo, header } });
    // reference: the base at 240 wide, the logo at 120 wide with its alpha halved, over the top-left corner
    const small = await sharp(logo).resize({ width: 120 }).ensureAlpha().raw().toBuffer({ resolveWithObject: true });
    for (let i = 3; i < small.data.length; i += 4) small.data[i] = Math.round(small.data[i] * 0.5);
    const expected = await sharp(await sharp(base).resize({ width: 240 }).png().toBuffer())
      .composite([{ input: small.data, raw: { width: small.info.width, height: small.info.height, channels: 4 }, left: 0, top: 0 }])
      .png()
      .toBuffer();
    await expectClose(out.data, expected);
    // the same logo at the opposite corner is another picture
    const elsewhere = await transformImage(base, { width: 240, overlay: { assetId: 'a', versionId: 'v', gravity: 'SOUTH_EAST', opacity: 0.5, scale: 0.5 }, format: 'png' }, { overlay: { input: logo, header } });
    expect((await difference(elsewhere.data, expected)).mean).toBeGreaterThan(3);
  });
});

describe('overlay offsets against raw sharp', () => {
  let base: Buffer;
  let logo: Buffer;
  let header: Awaited<ReturnType<typeof probeImage>>;
  let small: { data: Buffer; info: OutputInfo };
  beforeAll(async () => {
    base = await sharp(await fixture('the-mouse.jpg')).resize(480).png().toBuffer();
    logo = await sharp(await fixture('goldfish.png')).resize(364).png().toBuffer();
    header = await probeImage(logo);
    small = await sharp(logo).resize({ width: 60 }).ensureAlpha().raw().toBuffer({ resolveWithObject: true });
  });
  const drawn = (o: Partial<ImageOverlay>) =>
    transformImage(base, { width: 240, overlay: { assetId: 'a', versionId: 'v', gravity: 'SOUTH_EAST', opacity: 1, scale: 0.25, ...o }, format: 'png' }, { overlay: { input: logo, header } }).then((r) => r.data);
  const reference = async (left: number, top: number) =>
    sharp(await sharp(base).resize({ width: 240 }).png().toBuffer())
      .composite([{ input: small.data, raw: { width: small.info.width, height: small.info.height, channels: 4 }, left, top }])
      .png()
      .toBuffer();

  it('moves the overlay away from the edges its gravity names, by pixels of the result', async () => {
    const { width: w, height: h } = small.info;
    // the result is 240×150
    await expectClose(await drawn({ gravity: 'SOUTH_EAST', offsetX: 20, offsetY: 10 }), await reference(240 - w - 20, 150 - h - 10));
    await expectClose(await drawn({ gravity: 'NORTH_WEST', offsetX: 20, offsetY: 10 }), await reference(20, 10));
    // a gravity naming no edge on an axis moves right / down from the centre
    await expectClose(await drawn({ gravity: 'NORTH', offsetX: 30 }), await reference(Math.floor((240 - w) / 2) + 30, 0));
    // the control: without offsets, the corner itself
    const plain = await drawn({ gravity: 'SOUTH_EAST' });
    await expectClose(plain, await reference(240 - w, 150 - h));
    expect((await difference(plain, await reference(240 - w - 20, 150 - h - 10))).mean).toBeGreaterThan(2);
  });

  it('keeps the overlay inside the result', async () => {
    const { width: w, height: h } = small.info;
    await expectClose(await drawn({ gravity: 'NORTH_WEST', offsetX: 5000, offsetY: 5000 }), await reference(240 - w, 150 - h));
    expect(overlayPosition({ assetId: 'a', versionId: 'v', gravity: 'EAST', opacity: 1, scale: 1, offsetX: 900 }, { width: 50, height: 20 }, { width: 100, height: 100 })).toEqual({ left: 0, top: 40 });
  });
});

describe('animation against raw sharp', () => {
  let gif: Buffer;
  beforeAll(async () => {
    // Six frames of the photograph, each 40 pixels further right: an animated GIF of 240×160.
    const src = await sharp(await fixture('the-mouse.jpg')).resize(480).png().toBuffer();
    const frames = await Promise.all([0, 1, 2, 3, 4, 5].map((i) => sharp(src).extract({ left: i * 40, top: 0, width: 240, height: 160 }).png().toBuffer()));
    gif = await sharp(frames, { join: { animated: true } }).gif({ delay: 100, loop: 0 }).toBuffer();
  });
  const header = () => probeImage(gif);

  it('an animated GIF stays animated as WebP, frame by frame, with the same frame count', async () => {
    const out = await transformImage(gif, { width: 120, format: 'webp' }, { header: await header() });
    const meta = await sharp(out.data).metadata();
    expect([meta.pages, meta.width, out.width, out.height]).toEqual([6, 120, 120, 80]);
    const expected = await sharp(gif, { animated: true }).resize({ width: 120, height: 8192, fit: 'inside', withoutEnlargement: true }).webp({ quality: 80 }).toBuffer();
    expect(out.data.equals(expected)).toBe(true);
    // and as GIF, filled to a square
    const square = await transformImage(gif, { width: 90, height: 90, resize: 'FILL', format: 'gif' }, { header: await header() });
    expect(await sharp(square.data).metadata()).toMatchObject({ pages: 6, width: 90, height: 90 });
  });

  it('a format that cannot animate, an edit that cannot go frame by frame, or fr_N give one frame (the controls)', async () => {
    for (const ops of [{ format: 'avif' as const }, { format: 'png' as const }, { rotate: 90 as const, format: 'webp' as const }]) {
      const out = await transformImage(gif, { width: 120, ...ops }, { header: await header() });
      expect((await sharp(out.data).metadata()).pages ?? 1, JSON.stringify(ops)).toBe(1);
    }
    const third = await transformImage(gif, { frame: 2, format: 'png' }, { header: await header() });
    await expectClose(third.data, await sharp(gif, { page: 2 }).png().toBuffer(), 0.01);
    // another frame is another picture
    expect((await difference(third.data, await sharp(gif, { page: 0 }).png().toBuffer())).mean).toBeGreaterThan(5);
    await expect(transformImage(gif, { frame: 6, format: 'png' }, { header: await header() })).rejects.toThrow('the source has 6 frames');
  });

  it('counts every frame in the pixel budget', async () => {
    // 8192×5461 is 44.7 megapixels: one frame fits the 50-megapixel budget, six do not
    await expect(transformImage(gif, { width: 8192, upscale: true, format: 'webp' }, { header: await header() })).rejects.toThrow('6 frames of 8192×5461');
    const still = await transformImage(gif, { width: 8192, upscale: true, frame: 0, format: 'jpeg', quality: 10 }, { header: await header() });
    expect([still.width, still.height]).toEqual([8192, 5461]);
  }, 60_000);
});

describe('smart crop', () => {
  // The photograph at 800×500, its left 560 columns: the mouse's face, marked by hand, sits right of centre.
  const FACE = { left: 345, top: 180, width: 110, height: 130 };
  let scene: Buffer;
  let sceneRaw: Raw;
  beforeAll(async () => {
    const photo = await sharp(await fixture('the-mouse.jpg')).resize(800, 500).png().toBuffer();
    scene = await sharp(photo).extract({ left: 0, top: 0, width: 560, height: 500 }).png().toBuffer();
    sceneRaw = await raw(scene);
  });

  /** Where the output (a window of the scene at scale 1) sits in the scene, by exact column match. */
  async function windowLeft(out: Buffer): Promise<number> {
    const o = await raw(out);
    const rows = [120, 250, 380];
    let best = -1;
    let bestScore = Infinity;
    for (let left = 0; left <= sceneRaw.width - o.width; left++) {
      let score = 0;
      for (const y of rows) {
        for (let x = 0; x < o.width; x += 7) {
          const a = (y * o.width + x) * 3;
          const b = (y * sceneRaw.width + left + x) * 3;
          score += Math.abs(o.data[a] - sceneRaw.data[b]) + Math.abs(o.data[a + 1] - sceneRaw.data[b + 1]);
        }
      }
      if (score < bestScore) [best, bestScore] = [left, score];
    }
    return best;
  }

  it.each(['AUTO', 'ATTENTION', 'ENTROPY'] as const)('%s keeps the off-centre subject inside a portrait fill', async (smartCrop) => {
    const out = await run(scene, { width: 250, height: 500, resize: 'FILL', smartCrop });
    const left = await windowLeft(out);
    expect(left).toBeLessThanOrEqual(FACE.left);
    expect(left + 250).toBeGreaterThanOrEqual(FACE.left + FACE.width);
  });

  it('a centred fill (the control) cuts the subject off', async () => {
    const left = await windowLeft(await run(scene, { width: 250, height: 500, resize: 'FILL' }));
    expect(left).toBe(155);
    expect(left + 250).toBeLessThan(FACE.left + FACE.width);
  });

  it('a focal point wins over the smart crop', async () => {
    const left = await windowLeft(await run(scene, { width: 250, height: 500, resize: 'FILL', smartCrop: 'AUTO', focalPoint: { x: 0.1, y: 0.5 } }));
    expect(left).toBe(0);
  });
});
