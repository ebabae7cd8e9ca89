import { existsSync } from 'node:fs';
import { mkdir, mkdtemp, rm, writeFile } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import sharp from 'sharp';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { extractFrame, locateFfmpeg } from './ffmpeg.js';

/**
 * The npm route to an ffmpeg binary: Folio depends on no such package (GPL builds), so these
 * tests install stand-ins of the two it looks for into a temporary project, with the shapes the
 * real ones export (`ffmpeg-static`: the path; `@ffmpeg-installer/ffmpeg`: `{ path }`), pointing
 * at a real binary, and resolve from there as Node resolves from Folio's own folder.
 */
const clip = fileURLToPath(new URL('../../test/fixtures/images/clip.mp4', import.meta.url));
const DEBIAN_FFMPEG = '/usr/bin/ffmpeg';

let root: string;
const project = async (name: string, packages: Record<string, string>): Promise<string> => {
  const dir = path.join(root, name);
  for (const [pkg, source] of Object.entries(packages)) {
    const pkgDir = path.join(dir, 'node_modules', ...pkg.split('/'));
    await mkdir(pkgDir, { recursive: true });
    await writeFile(path.join(pkgDir, 'package.json'), JSON.stringify({ name: pkg, version: '1.0.0', main: 'index.js' }));
    await writeFile(path.join(pkgDir, 'index.js'), source);
  }
  await mkdir(dir, { recursive: true });
  // resolution starts at a module of the project, like Folio's shared/assets/ffmpeg.js
  return pathToFileURL(path.join(dir, 'ffmpeg.js')).href;
};

beforeAll(async () => {
  root = await mkdtemp(path.join(os.tmpdir(), 'folio-ffmpeg-'));
});
afterAll(async () => rm(root, { recursive: true, force: true }));

describe('locateFfmpeg', () => {
  // Locating only checks that the file is executable: Node's own binary stands in for ffmpeg.
  const executable = JSON.stringify(process.execPath);

  it('finds the binary of ffmpeg-static (exports its path)', async () => {
    const from = await project('static', { 'ffmpeg-static': `module.exports = ${executable};` });
    expect(await locateFfmpeg(undefined, from)).toBe(process.execPath);
  });

  it('finds the binary of @ffmpeg-installer/ffmpeg (exports { path })', async () => {
    const from = await project('installer', { '@ffmpeg-installer/ffmpeg': `module.exports = { path: ${executable}, version: 'test' };` });
    expect(await locateFfmpeg(undefined, from)).toBe(process.execPath);
  });

  it('prefers the configured binary, and falls back to a package when the configured one is not executable', async () => {
    const from = await project('both', { 'ffmpeg-static': `module.exports = ${executable};` });
    const configured = path.join(root, 'configured-ffmpeg');
    await writeFile(configured, '#!/bin/sh\n', { mode: 0o755 });
    expect(await locateFfmpeg(configured, from)).toBe(configured);
    expect(await locateFfmpeg(path.join(root, 'missing-ffmpeg'), from)).toBe(process.execPath);
  });

  it('finds nothing when no package is installed, or a package names a file that is missing or not executable', async () => {
    expect(await locateFfmpeg(undefined, await project('none', {}))).toBeNull();
    const missing = JSON.stringify(path.join(root, 'gone', 'ffmpeg'));
    expect(await locateFfmpeg(undefined, await project('missing', { 'ffmpeg-static': `module.exports = ${missing};` }))).toBeNull();
    const plain = path.join(root, 'not-executable');
    await writeFile(plain, 'data', { mode: 0o644 });
    expect(await locateFfmpeg(undefined, await project('plain', { 'ffmpeg-static': `module.exports = ${JSON.stringify(plain)};` }))).toBeNull();
    // a package without a binary for this platform exports null (ffmpeg-static does)
    expect(await locateFfmpeg(undefined, await project('null', { 'ffmpeg-static': 'module.exports = null;' }))).toBeNull();
  });
});

if (!existsSync(DEBIAN_FFMPEG)) console.warn(`skipping the frame extraction through a package: no ${DEBIAN_FFMPEG} (apt-get install ffmpeg)`);

describe.runIf(existsSync(DEBIAN_FFMPEG))('a poster frame through a binary found in a package', () => {
  it('extracts a JPEG frame of the clip with the binary the package names', async () => {
    const from = await project('real', { 'ffmpeg-static': `module.exports = ${JSON.stringify(DEBIAN_FFMPEG)};` });
    const ffmpeg = await locateFfmpeg(undefined, from);
    expect(ffmpeg).toBe(DEBIAN_FFMPEG);
    const frame = await extractFrame(ffmpeg!, clip, { atSeconds: 1, timeoutMs: 10_000 });
    expect(frame).not.toBeNull();
    const meta = await sharp(frame!).metadata();
    expect([meta.format, meta.width, meta.height]).toEqual(['jpeg', 320, 180]);
  });

  it('gives null, not an error, for input that is not a video', async () => {
    const notVideo = path.join(root, 'not-a-video.mp4');
    await writeFile(notVideo, 'plain text');
    expect(await extractFrame(DEBIAN_FFMPEG, notVideo, { atSeconds: 1, timeoutMs: 10_000 })).toBeNull();
  });
});
