import { gzipSync, deflateSync } from 'node:zlib';
import { describe, expect, it } from 'vitest';
import { zstdBomb } from '../../test/support/compression-bombs.js';
import { MAX_EVENT_LOOP_BLOCK_MS, measureEventLoopBlock } from '../../test/support/event-loop-guard.js';
import { isAppError } from '../errors/index.js';
import { decompressBody } from './decompress.js';
import { largestZstdWindow } from './zstd-frames.js';

const LIMIT = 64 * 1024 * 1024;

async function refusal(work: Promise<unknown>): Promise<number> {
  try {
    await work;
  } catch (err) {
    if (isAppError(err)) return err.status;
    throw err;
  }
  throw new Error('not refused');
}

describe('decompressBody', () => {
  it('reads each encoding', async () => {
    const text = Buffer.from('{"a":1}\n'.repeat(1000));
    expect(await decompressBody(gzipSync(text), 'gzip', LIMIT)).toEqual(text);
    expect(await decompressBody(deflateSync(text), 'deflate', LIMIT)).toEqual(text);
    expect((await decompressBody(zstdBomb(300_000), 'zstd', LIMIT)).length).toBe(3 * 128 * 1024);
  });

  it.each([
    ['gzip', () => gzipSync(Buffer.alloc(200 * 1024 * 1024))],
    ['deflate', () => deflateSync(Buffer.alloc(200 * 1024 * 1024))],
    ['zstd (3 GiB of zeros in 96 KiB)', () => zstdBomb(3 * 1024 ** 3)],
  ])('a %s bomb is refused with 413 past the limit, a slice at a time', async (_name, make) => {
    const bomb = make();
    const { result: status, maxBlockedMs } = await measureEventLoopBlock(() => refusal(decompressBody(bomb, _name.split(' ')[0], LIMIT)));
    expect(status).toBe(413);
    expect(maxBlockedMs).toBeLessThan(MAX_EVENT_LOOP_BLOCK_MS);
  });

  it('a zstd frame that asks for a window over 128 MiB is refused before decoding (400)', async () => {
    const huge = zstdBomb(1024, 0xa8); // 2^31-byte window
    expect(largestZstdWindow(huge)).toBe(2 ** 31);
    expect(await refusal(decompressBody(huge, 'zstd', LIMIT))).toBe(400);
    expect(largestZstdWindow(zstdBomb(1024))).toBe(2 * 1024 * 1024);
  });
});
