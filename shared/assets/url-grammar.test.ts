import { randomBytes } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import { AppError } from '../errors/index.js';
import { filePath, imagePath, parseFilePath, parseImagePath } from './url-grammar.js';

const secret = randomBytes(32);
const status = (fn: () => unknown) => {
  try {
    fn();
  } catch (e) {
    return (e as AppError).status;
  }
  return 200;
};

describe('signed asset paths', () => {
  const parts = { orgId: 'org1', assetId: 'asset1', versionId: 'v1', ops: { width: 800, height: 600, resize: 'FILL' as const, format: 'webp' as const } };

  it('builds and parses an image path', () => {
    const path = imagePath(secret, parts);
    expect(path).toMatch(/^\/img\/[A-Za-z0-9_-]{22}\/org1\/asset1\/v1\/w_800,h_600,r_fill\.webp$/);
    expect(parseImagePath(secret, path.slice('/img/'.length))).toEqual(parts);
  });

  it('refuses any change to the path, the signature or the secret with 403', () => {
    const rest = imagePath(secret, parts).slice('/img/'.length);
    const [sig] = rest.split('/');
    expect(status(() => parseImagePath(secret, rest.replace('w_800', 'w_801')))).toBe(403);
    expect(status(() => parseImagePath(secret, rest.replace('asset1', 'asset2')))).toBe(403);
    expect(status(() => parseImagePath(secret, rest.replace('.webp', '.png')))).toBe(403);
    const flipped = (sig[0] === 'A' ? 'B' : 'A') + sig.slice(1);
    expect(status(() => parseImagePath(secret, rest.replace(sig, flipped)))).toBe(403);
    expect(status(() => parseImagePath(secret, rest.replace(sig, sig.slice(0, 10))))).toBe(403);
    expect(status(() => parseImagePath(randomBytes(32), rest))).toBe(403);
    expect(status(() => parseImagePath(secret, 'just/garbage'))).toBe(403);
  });

  it('signed but malformed operations are a 400', async () => {
    const { signPath } = await import('./signing.js');
    const message = 'img/org1/asset1/v1/w_0.jpg';
    expect(status(() => parseImagePath(secret, `${signPath(secret, message)}/${message.slice(4)}`))).toBe(400);
  });

  it('round-trips file names with any characters', () => {
    const path = filePath(secret, { orgId: 'o', assetId: 'a', versionId: 'v', fileName: 'Ünïcode name?.pdf' });
    expect(path).toContain('/%C3%9Cn%C3%AFcode%20name%3F.pdf');
    expect(parseFilePath(secret, path.slice('/files/'.length)).fileName).toBe('Ünïcode name?.pdf');
    expect(status(() => parseFilePath(secret, path.slice('/files/'.length).replace('.pdf', '.exe')))).toBe(403);
  });
});
