import { mkdtemp, readFile, rm } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import sharp from 'sharp';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { createAssetCaches, type AssetCaches } from './asset-caches.js';
import type { BlobStore } from '../adapters/blobs/index.js';
import { createFsBlobStore } from '../adapters/blobs/fs.js';
import { runTransformJob } from './run-transform-job.js';

describe('runTransformJob', () => {
  let dir: string;
  let blobs: BlobStore;
  // Each test is a fresh process's memory.
  let assetCaches: AssetCaches;
  beforeEach(() => {
    assetCaches = createAssetCaches();
  });
  const job = (derivativeKey: string) => ({ orgId: 'o', version: 1 as const, sourceKey: 'originals/o/a/v', derivativeKey, ops: 'w_64', ext: 'png' });

  beforeAll(async () => {
    dir = await mkdtemp(path.join(os.tmpdir(), 'folio-transform-'));
    blobs = createFsBlobStore({ root: dir });
    await blobs.put('originals/o/a/v', await readFile(new URL('../../test/fixtures/images/goldfish.png', import.meta.url)), { contentType: 'image/png' });
  });
  afterAll(async () => rm(dir, { recursive: true, force: true }));

  it('writes the derivative once; a repeated job finds it and does not transform again', async () => {
    let transforms = 0;
    const first = await runTransformJob({ blobs, assetCaches, onTransform: () => transforms++ }, job('assets/o/a/derivatives/d1'));
    expect(first).toMatchObject({ transformed: true, contentType: 'image/png' });
    const stored = await blobs.get('assets/o/a/derivatives/d1');
    const chunks: Buffer[] = [];
    for await (const c of stored!.body) chunks.push(c as Buffer);
    expect((await sharp(Buffer.concat(chunks)).metadata()).width).toBe(64);
    expect(await runTransformJob({ blobs, assetCaches, onTransform: () => transforms++ }, job('assets/o/a/derivatives/d1'))).toMatchObject({ transformed: false });
    expect(transforms).toBe(1);
  });

  it('removes its derivative when the asset was deleted while it ran', async () => {
    await blobs.put('originals/o/b/v', await readFile(new URL('../../test/fixtures/images/goldfish.png', import.meta.url)), { contentType: 'image/png' });
    // The deletion lands between reading the original and writing the derivative.
    const racing: BlobStore = {
      ...blobs,
      put: async (key, body, options) => {
        await blobs.delete('originals/o/b/v');
        return blobs.put(key, body, options);
      },
    };
    await expect(runTransformJob({ blobs: racing, assetCaches }, { ...job('assets/o/b/derivatives/d2'), sourceKey: 'originals/o/b/v' })).rejects.toMatchObject({ status: 404 });
    expect(await blobs.head('assets/o/b/derivatives/d2')).toBeNull();
  });

  it('a missing source is a 404', async () => {
    await expect(runTransformJob({ blobs, assetCaches }, { ...job('assets/o/c/derivatives/d3'), sourceKey: 'originals/o/c/v' })).rejects.toMatchObject({ status: 404 });
  });

  it('jobs for several derivatives of one new source read it once', async () => {
    await blobs.put('originals/o/e/v', await readFile(new URL('../../test/fixtures/images/goldfish.png', import.meta.url)), { contentType: 'image/png' });
    const reads: string[] = [];
    const counting: BlobStore = { ...blobs, get: (key, options) => (reads.push(key), blobs.get(key, options)) };
    const results = await Promise.all(
      ['w_64', 'w_65', 'w_66', 'w_67'].map((ops, i) => runTransformJob({ blobs: counting, assetCaches }, { ...job(`assets/o/e/derivatives/d${i}`), sourceKey: 'originals/o/e/v', ops })),
    );
    expect(results.map((r) => r.transformed)).toEqual([true, true, true, true]);
    expect(reads.filter((k) => k === 'originals/o/e/v')).toHaveLength(1);
  });

  it('a source that fails to load is not kept: the next job reads it again', async () => {
    await blobs.put('originals/o/f/v', Buffer.from('not an image at all'), { contentType: 'image/png' });
    const reads: string[] = [];
    const counting: BlobStore = { ...blobs, get: (key, options) => (reads.push(key), blobs.get(key, options)) };
    const failing = () => runTransformJob({ blobs: counting, assetCaches }, { ...job('assets/o/f/derivatives/d1'), sourceKey: 'originals/o/f/v' });
    await expect(Promise.all([failing(), failing()])).rejects.toMatchObject({ status: 422 });
    await expect(failing()).rejects.toMatchObject({ status: 422 });
    expect(reads).toHaveLength(2);
  });
});
