import { existsSync } from 'node:fs';
import { readFile } from 'node:fs/promises';
import sharp from 'sharp';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestApp, type TestApp, type TestOrg } from '../support/harness.js';

/**
 * Poster frames extracted at upload by an operator-provided ffmpeg (FFMPEG_PATH). `.ci/run`
 * installs Debian's ffmpeg; without any binary there is nothing to extract with.
 */
const FFMPEG = '/usr/bin/ffmpeg';
const fixture = (name: string) => readFile(new URL(`../fixtures/images/${name}`, import.meta.url));

if (!existsSync(FFMPEG)) console.warn(`skipping poster extraction tests: no ${FFMPEG} (apt-get install ffmpeg)`);

describe.runIf(existsSync(FFMPEG))('video posters extracted with ffmpeg', () => {
  let app: TestApp;
  let org: TestOrg;

  beforeAll(async () => {
    app = await startTestApp({ env: { FFMPEG_PATH: FFMPEG } });
    org = await app.createOrg();
  });
  afterAll(async () => app?.close());

  it('an uploaded video gets a poster frame, served as the THUMBNAIL image of the player', async () => {
    const res = await app.json('/management/v1/assets?fileName=clip.mp4', { method: 'POST', token: org.manageToken, rawBody: new Uint8Array(await fixture('clip.mp4')) });
    expect(res.status).toBe(201);
    expect(res.body.result).toMatchObject({ type: 'VIDEO', hasExtractedPoster: true, posterAssetId: null });

    const config = await app.json(`/embed/${org.orgId}/${res.body.result.id}.json`);
    expect(config.status).toBe(200);
    expect(typeof config.body.poster).toBe('string');
    const poster = await fetch(config.body.poster);
    expect(poster.status).toBe(200);
    expect(poster.headers.get('content-type')).toBe('image/jpeg');
    const meta = await sharp(Buffer.from(await poster.arrayBuffer())).metadata();
    expect(meta.format).toBe('jpeg');
    // a frame of the 320×180 clip at its own size: the player asks for 1280 wide, and a poster
    // is never enlarged (this was 1280×720)
    expect([meta.width, meta.height]).toEqual([320, 180]);
  });

  it('a configured path that is not an executable (and no npm package that ships one) means no poster, not a failed upload', async () => {
    const other = await startTestApp({ env: { FFMPEG_PATH: '/nonexistent/ffmpeg' } });
    try {
      const o = await other.createOrg();
      const res = await other.json('/management/v1/assets?fileName=clip.mp4', { method: 'POST', token: o.manageToken, rawBody: new Uint8Array(await fixture('clip.mp4')) });
      expect(res.status).toBe(201);
      expect(res.body.result.hasExtractedPoster).toBe(false);
    } finally {
      await other.close();
    }
  });
});
