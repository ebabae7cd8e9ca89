import { describe, expect, it } from 'vitest';
import { DateTimeScalar, isoString } from './scalars.js';

describe('isoString', () => {
  it('writes what Date#toISOString writes, for every year', () => {
    const edges = [
      Date.UTC(1000, 0, 1),
      Date.UTC(999, 11, 31, 23, 59, 59, 999),
      Date.UTC(9999, 11, 31, 23, 59, 59, 999),
      Date.UTC(10000, 0, 1),
      Date.UTC(-1, 5, 6, 7, 8, 9, 10),
      0,
      -1,
      Date.UTC(2024, 1, 29, 0, 0, 0, 5),
      Date.UTC(2024, 11, 31, 9, 9, 9, 50),
      8.64e15,
      -8.64e15,
    ];
    // random instants across the whole Date range, and densely around the present
    let seed = 42;
    const random = () => (seed = (Math.imul(seed, 1664525) + 1013904223) >>> 0) / 2 ** 32;
    const samples = [...edges, ...Array.from({ length: 2000 }, () => (random() * 2 - 1) * 8.64e15), ...Array.from({ length: 2000 }, () => random() * 4e12)];
    for (const t of samples) {
      const d = new Date(Math.trunc(t));
      expect(isoString(d), String(t)).toBe(d.toISOString());
    }
  });

  it('is what the DateTime scalar answers', () => {
    const d = new Date(Date.UTC(2026, 0, 31, 12, 0, 0, 7));
    expect(DateTimeScalar.serialize(d)).toBe('2026-01-31T12:00:00.007Z');
    expect(() => DateTimeScalar.serialize(new Date(NaN))).toThrow(/invalid date/);
  });
});
