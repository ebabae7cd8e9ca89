import pg from 'pg';
import { describe, expect, it } from 'vitest';
import { parseTimestamptz, TIMESTAMPTZ } from './parse-timestamptz.js';

const reference = pg.types.getTypeParser(TIMESTAMPTZ, 'text') as (s: string) => Date | number | null;
const time = (v: Date | number | null) => (v instanceof Date ? v.getTime() : v);
const expectSame = (s: string) => expect(time(parseTimestamptz(s)), s).toEqual(time(reference(s)));

describe('parseTimestamptz', () => {
  it('reads the common shapes exactly as pg does', () => {
    for (const s of [
      '2024-01-01 00:00:00+00',
      '2024-03-05 12:34:56.789123+00',
      '2024-03-05 12:34:56.7+00',
      '2024-03-05 12:34:56.000001+00',
      '2024-03-05 12:34:56.999999+00',
      '2026-11-21 10:00:00.5+05:30',
      '1999-12-31 23:59:59.999-08',
      '1969-12-31 23:59:59.999+00',
      '1900-02-28 01:02:03-03:30',
      '2024-02-29 23:59:59+14',
    ]) {
      expectSame(s);
    }
    expect(parseTimestamptz('2026-11-21 10:00:00.5+05:30')).toEqual(new Date('2026-11-21T04:30:00.500Z'));
  });

  it('hands every other shape to pg: BC, infinity, small and large years, offsets with seconds', () => {
    for (const s of ['infinity', '-infinity', '0044-03-15 12:00:00+00 BC', '0099-01-01 00:00:00+00', '0001-01-01 00:00:00+00', '12345-01-01 00:00:00+00', '1890-01-01 00:00:00+00:53:28', '2024-01-01 00:00:00+00 BC']) {
      expectSame(s);
    }
  });

  it('agrees with pg on random instants in every offset format', () => {
    const pad = (n: number, w = 2) => String(n).padStart(w, '0');
    let seed = 42;
    const rand = (n: number) => ((seed = (seed * 1103515245 + 12345) % 2 ** 31) % n);
    for (let k = 0; k < 2000; k++) {
      const frac = ['', `.${pad(rand(1000000), 6).replace(/0+$/, '') || '5'}`][rand(2)];
      const off = ['+00', `-${pad(rand(13))}`, `+${pad(rand(15))}:${pad([0, 30, 45][rand(3)])}`][rand(3)];
      expectSame(`${pad(100 + rand(9900), 4)}-${pad(1 + rand(12))}-${pad(1 + rand(28))} ${pad(rand(24))}:${pad(rand(60))}:${pad(rand(60))}${frac}${off}`);
    }
  });
});
