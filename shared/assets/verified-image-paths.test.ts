import { randomBytes } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import { derivativeKeyOf } from './derivative-source.js';
import { imagePath } from './url-grammar.js';
import { createImagePathVerifier } from './verified-image-paths.js';

const parts = { orgId: 'org1', assetId: 'asset1', versionId: 'v1', ops: { width: 800, height: 600, resize: 'FILL' as const, format: 'jpeg' as const } };
const statusOf = (fn: () => unknown): number | undefined => {
  try {
    fn();
  } catch (e) {
    return (e as { status?: number }).status;
  }
  return undefined;
};

describe('createImagePathVerifier', () => {
  it('parses a signed path and names its derivative, once: the same path gives the same frozen answer', () => {
    const secret = randomBytes(32);
    const verifiedImagePath = createImagePathVerifier(secret);
    const path = imagePath(secret, parts);
    const first = verifiedImagePath(path);
    expect(first.parts).toEqual(parts);
    expect({ key: first.key, etag: first.etag }).toEqual(derivativeKeyOf(parts));
    expect(verifiedImagePath(path)).toBe(first);
    expect(Object.isFrozen(first.parts.ops)).toBe(true);
  });

  it('an f_auto path names, per Accept, the derivative of the format the request gets', () => {
    const secret = randomBytes(32);
    const verify = createImagePathVerifier(secret);
    const auto = imagePath(secret, { ...parts, ops: { ...parts.ops, autoFormat: true } });
    expect(auto).toMatch(/,f_auto\.jpg$/);
    const fixed = (format: 'avif' | 'webp' | 'jpeg') => derivativeKeyOf({ ...parts, ops: { ...parts.ops, format } });
    const avif = verify(auto, 'image/avif,image/webp,*/*');
    expect({ key: avif.key, etag: avif.etag, format: avif.parts.ops.format, negotiated: avif.negotiated }).toEqual({ ...fixed('avif'), format: 'avif', negotiated: true });
    expect(avif.parts.ops.autoFormat).toBeUndefined();
    expect(verify(auto, 'image/webp,*/*')).toMatchObject({ ...fixed('webp'), negotiated: true });
    expect(verify(auto, '*/*')).toMatchObject({ ...fixed('jpeg'), negotiated: true });
    expect(verify(auto)).toMatchObject({ ...fixed('jpeg'), negotiated: true });
    expect(verify(auto, 'image/avif,image/webp,*/*')).toBe(avif);
    expect(verify(imagePath(secret, parts), 'image/avif').negotiated).toBe(false);
  });

  it('a path verified under one secret is refused under another, and a refusal is not remembered', () => {
    const secret = randomBytes(32);
    const mine = createImagePathVerifier(secret);
    const other = createImagePathVerifier(randomBytes(32));
    const path = imagePath(secret, parts);
    mine(path);
    expect(statusOf(() => other(path))).toBe(403);
    expect(statusOf(() => other(path))).toBe(403);
    const tampered = path.replace('w_800', 'w_801');
    expect(statusOf(() => mine(tampered))).toBe(403);
    expect(statusOf(() => mine(tampered))).toBe(403);
    expect(statusOf(() => mine('/img/just/garbage'))).toBe(403);
  });
});
