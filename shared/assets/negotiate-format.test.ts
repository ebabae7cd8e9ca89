import { describe, expect, it } from 'vitest';
import { negotiateImageFormat } from './negotiate-format.js';

describe('negotiateImageFormat', () => {
  it('prefers AVIF, then WebP, when the Accept header names them; else the fallback', () => {
    expect(negotiateImageFormat('image/avif,image/webp,image/apng,image/*,*/*;q=0.8', 'jpeg')).toBe('avif'); // Chromium
    expect(negotiateImageFormat('image/webp,*/*', 'jpeg')).toBe('webp');
    expect(negotiateImageFormat('*/*', 'png')).toBe('png');
    expect(negotiateImageFormat('image/*', 'png')).toBe('png');
    expect(negotiateImageFormat(undefined, 'jpeg')).toBe('jpeg');
    expect(negotiateImageFormat('', 'jpeg')).toBe('jpeg');
  });

  it('reads q values and case; q=0 refuses a type', () => {
    expect(negotiateImageFormat('image/avif;q=0, image/webp;q=0.5', 'jpeg')).toBe('webp');
    expect(negotiateImageFormat('IMAGE/AVIF', 'jpeg')).toBe('avif');
    expect(negotiateImageFormat('image/avif;q=0,image/webp;q=0', 'png')).toBe('png');
  });

  it('leaves a GIF a GIF (it may be animated)', () => {
    expect(negotiateImageFormat('image/avif,image/webp', 'gif')).toBe('gif');
  });
});
