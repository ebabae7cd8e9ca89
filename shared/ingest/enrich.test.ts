import { describe, expect, it } from 'vitest';
import { createEnricher, refererHost } from './enrich.js';
import type { LogRecord } from './record.js';

const base: LogRecord = {
  timestampMs: 1763632800000,
  clientIp: '',
  method: 'GET',
  host: 'cdn.example.com',
  path: '/',
  status: 200,
  bytes: 1,
  serveTimeMs: 1,
  cacheStatus: 'HIT',
  referer: '',
  userAgent: '',
};

describe('enrichment', () => {
  it('looks the country up in the shipped GeoIP database only when the record has none', async () => {
    const e = await createEnricher();
    expect(e.toRow({ ...base, clientIp: '8.8.8.8' }, 'o', 'd')).toMatchObject({ country: 'US', continent: 'NA' });
    expect(e.toRow({ ...base, clientIp: '8.8.8.8', country: 'JP' }, 'o', 'd')).toMatchObject({ country: 'JP', continent: 'AS' });
    expect(e.toRow({ ...base, clientIp: '10.0.0.1' }, 'o', 'd')).toMatchObject({ country: 'XX', continent: 'XX' });
    expect(e.toRow({ ...base, clientIp: 'not-an-ip' }, 'o', 'd')).toMatchObject({ country: 'XX', continent: 'XX' });
    expect(e.toRow({ ...base, country: 'AQ' }, 'o', 'd')).toMatchObject({ country: 'AQ', continent: 'AN' });
  });

  it('derives device, browser and OS from the user agent', async () => {
    const e = await createEnricher();
    const iphone =
      'Mozilla/5.0 (iPhone; CPU iPhone OS 17_5 like Mac OS X) AppleWebKit/605.1.15 (KHTML, like Gecko) Version/17.5 Mobile/15E148 Safari/604.1';
    expect(e.toRow({ ...base, userAgent: iphone }, 'o', 'd')).toMatchObject({ device: 'mobile', browser: 'Mobile Safari', os: 'iOS' });
    // the second lookup comes from the cache and must agree
    expect(e.toRow({ ...base, userAgent: iphone }, 'o', 'd')).toMatchObject({ device: 'mobile', browser: 'Mobile Safari', os: 'iOS' });
    expect(e.toRow({ ...base, userAgent: '' }, 'o', 'd')).toMatchObject({ device: 'unknown' });
  });

  it('keeps the referer host', () => {
    expect(refererHost('https://WWW.Google.com/search?q=1')).toBe('www.google.com');
    expect(refererHost('http://user@example.org:8080/x')).toBe('example.org');
    expect(refererHost('android-app://com.google.android.gm/')).toBe('com.google.android.gm');
    expect(refererHost('-')).toBe('');
    expect(refererHost('')).toBe('');
  });
});

describe('toTsv', () => {
  it('writes the same row as toRow, as a TabSeparated line', async () => {
    const { rowToTsv } = await import('./row-tsv.js');
    const e = await createEnricher();
    const r: LogRecord = { ...base, clientIp: '8.8.8.8', referer: 'https://t.co/x', userAgent: 'Mozilla/5.0 (X11; Linux x86_64; rv:132.0) Gecko/20100101 Firefox/132.0\tx' };
    expect(e.toTsv(r, 'o', 'd')).toBe(rowToTsv(e.toRow(r, 'o', 'd')));
    const cells = e.toTsv(r, 'o', 'd').split('\t');
    expect(cells).toHaveLength(19); // the tab inside the agent is escaped, not a separator
    expect(cells[13]).toBe('Mozilla/5.0 (X11; Linux x86_64; rv:132.0) Gecko/20100101 Firefox/132.0\\tx');
  });
});
