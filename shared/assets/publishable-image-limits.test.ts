import { describe, expect, it } from 'vitest';
import { checkPublishableDerivative, type PublishableImageLimits } from './publishable-image-limits.js';

const source = { width: 1200, height: 900 };
const check = (t: object, ops: object, limits: PublishableImageLimits, from: { width: number | null; height: number | null } = source) => () => checkPublishableDerivative(t, ops, from, limits);

describe('checkPublishableDerivative', () => {
  it('holds the output as served to maxWidth and maxHeight', () => {
    const limits = { sizes: { maxWidth: 800, maxHeight: 500 }, presets: null };
    expect(check({ width: 600 }, { width: 600 }, limits)).not.toThrow(); // 600×450
    expect(check({ width: 800 }, { width: 800 }, limits)).toThrow('the output would be 600 pixels high, more than 500');
    expect(check({ height: 400 }, { height: 400 }, limits)).not.toThrow(); // 533×400
    expect(check({}, {}, limits)).toThrow('the output would be 1200 pixels wide'); // a format change at full size
    // a larger box than the source, not enlarged: the source's own size
    expect(check({ width: 4000 }, { width: 4000 }, { sizes: { maxWidth: 1200 }, presets: null })).not.toThrow();
    expect(check({ width: 4000, upscale: true }, { width: 4000, upscale: true }, { sizes: { maxWidth: 1200 }, presets: null })).toThrow('4000 pixels wide');
  });

  it('refuses what it cannot measure when the source size is unknown', () => {
    const limits = { sizes: { maxWidth: 800 }, presets: null };
    const unknown = { width: null, height: null };
    expect(check({ width: 600 }, { width: 600 }, limits, unknown)).not.toThrow();
    expect(check({ height: 600 }, { height: 600 }, limits, unknown)).toThrow("name a width: the source's size is unknown");
  });

  it('is a 403 naming the setting', () => {
    try {
      checkPublishableDerivative({ preset: 'x' }, { width: 10 }, source, { sizes: null, presets: ['card'] });
      expect.unreachable();
    } catch (err) {
      expect(err).toMatchObject({ code: 'FORBIDDEN', status: 403, message: expect.stringContaining('the preset "x" is not one of card ("publishableImagePresets")') });
    }
  });
});
