import { describe, expect, it } from 'vitest';
import { checkTokenFormat, generateToken, hashToken, TOKEN_LENGTH } from './token-format.js';

describe('token format', () => {
  it('generates folio_ + 40 random + 6 checksum characters that verify', () => {
    const seen = new Set<string>();
    for (let i = 0; i < 1000; i++) {
      const t = generateToken();
      expect(t).toHaveLength(TOKEN_LENGTH);
      expect(t).toMatch(/^folio_[0-9A-Za-z]{46}$/);
      expect(checkTokenFormat(t)).toBe('ok');
      seen.add(t);
    }
    expect(seen.size).toBe(1000);
  });

  it('rejects any single-character typo, a truncation and foreign shapes', () => {
    const t = generateToken();
    for (let i = 6; i < t.length; i++) {
      const c = t[i] === 'a' ? 'b' : 'a';
      expect(checkTokenFormat(t.slice(0, i) + c + t.slice(i + 1))).toBe('bad-checksum');
    }
    expect(checkTokenFormat(t.slice(0, -1))).toBe('malformed');
    expect(checkTokenFormat('Bearer ' + t)).toBe('malformed');
    expect(checkTokenFormat('ghp_' + t.slice(6))).toBe('malformed');
  });

  it('hashes with SHA-256', () => {
    expect(hashToken('x').toString('hex')).toBe('2d711642b726b04401627ca9fbac32f5c8530fb1903cc4db02258717921a4881');
  });
});
