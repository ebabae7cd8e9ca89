import { readFile } from 'node:fs/promises';
import { describe, expect, it } from 'vitest';
import { probeMp4 } from './mp4-probe.js';

describe('probeMp4', () => {
  it('reads duration and size from a moov box at the end, with small ranged reads', async () => {
    const file = await readFile(new URL('../../test/fixtures/images/clip.mp4', import.meta.url));
    const reads: number[] = [];
    const info = await probeMp4(async (start, length) => {
      reads.push(length);
      return file.subarray(start, start + length);
    }, file.length);
    expect(info).toEqual({ duration: 3, width: 320, height: 180 });
    // Box headers, then the moov box itself: never the media data.
    expect(Math.max(...reads)).toBeLessThan(file.length / 2);
  });

  it('answers null for data that is not MP4', async () => {
    const junk = Buffer.from('this is not a video at all');
    expect(await probeMp4(async (s, l) => junk.subarray(s, s + l), junk.length)).toBeNull();
  });
});
