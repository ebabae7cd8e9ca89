import sharp from 'sharp';
import { mkdtemp, readFile, rm } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { Readable } from 'node:stream';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createFsBlobStore } from '../adapters/blobs/fs.js';
import type { BlobStore } from '../adapters/blobs/index.js';
import { createLogger, type Logger } from '../logger.js';
import { analyseUpload } from './analyse-upload.js';

const fixture = (name: string) => readFile(new URL(`../../test/fixtures/images/${name}`, import.meta.url));

/** A logger whose warnings are kept, to check that a failure is reported. */
function recordingLogger(): { logger: Logger; warnings: string[] } {
  const warnings: string[] = [];
  const logger = createLogger('warn', { write: (line: string) => void warnings.push(line) });
  return { logger, warnings };
}

describe('analyseUpload', () => {
  let dir: string;
  let blobs: BlobStore;
  beforeAll(async () => {
    dir = await mkdtemp(path.join(os.tmpdir(), 'folio-analyse-'));
    blobs = createFsBlobStore({ root: dir });
  });
  afterAll(async () => rm(dir, { recursive: true, force: true }));

  it('suggests the subject of the photograph (inside the hand-marked face) and makes the placeholder, from one decode', async () => {
    // the mouse photograph at 800×500, its left 560 columns: the face is at x 345–455, y 180–310
    const photo = await sharp(await fixture('the-mouse.jpg')).resize(800, 500).png().toBuffer();
    const scene = await sharp(photo).extract({ left: 0, top: 0, width: 560, height: 500 }).png().toBuffer();
    await blobs.put('scene', Readable.from([scene]), { contentType: 'image/png' });
    const { placeholder, suggestedFocalPoint } = await analyseUpload({ blobs }, 'scene');
    expect(placeholder).toMatch(/^data:image\/webp;base64,/);
    expect((await sharp(Buffer.from(placeholder!.split(',')[1], 'base64')).metadata()).width).toBe(16);
    expect(suggestedFocalPoint!.x * 560).toBeGreaterThanOrEqual(345);
    expect(suggestedFocalPoint!.x * 560).toBeLessThanOrEqual(455);
    expect(suggestedFocalPoint!.y * 500).toBeGreaterThanOrEqual(180);
    expect(suggestedFocalPoint!.y * 500).toBeLessThanOrEqual(310);
  });

  it('answers in the upright image: an EXIF orientation-6 JPEG of the scene gets the same face', async () => {
    const photo = await sharp(await fixture('the-mouse.jpg')).resize(800, 500).png().toBuffer();
    const scene = await sharp(photo).extract({ left: 0, top: 0, width: 560, height: 500 }).png().toBuffer();
    // stored turned a quarter anticlockwise; orientation 6 tells a viewer to turn it back
    const stored = await sharp(scene).rotate(270).withMetadata({ orientation: 6 }).jpeg({ quality: 95 }).toBuffer();
    expect((await sharp(stored).metadata()).width).toBe(500);
    await blobs.put('exif', Readable.from([stored]), { contentType: 'image/jpeg' });
    const { suggestedFocalPoint } = await analyseUpload({ blobs }, 'exif');
    expect(suggestedFocalPoint!.x * 560).toBeGreaterThanOrEqual(345);
    expect(suggestedFocalPoint!.x * 560).toBeLessThanOrEqual(455);
    expect(suggestedFocalPoint!.y * 500).toBeGreaterThanOrEqual(180);
    expect(suggestedFocalPoint!.y * 500).toBeLessThanOrEqual(310);
  });

  it('finds the same point in a large original as in its small decode (3840×2400 JPEG, EXIF-free)', async () => {
    const jpeg = await fixture('the-mouse.jpg');
    await blobs.put('mouse', Readable.from([jpeg]), { contentType: 'image/jpeg' });
    const { info } = await sharp(jpeg).resize({ width: 3840, height: 1200, fit: 'cover', position: 'attention' }).toBuffer({ resolveWithObject: true });
    const { suggestedFocalPoint } = await analyseUpload({ blobs }, 'mouse');
    expect(suggestedFocalPoint!.x).toBeCloseTo(info.attentionX! / 3840, 1);
    expect(suggestedFocalPoint!.y).toBeCloseTo(info.attentionY! / 2400, 1);
  });

  it('names nothing in a flat image', async () => {
    const grey = await sharp({ create: { width: 300, height: 200, channels: 3, background: '#808080' } }).png().toBuffer();
    await blobs.put('grey', Readable.from([grey]), { contentType: 'image/png' });
    expect((await analyseUpload({ blobs }, 'grey')).suggestedFocalPoint).toBeNull();
  });

  it('leaves both null and logs when the original cannot be read, without throwing', async () => {
    const { logger, warnings } = recordingLogger();
    await blobs.put('junk', Readable.from([Buffer.from('not an image at all')]), { contentType: 'image/png' });
    expect(await analyseUpload({ blobs, logger }, 'junk')).toEqual({ placeholder: null, suggestedFocalPoint: null });
    expect(await analyseUpload({ blobs, logger }, 'missing')).toEqual({ placeholder: null, suggestedFocalPoint: null });
    expect(warnings).toHaveLength(2);
    expect(warnings.every((w) => w.includes('assets: image not analysed at upload'))).toBe(true);
  });
});
