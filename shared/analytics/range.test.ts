import { describe, expect, it } from 'vitest';
import { intervalStarts, parseAnalyticsQuery } from './range.js';
import { splitRange } from './split-range.js';

const H = 3_600_000;
const now = Date.parse('2026-11-21T06:30:00Z');

describe('parseAnalyticsQuery', () => {
  it('defaults to the last 24 hours, hourly, 7 buckets', () => {
    expect(parseAnalyticsQuery({}, now)).toEqual({ fromMs: now - 24 * H, toMs: now, interval: 'hour', termCount: 7, excludeBots: false });
  });

  it('chooses the interval from the span when none is given', () => {
    const q = (from: string, to: string) => parseAnalyticsQuery({ from, to }, now).interval;
    expect(q('2026-11-01T00:00:00Z', '2026-11-03T00:00:00Z')).toBe('hour'); // 48 h
    expect(q('2026-11-01T00:00:00Z', '2026-11-03T00:00:01Z')).toBe('day');
    expect(q('2026-08-01T00:00:00Z', '2026-11-01T00:00:00Z')).toBe('day'); // 92 days
    expect(q('2026-08-01T00:00:00Z', '2026-11-01T00:00:01Z')).toBe('month');
  });

  it('reads intervalType, TermCount and termCount, offsets and bare dates', () => {
    const r = parseAnalyticsQuery({ from: '2026-11-01', to: '2026-11-02T02:00:00+02:00', intervalType: '3', termCount: '12' }, now);
    expect(r).toEqual({ fromMs: Date.parse('2026-11-01T00:00:00Z'), toMs: Date.parse('2026-11-02T00:00:00Z'), interval: 'month', termCount: 12, excludeBots: false });
    expect(parseAnalyticsQuery({ TermCount: '100' }, now).termCount).toBe(100);
  });

  it('reads excludeBots, and minutes for windows of up to 48 hours within the last 7 days', () => {
    expect(parseAnalyticsQuery({ excludeBots: 'true' }, now).excludeBots).toBe(true);
    expect(parseAnalyticsQuery({ excludeBots: 'false' }, now).excludeBots).toBe(false);
    expect(parseAnalyticsQuery({ intervalType: '4' }, now)).toMatchObject({ fromMs: now - 24 * H, interval: 'minute' });
    expect(parseAnalyticsQuery({ intervalType: '4', from: '2026-11-19T06:30:00Z', to: '2026-11-21T06:30:00Z' }, now).interval).toBe('minute');
    // the interval is never chosen by the minute on its own
    expect(parseAnalyticsQuery({ from: '2026-11-21T06:00:00Z', to: '2026-11-21T06:30:00Z' }, now).interval).toBe('hour');
  });

  it.each([
    [{ intervalType: '0' }],
    [{ intervalType: '1.5' }],
    [{ intervalType: '5' }],
    [{ intervalType: '4', from: '2026-11-19T06:29:59Z', to: '2026-11-21T06:30:00Z' }], // 48 h and a second
    [{ intervalType: '4', from: '2026-11-14T06:29:00Z', to: '2026-11-14T07:00:00Z' }], // before the 7 days minutes are kept
    [{ excludeBots: 'yes' }],
    [{ excludeBots: ['true', 'true'] }],
    [{ TermCount: '-1' }],
    [{ from: '2026-11-31T00:00:00Z' }],
    [{ from: '2026-11-01T24:00:00Z' }],
    [{ from: ['2026-11-01', '2026-11-02'] }],
    // outside what a log timestamp can be (ClickHouse answered 500 for these)
    [{ from: '1960-01-01T00:00:00Z', to: '1960-01-02T00:00:00Z' }],
    [{ from: '0000-01-01', to: '0000-01-02' }],
    [{ from: '1969-12-31T23:59:59Z' }],
    [{ from: '2106-01-02' }],
  ])('refuses %j', (query) => {
    expect(() => parseAnalyticsQuery(query, now)).toThrow(expect.objectContaining({ status: 400 }));
  });
});

it('takes a window from the first second of 1970', () => {
  expect(parseAnalyticsQuery({ from: '1970-01-01', to: '1970-01-02' }, now)).toMatchObject({ fromMs: 0, toMs: 24 * H });
});

describe('intervalStarts', () => {
  it('covers the window from the interval holding its start', () => {
    expect(intervalStarts({ fromMs: Date.parse('2026-01-31T10:00:00Z'), toMs: Date.parse('2026-03-01T00:00:00Z'), interval: 'month' }).map((t) => new Date(t).toISOString())).toEqual([
      '2026-01-01T00:00:00.000Z',
      '2026-02-01T00:00:00.000Z',
    ]);
  });
});

describe('splitRange', () => {
  const D = 24 * H;
  it('without subtraction (states), reads a day the window mostly covers as hours', () => {
    expect(splitRange(D + 2 * H + 5, 3 * D + 22 * H, { days: true, subtract: false })).toEqual({
      days: [{ fromMs: 2 * D, toMs: 3 * D }],
      hours: [
        { fromMs: D + 3 * H, toMs: 2 * D },
        { fromMs: 3 * D, toMs: 3 * D + 22 * H },
      ],
      minusHours: [],
      edges: [{ fromMs: D + 2 * H + 5, toMs: D + 3 * H }],
    });
  });

  it('reads whole days, then whole hours, then the ragged ends from raw rows', () => {
    expect(splitRange(D + 14 * H + 5, 4 * D + 9 * H + 7)).toEqual({
      days: [{ fromMs: 2 * D, toMs: 4 * D }],
      hours: [
        { fromMs: D + 15 * H, toMs: 2 * D },
        { fromMs: 4 * D, toMs: 4 * D + 9 * H },
      ],
      minusHours: [],
      edges: [
        { fromMs: D + 14 * H + 5, toMs: D + 15 * H },
        { fromMs: 4 * D + 9 * H, toMs: 4 * D + 9 * H + 7 },
      ],
    });
    expect(splitRange(D, 3 * D)).toEqual({ days: [{ fromMs: D, toMs: 3 * D }], hours: [], minusHours: [], edges: [] });
  });

  it('reads a day the window covers most of whole, minus its hours outside the window', () => {
    // 13 whole hours of the first day and 13 of the last: each day whole, minus its other 11
    expect(splitRange(D + 10 * H + 5, 4 * D + 13 * H + 7)).toEqual({
      days: [{ fromMs: D, toMs: 5 * D }],
      hours: [],
      minusHours: [
        { fromMs: D, toMs: D + 11 * H },
        { fromMs: 4 * D + 13 * H, toMs: 5 * D },
      ],
      edges: [
        { fromMs: D + 10 * H + 5, toMs: D + 11 * H },
        { fromMs: 4 * D + 13 * H, toMs: 4 * D + 13 * H + 7 },
      ],
    });
    // 12 whole hours are read as hours; a window inside one day, 20 whole hours of it
    expect(splitRange(2 * D - 12 * H, 3 * D + 12 * H).minusHours).toEqual([]);
    expect(splitRange(D + H + 9, D + 22 * H)).toEqual({
      days: [{ fromMs: D, toMs: 2 * D }],
      hours: [],
      minusHours: [
        { fromMs: D, toMs: D + 2 * H },
        { fromMs: D + 22 * H, toMs: 2 * D },
      ],
      edges: [{ fromMs: D + H + 9, toMs: D + 2 * H }],
    });
  });

  it('counts every instant of the window once and nothing outside it', () => {
    const M = 60_000;
    const covers = (s: ReturnType<typeof splitRange>, t: number) => {
      const n = (spans: Array<{ fromMs: number; toMs: number }>) => spans.filter((x) => x.fromMs <= t && t < x.toMs).length;
      return n(s.days) + n(s.hours) + n(s.edges) - n(s.minusHours);
    };
    let seed = 7;
    const next = () => (seed = (seed * 48271) % 2147483647);
    for (let i = 0; i < 150; i++) {
      const from = (next() % (4 * 24 * 60)) * M + (next() % 3) * 17_000;
      const to = from + (next() % (3 * 24 * 60)) * M + 1;
      for (const days of [true, false]) {
        const s = splitRange(from, to, { days });
        for (let t = from - D - (from % M); t < to + D; t += 20 * M) expect(covers(s, t), `${from}..${to} at ${t}`).toBe(t >= from && t < to ? 1 : 0);
        expect(covers(s, from)).toBe(1);
        expect(covers(s, to - 1)).toBe(1);
        expect(covers(s, to)).toBe(0);
      }
    }
  });

  it('falls back to hours and raw rows when no whole day (or no days level) fits', () => {
    expect(splitRange(10 * H + 5, 13 * H + 7)).toEqual({
      days: [],
      hours: [{ fromMs: 11 * H, toMs: 13 * H }],
      minusHours: [],
      edges: [
        { fromMs: 10 * H + 5, toMs: 11 * H },
        { fromMs: 13 * H, toMs: 13 * H + 7 },
      ],
    });
    expect(splitRange(D, 3 * D, { days: false })).toEqual({ days: [], hours: [{ fromMs: D, toMs: 3 * D }], minusHours: [], edges: [] });
    expect(splitRange(D + 10 * H + 5, 4 * D + 13 * H + 7, { days: false }).minusHours).toEqual([]);
    expect(splitRange(10 * H + 5, 10 * H + 9)).toEqual({ days: [], hours: [], minusHours: [], edges: [{ fromMs: 10 * H + 5, toMs: 10 * H + 9 }] });
    expect(splitRange(10 * H + 5, 11 * H + 9)).toEqual({ days: [], hours: [], minusHours: [], edges: [{ fromMs: 10 * H + 5, toMs: 11 * H + 9 }] });
  });
});
