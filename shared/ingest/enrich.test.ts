import { describe, expect, it } from 'vitest';
import { botName, createEnricher, refererHost, storedClientIp } from './enrich.js';
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

describe('client IPs as stored', () => {
  it('keeps the network part: IPv4 without the last octet, IPv6 its first 48 bits', () => {
    expect(storedClientIp('203.0.113.77', 'truncated')).toBe('203.0.113.0');
    expect(storedClientIp('2001:db8:85a3:8d3:1319:8a2e:370:7348', 'truncated')).toBe('2001:db8:85a3::');
    expect(storedClientIp('2001:db8::1', 'truncated')).toBe('2001:db8:0::');
    expect(storedClientIp('::1', 'truncated')).toBe('0:0:0::');
    expect(storedClientIp('::ffff:192.0.2.128', 'truncated')).toBe('::ffff:192.0.2.0');
    expect(storedClientIp('::FFFF:192.0.2.128', 'truncated')).toBe('::FFFF:192.0.2.0');
    expect(storedClientIp('fe80::1%eth0', 'truncated')).toBe('fe80:0:0::');
    expect(storedClientIp('not-an-ip', 'truncated')).toBe('');
    expect(storedClientIp('203.0.113.77', 'none')).toBe('');
    expect(storedClientIp('203.0.113.77', 'full')).toBe('203.0.113.77');
  });
});

describe('bots', () => {
  it('names a bot by the product token the list matched, without its version', async () => {
    expect(botName('Mozilla/5.0 (compatible; bingbot/2.0; +http://www.bing.com/bingbot.htm)', 'bot')).toBe('bingbot');
    expect(botName('Mozilla/5.0 (compatible; Googlebot/2.1; +http://www.google.com/bot.html)', 'Google')).toBe('Googlebot');
    expect(botName('python-requests/2.31', 'python-requests/2.31')).toBe('python-requests');
    const e = await createEnricher();
    expect(e.toRow({ ...base, userAgent: 'curl/8.5.0' }, 'o', 'd')).toMatchObject({ is_bot: 1, bot_name: 'curl' });
    expect(e.toRow({ ...base, userAgent: 'Mozilla/5.0 (X11; Linux x86_64; rv:132.0) Gecko/20100101 Firefox/132.0' }, 'o', 'd')).toMatchObject({ is_bot: 0, bot_name: '' });
  });
});

describe('toTsv', () => {
  it('writes the same row as toRow, as a TabSeparated line', async () => {
    const { rowToTsv } = await import('./row-tsv.js');
    const e = await createEnricher();
    const r: LogRecord = { ...base, clientIp: '8.8.8.8', referer: 'https://t.co/x', userAgent: 'Mozilla/5.0 (X11; Linux x86_64; rv:132.0) Gecko/20100101 Firefox/132.0\tx' };
    expect(e.toTsv(r, 'o', 'd')).toBe(rowToTsv(e.toRow(r, 'o', 'd')));
    const cells = e.toTsv(r, 'o', 'd').split('\t');
    expect(cells).toHaveLength(28); // the tab inside the agent is escaped, not a separator
    expect(cells[13]).toBe('Mozilla/5.0 (X11; Linux x86_64; rv:132.0) Gecko/20100101 Firefox/132.0\\tx');
    expect(e.toTsv(r, 'o', 'd', undefined, 'entry-1').split('\t')[22]).toBe('entry-1');
    expect(e.toRow(r, 'o', 'd', undefined, 'entry-1').entry_id).toBe('entry-1');
    // campaign values of the query string, in the last five columns
    const tagged: LogRecord = { ...r, query: 'utm_source=news&utm_medium=email&utm_campaign=spring&utm_term=t&utm_content=c' };
    expect(e.toTsv(tagged, 'o', 'd').split('\t').slice(23)).toEqual(['news', 'email', 'spring', 't', 'c']);
    expect(e.toTsv(tagged, 'o', 'd')).toBe(rowToTsv(e.toRow(tagged, 'o', 'd')));
  });
});

describe('visitor keys', () => {
  it('gives a visitor one key per day and distribution, whether worked out afresh or remembered within a batch', async () => {
    const { createHash } = await import('node:crypto');
    const e = await createEnricher();
    const salts = new Map([[0, Buffer.alloc(32, 1)], [1, Buffer.alloc(32, 2)]]);
    const saltFor = (ms: number) => salts.get(Math.floor((ms - base.timestampMs) / 86_400_000))!;
    // an independent key: 64 bits of SHA-256 over salt, IP, agent and distribution
    const expected = (salt: Buffer, ip: string, ua: string, d: string) =>
      createHash('sha256').update(salt).update(`${ip}\0${ua}\0${d}`).digest().readBigUInt64BE(0).toString();
    const batch = { clientIps: 'full' as const, saltFor };
    const lines: Array<[number, string, string, string]> = [
      [0, '8.8.8.8', 'a', 'd'],
      [0, '8.8.8.8', 'a', 'd'], // the same visitor again: remembered
      [0, '8.8.8.8', 'b', 'd'],
      [0, '8.8.4.4', 'a', 'd'],
      [0, '8.8.8.8', 'a', 'other'],
      [1, '8.8.8.8', 'a', 'd'], // the next day: its own salt
    ];
    for (const [day, ip, ua, d] of lines) {
      const r = { ...base, timestampMs: base.timestampMs + day * 86_400_000 + 5_000, clientIp: ip, userAgent: ua };
      const want = expected(salts.get(day)!, ip, ua, d);
      expect(e.toRow(r, 'o', d, batch).visitor).toBe(want);
      expect(e.toRow(r, 'o', d, { ...batch }).visitor).toBe(want); // a fresh batch works it out anew
    }
  });
});
