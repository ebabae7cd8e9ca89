import { describe, expect, it } from 'vitest';
import { estimateTransformMs } from './transform-cost.js';

describe('estimateTransformMs', () => {
  const big = { width: 7000, height: 7000 };
  it('counts encode time by format: a 49-megapixel AVIF is about 24 s, a JPEG of it under 1.5 s', () => {
    expect(estimateTransformMs('avif', big, big)).toBeGreaterThan(24_000);
    expect(estimateTransformMs('avif', big, big)).toBeLessThan(26_000);
    expect(estimateTransformMs('jpeg', big, big)).toBeLessThan(1_500);
    expect(estimateTransformMs('webp', big, big)).toBeGreaterThan(estimateTransformMs('jpeg', big, big));
  });
  it('a thumbnail of a large source costs its decode, not the source encoded', () => {
    const thumb = estimateTransformMs('avif', big, { width: 320, height: 240 });
    expect(thumb).toBeLessThan(1_000);
    expect(thumb).toBeGreaterThan(estimateTransformMs('avif', { width: 640, height: 480 }, { width: 320, height: 240 }));
  });
  it('an unknown source counts as a megapixel', () => {
    expect(estimateTransformMs('jpeg', null, null)).toBe(20 + 10 + 15);
  });
  it('counts the passes of smart crops and of crop rectangles, rotations and mirroring', () => {
    const photo = { width: 4000, height: 2500 };
    const thumb = { width: 400, height: 400 };
    const plain = estimateTransformMs('jpeg', photo, thumb);
    expect(estimateTransformMs('jpeg', photo, thumb, { smartCrop: 'AUTO' })).toBe(plain + 400);
    expect(estimateTransformMs('jpeg', photo, thumb, { flip: 'BOTH' })).toBe(plain + 200);
    expect(estimateTransformMs('jpeg', photo, thumb, { crop: { x: 0, y: 0, width: 0.5, height: 0.5 }, rotate: 90 })).toBe(plain + 500);
    expect(estimateTransformMs('jpeg', photo, thumb, { grayscale: true, background: 'ffffff' })).toBe(plain);
    const overlay = { assetId: 'a', versionId: 'v', gravity: 'SOUTH_EAST' as const, opacity: 1, scale: 0.25 };
    expect(estimateTransformMs('jpeg', photo, thumb, { overlay }, { width: 2000, height: 1000 })).toBe(plain + 20 + 20);
    expect(estimateTransformMs('jpeg', photo, thumb, { overlay }, null)).toBe(plain + 20 + 10);
  });
});
