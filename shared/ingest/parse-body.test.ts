import { describe, expect, it } from 'vitest';
import { normalizeCacheStatus } from './cache-status.js';
import { parseBody } from './parse-body.js';

// Realistic single records of each vendor, written from the vendors' documented field names.
describe('parseBody: one record per recognized field set', () => {
  it('reads the canonical field set', () => {
    const body =
      '{"timestamp":"2026-11-20T10:15:30.250Z","clientIp":"203.0.113.7","method":"get","host":"CDN.example.com","path":"/img/a.jpg?w=200","status":200,"bytes":5120,"serveTimeMs":12,"cacheStatus":"hit","referer":"https://www.google.com/","userAgent":"curl/8.5.0","country":"nl"}\n';
    const { records, rejected } = parseBody(body);
    expect(rejected).toBe(0);
    expect(records).toEqual([
      {
        timestampMs: Date.parse('2026-11-20T10:15:30.250Z'),
        clientIp: '203.0.113.7',
        method: 'GET',
        host: 'cdn.example.com',
        path: '/img/a.jpg',
        query: 'w=200',
        status: 200,
        bytes: 5120,
        serveTimeMs: 12,
        cacheStatus: 'HIT',
        referer: 'https://www.google.com/',
        userAgent: 'curl/8.5.0',
        country: 'NL',
      },
    ]);
  });

  it('serveTime in seconds (nginx $request_time) is read as milliseconds; a fraction in serveTimeMs is a line error, not a rounded 0', () => {
    const line = (timing: string) => `{"timestamp":"${new Date().toISOString()}","clientIp":"203.0.113.7","method":"GET","host":"h","path":"/","status":200,"bytes":1,${timing}}`;
    const body = [line('"serveTime":0.123'), line('"serveTime":"2.5"'), line('"serveTimeMs":0.123'), line('"serveTimeMs":"12"')].join('\n');
    const parsed = parseBody(body);
    expect(parsed.records.map((r) => r.serveTimeMs)).toEqual([123, 2500, 12]);
    expect(parsed.errors).toEqual([{ line: 3, message: 'serveTimeMs: must be whole milliseconds (send seconds with a fraction as serveTime)' }]);
  });

  it('reads Cloudflare Logpush http_requests (rfc3339 timestamps, no TTFB field)', () => {
    const line = JSON.stringify({
      ClientCountry: 'de',
      ClientIP: '198.51.100.23',
      ClientRequestHost: 'www.example.com',
      ClientRequestMethod: 'GET',
      ClientRequestURI: '/articles/launch?utm_source=x',
      ClientRequestReferer: '',
      ClientRequestUserAgent: 'Mozilla/5.0',
      EdgeEndTimestamp: '2026-11-20T10:00:01Z',
      EdgeResponseBytes: 69045,
      EdgeResponseStatus: 200,
      EdgeStartTimestamp: '2026-11-20T10:00:00Z',
      CacheCacheStatus: 'dynamic',
      RayID: '8e1f2a3b4c5d6e7f',
    });
    const [r] = parseBody(line).records;
    expect(r).toMatchObject({
      timestampMs: Date.parse('2026-11-20T10:00:00Z'),
      path: '/articles/launch',
      status: 200,
      bytes: 69045,
      serveTimeMs: 1000,
      cacheStatus: 'DYNAMIC',
      country: 'DE',
      referer: '',
    });
  });

  it('reads Fastly JSON logging (time_elapsed in µs, strftime %z timestamp)', () => {
    const line =
      '{"timestamp":"2026-11-20T10:00:00+0000","time_elapsed":15320,"client_ip":"192.0.2.10","geo_country_code":"JP","host":"media.example.com","url":"/video/intro.m3u8","request_method":"GET","request_referer":"https://t.co/abc","request_user_agent":"VLC/3.0.20","response_state":"HIT-CLUSTER","response_status":206,"response_body_size":1048576}';
    const [r] = parseBody(line).records;
    expect(r).toMatchObject({
      timestampMs: Date.parse('2026-11-20T10:00:00Z'),
      serveTimeMs: 15,
      cacheStatus: 'HIT',
      status: 206,
      bytes: 1048576,
      country: 'JP',
      host: 'media.example.com',
    });
  });

  it('reads Akamai DataStream 2 JSON (string values, URL-encoded agent)', () => {
    const line =
      '{"version":"1","cp":"123456","reqId":"1239f220","reqTimeSec":"1763632800.512","bytes":"4995","cliIP":"192.0.2.44","statusCode":"200","proto":"HTTPS","reqHost":"www.example.com","reqMethod":"GET","reqPath":"/css/site.css","reqPort":"443","UA":"Mozilla%2F5.0%20(Macintosh)","turnAroundTimeMSec":"11","transferTimeMSec":"4","cacheStatus":"1","country":"FR"}';
    const [r] = parseBody(line).records;
    expect(r).toMatchObject({
      timestampMs: 1763632800512,
      userAgent: 'Mozilla/5.0 (Macintosh)',
      serveTimeMs: 15,
      cacheStatus: 'HIT',
      country: 'FR',
      bytes: 4995,
    });
  });

  it('reads a CloudFront standard log with its header lines', () => {
    const body = [
      '#Version: 1.0',
      '#Fields: date time x-edge-location sc-bytes c-ip cs-method cs(Host) cs-uri-stem sc-status cs(Referer) cs(User-Agent) cs-uri-query cs(Cookie) x-edge-result-type x-edge-request-id x-host-header cs-protocol cs-bytes time-taken',
      '2026-11-20\t10:00:05\tSFO5-C1\t2390\t192.0.2.100\tGET\td111111abcdef8.cloudfront.net\t/index.html\t200\t-\tMozilla/5.0%20(Windows%20NT%2010.0)\t-\t-\tRefreshHit\tSOX4xwn4XV6Q4==\twww.example.com\thttps\t412\t0.025',
    ].join('\n');
    const out = parseBody(body);
    expect(out.rejected).toBe(0);
    expect(out.records[0]).toMatchObject({
      timestampMs: Date.parse('2026-11-20T10:00:05Z'),
      host: 'www.example.com',
      path: '/index.html',
      serveTimeMs: 25,
      cacheStatus: 'HIT',
      userAgent: 'Mozilla/5.0 (Windows NT 10.0)',
      referer: '',
    });
  });

  it('reads nginx combined lines with and without request time and cache status', () => {
    const body = [
      '203.0.113.9 - - [20/Nov/2026:11:00:00 +0100] "GET /a.jpg?x=1 HTTP/1.1" 200 1234 "https://www.bing.com/" "Mozilla/5.0 \\"quoted\\"" 0.042 MISS',
      '203.0.113.9 - alice [20/Nov/2026:10:00:01 +0000] "POST /api HTTP/2.0" 201 - "-" "-"',
    ].join('\n');
    const { records, rejected } = parseBody(body);
    expect(rejected).toBe(0);
    expect(records[0]).toMatchObject({
      timestampMs: Date.parse('2026-11-20T10:00:00Z'),
      path: '/a.jpg',
      serveTimeMs: 42,
      cacheStatus: 'MISS',
      userAgent: 'Mozilla/5.0 "quoted"',
    });
    expect(records[1]).toMatchObject({ method: 'POST', bytes: 0, serveTimeMs: 0, cacheStatus: '', referer: '', userAgent: '' });
  });

  it('decodes the \\xHH escapes of nginx combined lines into the UTF-8 text they stand for (path, referrer, user agent)', () => {
    // nginx escapes ", \ and bytes outside 0x20–0x7E as \xHH in its log lines
    const body = String.raw`203.0.113.9 - - [20/Nov/2026:11:00:00 +0100] "GET /caf\xC3\xA9?q=\x22 HTTP/1.1" 200 12 "https://b\xC3\xBCcher.example/\x5Cx" "Agent \x22quotes\x22 \xE2\x9C\x93 \xFF"`;
    const { records, rejected } = parseBody(body);
    expect(rejected).toBe(0);
    expect(records[0]).toMatchObject({ path: '/café', referer: 'https://bücher.example/\\x', userAgent: 'Agent "quotes" ✓ \uFFFD' });
  });

  it('refuses a fractional byte count instead of rounding it (bytes is an integer)', () => {
    const line = (bytes: unknown) => JSON.stringify({ timestamp: '2026-11-20T10:15:30Z', path: '/a', status: 200, bytes });
    const out = parseBody([line(1.5), line('2.5'), line(2048), line('4096')].join('\n'));
    expect(out.errors).toEqual([
      { line: 1, message: 'bytes: must be a whole number' },
      { line: 2, message: 'bytes: must be a whole number' },
    ]);
    expect(out.records.map((r) => r.bytes)).toEqual([2048, 4096]);
  });

  it('reads a JSON array and numbers errors by item', () => {
    const body = JSON.stringify([
      { timestamp: 1763632800, path: '/', status: 200 },
      { timestamp: 'yesterday', path: '/', status: 200 },
      { hello: 'world' },
    ]);
    const out = parseBody(body);
    expect(out.records).toHaveLength(1);
    expect(out.records[0].timestampMs).toBe(1763632800000);
    expect(out.errors).toEqual([
      { line: 2, message: 'timestamp: not a valid timestamp' },
      { line: 3, message: 'unrecognized fields: expected the canonical set or a Cloudflare, Fastly or Akamai record' },
    ]);
  });

  it('reports malformed lines with their line numbers and keeps the good ones', () => {
    const body = [
      '{"timestamp":"2026-11-20T10:00:00Z","path":"/ok","status":200}',
      '{"timestamp":"2026-11-20T10:00:00Z","path":"/bad-status","status":999}',
      '',
      '{not json',
      'garbage line',
      '{"timestamp":"2026-11-20T10:00:00Z","path":"/ok2","status":"304"}',
    ].join('\n');
    const out = parseBody(body);
    expect(out.records.map((r) => r.path)).toEqual(['/ok', '/ok2']);
    expect(out.rejected).toBe(3);
    expect(out.errors).toEqual([
      { line: 2, message: 'status: not an HTTP status' },
      { line: 4, message: 'invalid JSON' },
      { line: 5, message: 'not a recognized log line (JSON, CloudFront or nginx/Apache combined)' },
    ]);
  });

  it('recognizes the Cloudflare Logpush destination check', () => {
    const out = parseBody('{"content":"tests"}');
    expect(out).toMatchObject({ validationProbe: true, records: [], rejected: 0 });
  });
});

describe('normalizeCacheStatus', () => {
  it.each([
    ['hit', 'HIT'],
    ['RefreshHit', 'HIT'],
    ['stale', 'HIT'],
    ['revalidated', 'HIT'],
    ['HIT-STALE', 'HIT'],
    ['1', 'HIT'],
    ['Miss', 'MISS'],
    ['expired', 'MISS'],
    ['0', 'MISS'],
    ['bypass', 'BYPASS'],
    ['PASS', 'PASS'],
    ['-', ''],
  ])('%s → %s', (raw, expected) => {
    expect(normalizeCacheStatus(raw)).toBe(expected);
  });
});

describe('parseBody: shippers that wrap raw lines', () => {
  it("reads Fluent Bit's {log} and Vector's {message} envelopes, CloudFront headers included", () => {
    const body = [
      JSON.stringify({ date: 1763632800.1, log: '203.0.113.9 - - [20/Nov/2026:10:00:00 +0000] "GET /a HTTP/1.1" 200 10 "-" "curl/8" 0.010 HIT' }),
      JSON.stringify({ log: '#Fields: date time sc-bytes c-ip cs-method cs-uri-stem sc-status x-edge-result-type time-taken' }),
      JSON.stringify({ log: '2026-11-20\t10:00:01\t99\t192.0.2.1\tGET\t/b\t200\tMiss\t0.002\n' }),
      JSON.stringify({ message: '{"timestamp":"2026-11-20T10:00:02Z","path":"/c","status":404}', host: 'web-1', source_type: 'file' }),
      JSON.stringify({ log: 'garbage' }),
    ].join('\n');
    const out = parseBody(body);
    expect(out.records.map((r) => [r.path, r.cacheStatus, r.serveTimeMs])).toEqual([
      ['/a', 'HIT', 10],
      ['/b', 'MISS', 2],
      ['/c', '', 0],
    ]);
    expect(out.errors).toEqual([{ line: 5, message: 'not a recognized log line (JSON, CloudFront or nginx/Apache combined)' }]);
  });
});

describe('parseBody: CloudFront standard lines without their header', () => {
  it('assumes the standard field order for dated lines when no #Fields line came with the batch', () => {
    const line =
      '2026-11-20\t10:00:05\tSFO5-C1\t2390\t192.0.2.100\tGET\td111111abcdef8.cloudfront.net\t/index.html\t200\thttps://www.bing.com/\tcurl/8\t-\t-\tHit\tSOX4==\twww.example.com\thttps\t412\t0.004\t-\tTLSv1.3\tTLS_AES_128_GCM_SHA256\tHit\tHTTP/2.0\t-\t-\t443\t0.004\tHit\ttext/html\t2390\t-\t-';
    const [r] = parseBody(line).records;
    expect(r).toMatchObject({ host: 'www.example.com', path: '/index.html', status: 200, bytes: 2390, serveTimeMs: 4, cacheStatus: 'HIT', referer: 'https://www.bing.com/' });
  });
});

describe('parseBody: Logstash json_batch', () => {
  it('reads an array of events wrapping raw lines in `message`', () => {
    const body = JSON.stringify([
      { '@timestamp': '2026-11-20T10:00:00.000Z', host: { name: 'web-1' }, message: '203.0.113.9 - - [20/Nov/2026:10:00:00 +0000] "GET /x HTTP/1.1" 200 10 "-" "curl/8"' },
      { '@timestamp': '2026-11-20T10:00:01.000Z', message: 'oops' },
    ]);
    const out = parseBody(body);
    expect(out.records.map((r) => r.path)).toEqual(['/x']);
    expect(out.errors).toEqual([{ line: 2, message: 'not a recognized log line (JSON, CloudFront or nginx/Apache combined)' }]);
  });
});
