import { describe, expect, it } from 'vitest';
import { AppError } from '../errors/index.js';
import { encodeOps, normalizeOps, parseOps } from './image-ops.js';

describe('image operations text form', () => {
  it('encodes in a fixed order and round-trips', () => {
    const text = encodeOps({ quality: 70, width: 800, height: 600, resize: 'FILL', gravity: 'NORTH_EAST' });
    expect(text).toBe('w_800,h_600,r_fill,g_north_east,q_70');
    expect(parseOps(text, 'webp')).toEqual({ format: 'webp', width: 800, height: 600, resize: 'FILL', gravity: 'NORTH_EAST', quality: 70 });
  });

  it('drops what has no effect so equal results share one key', () => {
    expect(encodeOps({ width: 100, resize: 'FILL', gravity: 'SOUTH', quality: 80 })).toBe('w_100');
    expect(encodeOps({ width: 100, height: 50, resize: 'FIT', gravity: 'SOUTH' })).toBe('w_100,h_50,r_fit');
    expect(encodeOps({ width: 100, height: 50 })).toBe('w_100,h_50,r_fit');
    expect(encodeOps({ width: 10, height: 10, resize: 'FILL', gravity: 'CENTER' })).toBe('w_10,h_10,r_fill');
    expect(encodeOps({})).toBe('-');
    // A focal point replaces gravity and is rounded to 4 decimals.
    expect(encodeOps({ width: 10, height: 10, resize: 'AUTO', gravity: 'WEST', focalPoint: { x: 0.123456, y: 1 } })).toBe(
      'w_10,h_10,r_auto,fp_0.1235_1',
    );
    expect(normalizeOps({ quality: 80 })).toEqual({});
  });

  it.each([
    ['w_0', 'w'],
    ['w_8193', 'w'],
    ['w_01', 'w'],
    ['h_abc', 'h'],
    ['r_stretch', 'r'],
    ['r_FILL', 'r'],
    ['g_up', 'g'],
    ['fp_1.5_0', 'fp'],
    ['fp_0.5', 'fp'],
    ['q_101', 'q'],
    ['x_1', 'x'],
    ['h_10,w_10', 'w'],
    ['w_10,w_10', 'w'],
    ['', ''],
  ])('rejects %s with a 400 naming "%s"', (text, key) => {
    try {
      parseOps(text, 'jpg');
      expect.unreachable();
    } catch (e) {
      expect(e).toBeInstanceOf(AppError);
      expect((e as AppError).status).toBe(400);
      expect((e as AppError).message).toContain(`"${key}"`);
    }
  });

  it('f_auto comes last, round-trips, and takes no other value', () => {
    const ops = { width: 800, upscale: true, autoFormat: true, format: 'jpeg' as const };
    expect(encodeOps(ops)).toBe('w_800,up_1,f_auto');
    expect(parseOps('w_800,up_1,f_auto', 'jpg')).toEqual(ops);
    expect(encodeOps({ autoFormat: true })).toBe('f_auto');
    expect(() => parseOps('f_webp', 'jpg')).toThrow('f_auto');
    expect(() => parseOps('f_auto,w_800', 'jpg')).toThrow('out of order');
  });

  it('blur and sharpen sit between q and up, round-trip, and refuse values out of range', () => {
    const ops = parseOps('w_400,q_70,bl_20,sh_3,up_1', 'jpg');
    expect(ops).toMatchObject({ width: 400, quality: 70, blur: 20, sharpen: 3, upscale: true });
    expect(encodeOps(ops)).toBe('w_400,q_70,bl_20,sh_3,up_1');
    for (const bad of ['bl_0', 'bl_101', 'sh_11', 'bl_x', 'sh_3,bl_2']) {
      expect(() => parseOps(bad, 'jpg'), bad).toThrow(AppError);
    }
  });

  it('smart crops are values of g for a fill; a focal point beats them, and them gravity', () => {
    for (const [smartCrop, key] of [
      ['AUTO', 'g_auto'],
      ['ATTENTION', 'g_attention'],
      ['ENTROPY', 'g_entropy'],
    ] as const) {
      const text = encodeOps({ width: 300, height: 400, resize: 'FILL', smartCrop, gravity: 'NORTH' });
      expect(text).toBe(`w_300,h_400,r_fill,${key}`);
      expect(parseOps(text, 'jpg')).toEqual({ format: 'jpeg', width: 300, height: 400, resize: 'FILL', smartCrop });
    }
    expect(encodeOps({ width: 300, height: 400, resize: 'FILL', smartCrop: 'AUTO', focalPoint: { x: 0.2, y: 0.3 } })).toBe('w_300,h_400,r_fill,fp_0.2_0.3');
    // no fill, nothing to crop
    expect(encodeOps({ width: 300, height: 400, resize: 'FIT', smartCrop: 'AUTO' })).toBe('w_300,h_400,r_fit');
    expect(encodeOps({ width: 300, smartCrop: 'AUTO' })).toBe('w_300');
    expect(() => parseOps('g_faces', 'jpg')).toThrow(/g_|"g"/);
    expect(() => parseOps('g_Auto', 'jpg')).toThrow('"g"');
  });

  it('the everyday edits follow up in the order c, ro, fl, bg, gs and round-trip', () => {
    const ops = {
      width: 400,
      height: 400,
      resize: 'PAD' as const,
      crop: { x: 0.1, y: 0.2, width: 0.5, height: 0.75 },
      rotate: 90 as const,
      flip: 'BOTH' as const,
      background: 'ff8800',
      grayscale: true,
      format: 'png' as const,
    };
    const text = encodeOps(ops);
    expect(text).toBe('w_400,h_400,r_pad,c_0.1_0.2_0.5_0.75,ro_90,fl_hv,bg_ff8800,gs_1');
    expect(parseOps(text, 'png')).toEqual(ops);
    expect(parseOps('fl_h', 'png').flip).toBe('HORIZONTAL');
    expect(parseOps('fl_v', 'png').flip).toBe('VERTICAL');
    expect(encodeOps({ upscale: true, width: 10, crop: { x: 0, y: 0, width: 1, height: 1 }, grayscale: false, autoFormat: true })).toBe('w_10,up_1,f_auto');
    expect(encodeOps({ background: 'ABCDEF' })).toBe('bg_abcdef');
  });

  it.each([
    ['c_0.5_0.5_0.6_0.1', 'inside the image'],
    ['c_0_0_0_1', 'above 0'],
    ['c_0_0_1', 'expected c_'],
    ['c_0_0_1.5_1', 'from 0 to 1'],
    ['ro_45', 'ro'],
    ['ro_360', 'ro'],
    ['fl_x', 'fl'],
    ['bg_fff', 'bg'],
    ['bg_FF0000', 'bg'],
    ['gs_0', 'gs'],
    ['ro_90,c_0_0_1_1', 'out of order'],
    ['gs_1,bg_ffffff', 'out of order'],
    ['r_pads', 'r'],
    ['q_best', '"q"'],
    ['q_Auto', '"q"'],
    ['cp_0_0_10', 'expected cp_'],
    ['cp_0_0_0_10', 'width and height'],
    ['cp_-1_0_10_10', 'expected cp_'],
    ['cp_0.5_0_10_10', 'expected cp_'],
    ['cp_65535_0_1_1', 'x and y'],
    ['c_0_0_1_1,cp_0_0_10_10', 'once'],
    ['t_0', '"t"'],
    ['t_101', '"t"'],
    ['t_x', '"t"'],
    ['ro_90,t_10', 'out of order'],
    ['t_10,cp_0_0_1_1', 'out of order'],
  ])('refuses %s (400: %s)', (text, message) => {
    try {
      parseOps(text, 'jpg');
      expect.unreachable();
    } catch (e) {
      expect((e as AppError).status).toBe(400);
      expect((e as AppError).message).toContain(message);
    }
  });

  it('an overlay comes after gs, its ids last (they may hold "_"), and round-trips', () => {
    const overlay = { assetId: 'logo_1-a', versionId: 'v_9', gravity: 'NORTH_WEST' as const, opacity: 0.5, scale: 0.2 };
    const text = encodeOps({ width: 300, grayscale: true, overlay, autoFormat: true });
    expect(text).toBe('w_300,gs_1,o_nw_0.5_0.2_logo_1-a.v_9,f_auto');
    expect(parseOps(text, 'jpg').overlay).toEqual(overlay);
    for (const bad of ['o_up_0.5_0.2_a.v', 'o_nw_0_0.2_a.v', 'o_nw_0.5_1.5_a.v', 'o_nw_0.5_0.2_a', 'o_nw_0.5_0.2_a.v.w', 'o_nw_0.5_0.2_a$.v', 'o_nw_0.5']) {
      expect(() => parseOps(bad, 'jpg'), bad).toThrow('"o"');
    }
  });

  it('q_auto, cp and t take their places (q; after c; before ro) and round-trip', () => {
    const ops = { width: 300, autoQuality: true, cropPixels: { x: 10, y: 0, width: 200, height: 150 }, trim: 12, rotate: 90 as const, format: 'webp' as const };
    const text = encodeOps(ops);
    expect(text).toBe('w_300,q_auto,cp_10_0_200_150,t_12,ro_90');
    expect(parseOps(text, 'webp')).toEqual(ops);
    // q_auto replaces a number; a pixel cut replaces a fraction one
    expect(encodeOps({ quality: 60, autoQuality: true })).toBe('q_auto');
    expect(encodeOps({ crop: { x: 0.1, y: 0, width: 0.5, height: 1 }, cropPixels: { x: 0, y: 0, width: 5, height: 5 } })).toBe('cp_0_0_5_5');
  });

  it('overlay offsets follow o as ox and oy, round-trip, and need an overlay', () => {
    const overlay = { assetId: 'logo', versionId: 'v1', gravity: 'SOUTH_EAST' as const, opacity: 1, scale: 0.25, offsetX: 12, offsetY: 30 };
    const text = encodeOps({ width: 300, overlay, autoFormat: true });
    expect(text).toBe('w_300,o_se_1_0.25_logo.v1,ox_12,oy_30,f_auto');
    expect(parseOps(text, 'jpg').overlay).toEqual(overlay);
    expect(encodeOps({ overlay: { ...overlay, offsetX: 0 } })).toBe('o_se_1_0.25_logo.v1,oy_30');
    for (const [bad, message] of [
      ['ox_10', 'needs o first'],
      ['o_se_1_0.25_logo.v1,ox_0', '"ox"'],
      ['o_se_1_0.25_logo.v1,oy_8193', '"oy"'],
      ['o_se_1_0.25_logo.v1,oy_5,ox_5', 'out of order'],
    ]) {
      expect(() => parseOps(bad, 'jpg'), bad).toThrow(message);
    }
  });

  it('fr_N comes before f, from 0 to 999', () => {
    expect(encodeOps({ width: 100, frame: 0, autoFormat: true })).toBe('w_100,fr_0,f_auto');
    expect(parseOps('w_100,fr_12,f_auto', 'webp')).toMatchObject({ frame: 12, autoFormat: true });
    for (const bad of ['fr_-1', 'fr_1000', 'fr_01', 'fr_x', 'f_auto,fr_1']) expect(() => parseOps(bad, 'webp'), bad).toThrow(AppError);
  });

  it('rejects unknown extensions', () => {
    expect(() => parseOps('w_10', 'bmp')).toThrow(/format/);
  });
});
