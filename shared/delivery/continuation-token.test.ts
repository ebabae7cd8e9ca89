import { describe, expect, it } from 'vitest';
import { isAppError } from '../errors/index.js';
import { decodeContinuationToken, encodeContinuationToken, type TokenBinding } from './continuation-token.js';

const secret = Buffer.from('0123456789abcdef0123456789abcdef');
const binding: TokenBinding = { orgId: 'o1', collection: 'articleCollection', scope: 'delivery', where: { title: { contains: 'x' } }, order: { views: 'ASC' } };

const rejects = (fn: () => unknown) => {
  try {
    fn();
  } catch (e) {
    return isAppError(e) && e.code === 'BAD_REQUEST';
  }
  return false;
};

describe('continuation tokens', () => {
  it('round-trips key values, dates as ISO strings', () => {
    const t = encodeContinuationToken(secret, binding, [12, new Date('2026-01-01T00:00:00Z'), null, 'id1']);
    expect(decodeContinuationToken(secret, binding, t, 4)).toEqual([12, '2026-01-01T00:00:00.000Z', null, 'id1']);
  });

  it('binds to the query regardless of key order in the filter objects', () => {
    const t = encodeContinuationToken(secret, binding, [1, 'a']);
    const same = { ...binding, where: { title: { contains: 'x' } }, order: { views: 'ASC', thenBy: null } };
    expect(decodeContinuationToken(secret, same, t, 2)).toEqual([1, 'a']);
  });

  it('rejects other queries, orgs, scopes, secrets, key counts and any change to the token', () => {
    const t = encodeContinuationToken(secret, binding, [1, 'a']);
    expect(rejects(() => decodeContinuationToken(secret, { ...binding, where: null }, t, 2))).toBe(true);
    expect(rejects(() => decodeContinuationToken(secret, { ...binding, orgId: 'o2' }, t, 2))).toBe(true);
    expect(rejects(() => decodeContinuationToken(secret, { ...binding, scope: 'preview' }, t, 2))).toBe(true);
    expect(rejects(() => decodeContinuationToken(Buffer.from('another secret of 32 characters!'), binding, t, 2))).toBe(true);
    expect(rejects(() => decodeContinuationToken(secret, binding, t, 3))).toBe(true);
    for (let i = 0; i < t.length; i += 7) {
      const c = t[i] === 'A' ? 'B' : 'A';
      expect(rejects(() => decodeContinuationToken(secret, binding, t.slice(0, i) + c + t.slice(i + 1), 2))).toBe(true);
    }
    expect(rejects(() => decodeContinuationToken(secret, binding, '', 2))).toBe(true);
    expect(rejects(() => decodeContinuationToken(secret, binding, `${t}.x`, 2))).toBe(true);
  });
});
