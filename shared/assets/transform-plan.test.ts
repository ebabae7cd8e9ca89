import { describe, expect, it } from 'vitest';
import { cropBox, focalCrop, orientedSize, outputSize, planTransform } from './transform-plan.js';

const landscape = { width: 3840, height: 2400 };

describe('transform planning', () => {
  it('keeps the aspect ratio with one side', () => {
    expect(planTransform({ format: 'jpeg', width: 800 }, landscape).resize).toEqual({ width: 800, height: 8192, fit: 'inside', withoutEnlargement: true });
  });

  it('FIT fits inside, FILL covers with gravity', () => {
    expect(planTransform({ format: 'jpeg', width: 800, height: 600, resize: 'FIT' }, landscape).resize?.fit).toBe('inside');
    expect(planTransform({ format: 'jpeg', width: 800, height: 600, resize: 'FILL', gravity: 'SOUTH_WEST' }, landscape).resize).toEqual({
      width: 800,
      height: 600,
      fit: 'cover',
      position: 'southwest',
    });
  });

  it('AUTO fills for the same orientation and fits otherwise', () => {
    expect(planTransform({ format: 'png', width: 400, height: 300, resize: 'AUTO' }, landscape).resize?.fit).toBe('cover');
    expect(planTransform({ format: 'png', width: 300, height: 400, resize: 'AUTO' }, landscape).resize?.fit).toBe('inside');
    expect(planTransform({ format: 'png', width: 300, height: 300, resize: 'AUTO' }, { width: 50, height: 50 }).resize?.fit).toBe('cover');
  });

  it('never outputs more than 8192 pixels per side', () => {
    expect(planTransform({ format: 'jpeg' }, { width: 10_000, height: 4000 }).resize).toEqual({ width: 8192, height: 8192, fit: 'inside' });
    expect(planTransform({ format: 'jpeg', width: 8000, upscale: true }, { width: 1000, height: 5000 }).resize).toEqual({ width: 8000, height: 8192, fit: 'inside' });
  });

  it('never enlarges the source unless upscale is asked for', () => {
    const small = { width: 64, height: 48 };
    // FIT and one side: sharp keeps the source size when it is smaller than the box
    expect(planTransform({ format: 'jpeg', width: 8192, height: 8192 }, small).resize).toMatchObject({ fit: 'inside', withoutEnlargement: true });
    expect(outputSize({ width: 8192, height: 8192 }, small)).toEqual(small);
    expect(outputSize({ width: 1000 }, small)).toEqual(small);
    expect(outputSize({ width: 32 }, small)).toEqual({ width: 32, height: 24 });
    // FILL keeps the requested shape at the largest box the source covers
    expect(planTransform({ format: 'jpeg', width: 8192, height: 4096, resize: 'FILL' }, small).resize).toEqual({ width: 64, height: 32, fit: 'cover', position: 'centre' });
    expect(outputSize({ width: 8192, height: 4096, resize: 'FILL' }, small)).toEqual({ width: 64, height: 32 });
    expect(planTransform({ format: 'jpeg', width: 100, height: 100, resize: 'FILL', focalPoint: { x: 0.5, y: 0.5 } }, small)).toMatchObject({
      extract: { left: 8, top: 0, width: 48, height: 48 },
      resize: { width: 48, height: 48, fit: 'fill' },
    });
    // asked for: enlarged
    expect(planTransform({ format: 'jpeg', width: 8192, height: 8192, upscale: true }, small).resize).toEqual({ width: 8192, height: 8192, fit: 'inside' });
    expect(outputSize({ width: 8192, height: 8192, upscale: true }, small)).toEqual({ width: 8192, height: 6144 });
    expect(outputSize({ width: 8192, height: 8192, resize: 'FILL', upscale: true }, small)).toEqual({ width: 8192, height: 8192 });
  });

  it('outputSize: the source, within 8192 per side, when no size is asked', () => {
    expect(outputSize({}, landscape)).toEqual(landscape);
    expect(outputSize({}, { width: 10_000, height: 5000 })).toEqual({ width: 8192, height: 4096 });
  });

  it('defaults quality to 80', () => {
    expect(planTransform({ format: 'webp' }, landscape)).toEqual({ format: 'webp', quality: 80 });
  });

  it('focal crops keep the point inside and stay inside the image', () => {
    for (const fp of [
      { x: 0, y: 0 },
      { x: 1, y: 1 },
      { x: 0.9, y: 0.1 },
      { x: 0.5, y: 0.5 },
    ]) {
      for (const target of [
        { width: 300, height: 300 },
        { width: 1000, height: 100 },
        { width: 100, height: 1000 },
      ]) {
        const c = focalCrop(landscape, target, fp);
        expect(c.left).toBeGreaterThanOrEqual(0);
        expect(c.top).toBeGreaterThanOrEqual(0);
        expect(c.left + c.width).toBeLessThanOrEqual(landscape.width);
        expect(c.top + c.height).toBeLessThanOrEqual(landscape.height);
        expect(fp.x * landscape.width).toBeGreaterThanOrEqual(c.left);
        expect(fp.x * landscape.width).toBeLessThanOrEqual(c.left + c.width);
        expect(fp.y * landscape.height).toBeGreaterThanOrEqual(c.top);
        expect(fp.y * landscape.height).toBeLessThanOrEqual(c.top + c.height);
        // The window has the target's aspect ratio (to the pixel).
        expect(Math.abs(c.width / c.height - target.width / target.height)).toBeLessThan(0.02 * (target.width / target.height));
      }
    }
  });

  it('a crop rectangle and a quarter turn change the size the resize starts from', () => {
    const ops = { format: 'jpeg' as const, crop: { x: 0.25, y: 0, width: 0.5, height: 1 }, rotate: 90 as const };
    expect(orientedSize(ops, landscape)).toEqual({ width: 2400, height: 1920 });
    expect(outputSize(ops, landscape)).toEqual({ width: 2400, height: 1920 });
    expect(outputSize({ ...ops, width: 1200 }, landscape)).toEqual({ width: 1200, height: 960 });
    expect(planTransform(ops, landscape).reorient).toEqual({ crop: { left: 960, top: 0, width: 1920, height: 2400 }, rotate: 90, flip: false, flop: false });
    expect(cropBox({ width: 10, height: 10 }, { x: 0.99, y: 0.99, width: 0.01, height: 0.01 })).toEqual({ left: 9, top: 9, width: 1, height: 1 });
    expect(planTransform({ format: 'jpeg', width: 100 }, landscape).reorient).toBeUndefined();
  });

  it('PAD fits inside the box and centres it with borders; its output is the box', () => {
    const plan = planTransform({ format: 'png', width: 800, height: 800, resize: 'PAD' }, landscape);
    expect(plan.resize).toEqual({ width: 800, height: 500, fit: 'fill' });
    expect(plan.extend).toEqual({ top: 150, bottom: 150, left: 0, right: 0 });
    expect(outputSize({ width: 800, height: 800, resize: 'PAD' }, landscape)).toEqual({ width: 800, height: 800 });
    // a small source is not enlarged, only padded
    expect(planTransform({ format: 'png', width: 200, height: 200, resize: 'PAD' }, { width: 101, height: 50 }).extend).toEqual({ top: 75, bottom: 75, left: 49, right: 50 });
  });

  it('smart crops cover with a libvips strategy', () => {
    expect(planTransform({ format: 'jpeg', width: 300, height: 600, resize: 'FILL', smartCrop: 'AUTO' }, landscape).resize?.position).toBe('attention');
    expect(planTransform({ format: 'jpeg', width: 300, height: 600, resize: 'FILL', smartCrop: 'ENTROPY' }, landscape).resize?.position).toBe('entropy');
  });
});
