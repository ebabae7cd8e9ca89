import { describe, expect, it } from 'vitest';
import { campaignOf } from './campaign.js';
import { generateTraffic, ndjson, toAkamai, toCanonical, toCloudFrontRealtime, toCloudFrontStandard, toCloudflare, toFastly, toNginx } from '../../test/fixtures/cdn-logs/traffic.js';
import { parseBody } from './parse-body.js';

describe('campaign values of a query string', () => {
  it('reads the five utm values, source and ref as fallbacks of utm_source, decoded and trimmed', () => {
    expect(campaignOf('utm_source=news%20letter&utm_medium=email&utm_campaign=spring+sale&utm_term=shoes&utm_content=top')).toEqual({
      source: 'news letter',
      medium: 'email',
      campaign: 'spring sale',
      term: 'shoes',
      content: 'top',
    });
    expect(campaignOf('source=hn').source).toBe('hn');
    expect(campaignOf('ref=producthunt').source).toBe('producthunt');
    expect(campaignOf('ref=a&source=b&utm_source=c').source).toBe('c');
  });

  it('gives empty values without them, and cuts long or control-character values', () => {
    expect(campaignOf(undefined)).toEqual({ source: '', medium: '', campaign: '', term: '', content: '' });
    expect(campaignOf('page=2&sort=asc')).toEqual({ source: '', medium: '', campaign: '', term: '', content: '' });
    expect(campaignOf('xref=1').source).toBe('');
    expect(campaignOf(`utm_campaign=${'x'.repeat(500)}`).campaign).toHaveLength(200);
    expect(campaignOf('utm_source=a%0Ab').source).toBe('ab');
  });

  it('parsing keeps the query string out of the path and hands it over for the campaign', () => {
    const line = '203.0.113.9 - - [10/Oct/2026:13:55:36 +0000] "GET /pricing?utm_source=google&utm_medium=cpc HTTP/1.1" 200 512 "-" "curl/8"';
    const canonical = JSON.stringify({ timestamp: '2026-10-10T13:55:36Z', path: '/a?ref=hn#top', status: 200, bytes: 1 });
    const [combined] = parseBody(line, { retentionDays: 100_000 }).records;
    const [json] = parseBody(canonical, { retentionDays: 100_000 }).records;
    expect([combined.path, campaignOf(combined.query)]).toEqual(['/pricing', { source: 'google', medium: 'cpc', campaign: '', term: '', content: '' }]);
    expect([json.path, json.query, campaignOf(json.query).source]).toEqual(['/a', 'ref=hn', 'hn']);
  });

  it('every log format hands over the query string, and keeps it out of the path', () => {
    const now = Date.now();
    const [e] = generateTraffic({ count: 1, startMs: now - 60_000, spanMs: 1000, seed: 3 });
    const event = { ...e, path: '/pricing', query: 'utm_source=google&utm_campaign=spring%20sale' };
    const bodies: Record<string, string> = {
      canonical: ndjson([toCanonical(event)]),
      cloudflare: ndjson([toCloudflare(event)]),
      fastly: ndjson([toFastly(event)]),
      akamai: ndjson([toAkamai(event)]),
      cloudfront: toCloudFrontStandard([event]),
      cloudfrontRealtime: toCloudFrontRealtime([event]),
      nginx: toNginx([event]),
    };
    for (const [format, body] of Object.entries(bodies)) {
      const parsed = parseBody(body, { retentionDays: 30 });
      expect([format, parsed.records.length, parsed.records[0]?.path]).toEqual([format, 1, '/pricing']);
      expect([format, campaignOf(parsed.records[0].query).source, campaignOf(parsed.records[0].query).campaign]).toEqual([format, 'google', 'spring sale']);
    }
  });
});
