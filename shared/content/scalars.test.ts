import { describe, expect, it } from 'vitest';
import { normalizeDateTime, normalizeDecimal } from './scalars.js';

describe('normalizeDecimal', () => {
  it.each([
    ['1.50', '1.5'],
    [1.5, '1.5'],
    ['-0.000', '0'],
    ['007', '7'],
    ['.5', '0.5'],
    ['1e3', '1000'],
    ['1.25E-3', '0.00125'],
    [1e21, '1000000000000000000000'],
    ['12345678901234567890123456789012345678', '12345678901234567890123456789012345678'],
    ['-12.340', '-12.34'],
  ])('%s → %s', (input, out) => expect(normalizeDecimal(input)).toBe(out));

  it.each([['abc'], ['1.2.3'], [''], ['.'], [Infinity], [NaN], [true], ['123456789012345678901234567890123456789']])('refuses %s', (input) => {
    expect(normalizeDecimal(input)).toHaveProperty('problem');
  });
  it('counts only significant digits toward the precision limit', () => {
    expect(normalizeDecimal('0.00000000001234567890123456789012345678')).toBe('0.00000000001234567890123456789012345678');
  });
});

describe('normalizeDateTime', () => {
  it.each([
    ['2024-05-01T12:00:00Z', '2024-05-01T12:00:00.000Z'],
    ['2024-05-01T14:00:00+02:00', '2024-05-01T12:00:00.000Z'],
    ['2024-05-01T12:00Z', '2024-05-01T12:00:00.000Z'],
    ['2024-05-01', '2024-05-01T00:00:00.000Z'],
    ['2024-05-01T12:00:00.123456Z', '2024-05-01T12:00:00.123Z'],
    ['2024-12-31T23:30:00-0100', '2025-01-01T00:30:00.000Z'],
    ['0050-01-01T00:00:00Z', '0050-01-01T00:00:00.000Z'],
  ])('%s → %s', (input, out) => expect(normalizeDateTime(input)).toBe(out));

  it.each(['2024-02-30', '2024-05-01T25:00:00Z', '2024-05-01T12:00:00', 'yesterday', '2024/05/01', '2024-05-01T12:00:00+25:00'])('refuses %s', (input) => {
    expect(normalizeDateTime(input)).toHaveProperty('problem');
  });
  it('refuses non-strings', () => expect(normalizeDateTime(1714564800000)).toHaveProperty('problem'));
});
