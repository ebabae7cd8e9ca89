import { describe, expect, it } from 'vitest';
import { refusedAddress } from './target-guard.js';

describe('refusedAddress', () => {
  it.each([
    ['::127.0.0.1', 'loopback'],
    ['::7f00:1', 'loopback'],
    ['::10.0.0.1', 'private'],
    ['::169.254.169.254', 'linkLocal'],
    ['::ffff:127.0.0.1', 'loopback'],
    ['::ffff:a9fe:a9fe', 'linkLocal'],
    ['64:ff9b::127.0.0.1', 'rfc6052'],
    ['2002:7f00:1::', '6to4'],
    ['::1', 'loopback'],
    ['::', 'unspecified'],
  ])('refuses %s, an IPv6 form of a non-public address (%s)', (address, range) => {
    expect(refusedAddress(address)).toBe(`${address} is a ${range} address`);
  });

  it.each(['::8.8.8.8', '::ffff:8.8.8.8', '2606:4700:4700::1111', '8.8.8.8'])('lets %s through (public)', (address) => {
    expect(refusedAddress(address)).toBeNull();
  });
});
