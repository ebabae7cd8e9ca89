import { analyticsSettingsInputSchema } from '../../../shared/tenancy/tenancy-input.js';
import { ok200, pathParam, pick, ref, zodBody, type OpenApiFragment } from '../openapi/common.js';

/** OpenAPI fragment of the distribution analytics endpoints. */
const int32 = { type: 'integer', format: 'int32' } as const;
/**
 * Byte counts: the specification's table types them int32, but a CDN serves more than 2^31 bytes
 * in an hour (a single 6 GB response already). The field names and meaning are the
 * specification's; only the width is int64, so generated clients (Java, C#, Go) do not overflow.
 */
const bytes = {
  type: 'integer',
  format: 'int64',
  description: 'Response bytes. int64, not the int32 of the original table: real CDN windows exceed 2^31 bytes.',
} as const;
const group = ref('BucketGroup');
const ms = (what: string) => ({ ...int32, description: `${what}, in milliseconds (quantileTiming: exact below 1,024 ms, to 16 ms above; 0 without requests).` });
const serveTimes = { p50ServeTime: ms('Median serve time'), p95ServeTime: ms('95th percentile serve time'), p99ServeTime: ms('99th percentile serve time') };
const visitorsField = {
  ...int32,
  description: 'Distinct visitors: one IP address and user agent on one UTC day (a salted hash), so the figure of a longer span is the sum of its days\' (each exact up to 65,536 a day, estimated within about 1 % above).',
};

const schemas = {
  Bucket: { type: 'object', required: ['name', 'count'], properties: { name: { type: 'string' }, count: { ...int32, description: 'Requests.' } } },
  BucketGroup: {
    type: 'object',
    required: ['otherCount', 'buckets'],
    properties: {
      otherCount: { ...int32, description: 'Requests in the range not counted in the listed buckets.' },
      buckets: { type: 'array', items: ref('Bucket'), description: 'The TermCount (default 7) largest, most requests first.' },
    },
  },
  DistributionAnalytics: {
    type: 'object',
    required: ['averageServeTime', 'totalBytes', 'hits', 'misses', 'topReferers', 'aggregatesPerInterval'],
    properties: {
      averageServeTime: { ...int32, description: 'Average serve time on the CDN, in milliseconds (rounded).' },
      totalBytes: bytes,
      hits: { ...int32, description: 'Requests served from the CDN cache (HIT).' },
      misses: { ...int32, description: 'Requests that missed the cache (MISS); other cache results count in neither.' },
      topReferers: { ...group, description: 'Referring hosts; requests without a referer count in otherCount.' },
      aggregatesPerInterval: {
        type: 'array',
        description: 'Every interval of the range, zero-filled, oldest first.',
        items: {
          type: 'object',
          required: ['time', 'bytes', 'numberOfRequests', 'hits', 'misses', 'hitRatio', 'p50ServeTime', 'p95ServeTime', 'p99ServeTime', 'uniqueVisitors'],
          properties: {
            time: { type: 'string', format: 'date-time' },
            bytes,
            numberOfRequests: int32,
            hits: int32,
            misses: int32,
            hitRatio: { type: 'number', description: 'hits / (hits + misses), four decimals; 0 when neither.' },
            ...serveTimes,
            uniqueVisitors: visitorsField,
          },
        },
      },
      uniqueVisitors: visitorsField,
      botRequests: { ...int32, description: 'Requests whose user agent is a bot (the isbot list); 0 with excludeBots.' },
    },
  },
  StatusAnalytics: {
    type: 'object',
    required: ['statusClasses', 'statusCodes', 'clientErrorPaths', 'serverErrorPaths'],
    properties: {
      statusClasses: { ...group, description: '1xx to 5xx, every class listed.' },
      statusCodes: { ...group, description: 'Status codes, most requests first.' },
      clientErrorPaths: { ...group, description: 'Paths answered 4xx; otherCount: the other 4xx requests.' },
      serverErrorPaths: { ...group, description: 'Paths answered 5xx; otherCount: the other 5xx requests.' },
    },
  },
  BotAnalytics: {
    type: 'object',
    required: ['humanRequests', 'humanBytes', 'botRequests', 'botBytes', 'topBots'],
    properties: {
      humanRequests: int32,
      humanBytes: bytes,
      botRequests: { ...int32, description: '0 with excludeBots.' },
      botBytes: { ...bytes, description: '0 with excludeBots.' },
      topBots: { ...group, description: 'Bots by name: the product token of the user agent the bot list matched (Googlebot, bingbot, curl).' },
    },
  },
  RealtimeAnalytics: {
    type: 'object',
    required: ['from', 'numberOfRequests', 'bytes', 'perMinute'],
    properties: {
      from: { type: ['string', 'null'], format: 'date-time', description: 'Start of the first of the 30 minutes; the last is the current minute. null for an empty project or distribution id.' },
      numberOfRequests: int32,
      bytes,
      perMinute: {
        type: 'array',
        description: 'The last 30 minutes, zero-filled, oldest first. A batch shows here as soon as it is in ClickHouse (about a second after it was accepted).',
        items: {
          type: 'object',
          required: ['time', 'numberOfRequests', 'bytes', 'hits', 'misses', 'clientErrors', 'serverErrors', 'uniqueVisitors', 'p50ServeTime', 'p95ServeTime', 'p99ServeTime'],
          properties: {
            time: { type: 'string', format: 'date-time' },
            numberOfRequests: int32,
            bytes,
            hits: int32,
            misses: int32,
            clientErrors: { ...int32, description: '4xx answers.' },
            serverErrors: { ...int32, description: '5xx answers.' },
            uniqueVisitors: visitorsField,
            ...serveTimes,
          },
        },
      },
    },
  },
  ImageAnalytics: {
    type: 'object',
    required: ['requests', 'bytes', 'bytesSaved', 'assets', 'otherRequests', 'formats'],
    properties: {
      requests: { ...int32, description: "Requests for the organization's signed derivatives (/img/…) answered below 400." },
      bytes,
      bytesSaved: { ...bytes, description: "Requests × the original's size − the bytes served, over the assets still known." },
      assets: {
        type: 'array',
        description: 'The TermCount most requested assets.',
        items: {
          type: 'object',
          required: ['id', 'title', 'requests', 'bytes', 'originalBytes'],
          properties: {
            id: { type: 'string' },
            title: { type: ['string', 'null'], description: 'Title or file name; null for an asset no longer known.' },
            requests: int32,
            bytes,
            originalBytes: { type: ['integer', 'null'], format: 'int64', description: "The original's size; null for an asset no longer known." },
          },
        },
      },
      otherRequests: { ...int32, description: 'Image requests of the assets not listed.' },
      formats: {
        type: 'array',
        description: 'Every output format served, most requested first.',
        items: {
          type: 'object',
          required: ['format', 'requests', 'bytes', 'bytesSaved'],
          properties: { format: { type: 'string' }, requests: int32, bytes, bytesSaved: bytes },
        },
      },
    },
  },
  AnalyticsProject: {
    type: 'object',
    required: ['id', 'name', 'distributions'],
    properties: {
      id: { type: 'string', format: 'uuid' },
      name: { type: 'string' },
      distributions: {
        type: 'array',
        items: { type: 'object', required: ['id', 'name', 'hostnames'], properties: { id: { type: 'string' }, name: { type: 'string' }, hostnames: { type: 'array', items: { type: 'string' } } } },
      },
    },
  },
  EntryAnalytics: {
    type: 'object',
    required: ['requests', 'bytes', 'entries', 'otherRequests'],
    properties: {
      requests: { ...int32, description: "Requests whose path a site's URL patterns resolved to an entry when the line was ingested." },
      bytes,
      entries: {
        type: 'array',
        description: 'The TermCount most requested entries, most first (ties by id).',
        items: {
          type: 'object',
          required: ['id', 'model', 'title', 'requests', 'bytes', 'visitors'],
          properties: {
            id: { type: 'string' },
            model: { type: ['string', 'null'], description: 'Model alias; null for an entry deleted since.' },
            title: { type: ['string', 'null'], description: 'The title of its current version; null for an entry deleted since or without one.' },
            requests: int32,
            bytes,
            visitors: visitorsField,
          },
        },
      },
      otherRequests: { ...int32, description: 'Entry requests of the entries not listed.' },
    },
  },
  AnalyticsSettings: {
    type: 'object',
    required: ['clientIps'],
    properties: {
      clientIps: {
        type: 'string',
        enum: ['full', 'truncated', 'none'],
        description: 'What the raw CDN logs keep of client IPs: all, the network part (IPv4 without the last octet, IPv6 without the last 80 bits) or nothing.',
      },
    },
  },
  CampaignAnalytics: {
    type: 'object',
    required: ['sources', 'mediums', 'campaigns'],
    properties: {
      sources: { ...group, description: 'utm_source (else source, else ref) of the request query strings; requests without one count in otherCount.' },
      mediums: { ...group, description: 'utm_medium.' },
      campaigns: { ...group, description: 'utm_campaign.' },
    },
  },
  Change: {
    type: 'object',
    required: ['absolute', 'relative'],
    properties: {
      absolute: { type: 'number', description: 'This period − the previous one.' },
      relative: { type: ['number', 'null'], description: '(this − previous) / previous, four decimals; null where the previous figure is 0.' },
    },
  },
  GeoAnalytics: {
    type: 'object',
    required: ['continents', 'countries'],
    properties: {
      continents: { ...group, description: 'Continent codes AF AN AS EU NA OC SA; XX unknown.' },
      countries: { ...group, description: 'ISO 3166-1 alpha-2 codes; XX unknown.' },
    },
  },
};

const withGeo = (own: Record<string, unknown>) => ({
  type: 'object',
  required: [...Object.keys(own), 'continents', 'countries'],
  properties: { ...own, continents: group, countries: group },
});

export const parameters = [
  pathParam('projectId', { type: 'string', format: 'uuid' }, 'Empty → 200 with an empty result.'),
  pathParam('distributionId', { type: 'string' }, 'Empty → 200 with an empty result.'),
  { name: 'from', in: 'query', schema: { type: 'string', format: 'date-time' }, description: 'Start, inclusive. Default: to − 24 h.' },
  { name: 'to', in: 'query', schema: { type: 'string', format: 'date-time' }, description: 'End, exclusive. Default: now.' },
  {
    name: 'intervalType',
    in: 'query',
    schema: { ...int32, enum: [1, 2, 3, 4] },
    description:
      '1 hourly, 2 daily, 3 monthly, 4 by the minute (UTC; minutes for windows up to 48 h within the last 7 days). Absent: hourly up to 48 h, daily up to 92 days, else monthly.',
  },
  { name: 'excludeBots', in: 'query', schema: { type: 'boolean', default: false }, description: 'true: leave out requests whose user agent is a bot.' },
  { name: 'TermCount', in: 'query', schema: { ...int32, minimum: 1, maximum: 100, default: 7 }, description: 'Buckets per group; `termCount` is accepted too.' },
];

const text = (what: string) => ({ type: 'string', minLength: 1, maxLength: 200, description: what });
/** The filters every report takes: combined with AND; a bad value is a 400 naming the parameter. */
export const filterParameters = [
  { name: 'country', schema: { type: 'string', pattern: '^[A-Za-z]{2}$' }, description: 'ISO 3166-1 alpha-2 code (XX: unknown).' },
  { name: 'continent', schema: { type: 'string', enum: ['AF', 'AN', 'AS', 'EU', 'NA', 'OC', 'SA', 'XX'] }, description: 'Continent code.' },
  { name: 'device', schema: text('Device type as the device report names it (desktop, mobile, tablet, …).') },
  { name: 'browser', schema: text('Browser as the device report names it.') },
  { name: 'os', schema: text('Operating system as the device report names it.') },
  { name: 'path', schema: { type: 'string', pattern: '^/', maxLength: 2048 }, description: 'Exact path (without query string).' },
  { name: 'pathPrefix', schema: { type: 'string', pattern: '^/', maxLength: 2048 }, description: 'Paths starting with this.' },
  { name: 'pathPattern', schema: { type: 'string', pattern: '^/', maxLength: 2048 }, description: 'Paths matching this pattern: * any characters within one segment, ** any across segments, the rest literal (e.g. /blog/*, /docs/**.pdf).' },
  { name: 'referrer', schema: { type: 'string' }, description: 'Referring host, e.g. news.ycombinator.com.' },
  { name: 'status', schema: { type: 'string', pattern: '^[1-5]([0-9]{2}|xx)$' }, description: 'A status class (5xx) or code (404).' },
  { name: 'cacheStatus', schema: { type: 'string' }, description: 'HIT, MISS or another cache result as logged.' },
  { name: 'bot', schema: { type: 'boolean' }, description: 'true: bots only; false: humans only (read from the rollups, as excludeBots=true).' },
  { name: 'entry', schema: { type: 'string' }, description: 'Requests resolved to this entry id.' },
  { name: 'asset', schema: { type: 'string' }, description: 'Requests for image derivatives (/img/…) of this asset id.' },
  { name: 'utmSource', schema: text('utm_source (else source, else ref) of the query string.') },
  { name: 'utmMedium', schema: text('utm_medium of the query string.') },
  { name: 'utmCampaign', schema: text('utm_campaign of the query string.') },
].map((p) => ({ ...p, in: 'query' }));
export const compareParameter = {
  name: 'compare',
  in: 'query',
  schema: { type: 'string', pattern: '^(previous|[^/]+/[^/]+)$' },
  description:
    'previous: add `previous` (the same report over the period of the same length just before; for realtime, the 30 minutes before) and `change`. <from>/<to> (two ISO-8601 instants, e.g. 2026-01-01T00:00:00Z/2026-01-08T00:00:00Z): the same over that period, read with the report\'s interval (not for realtime).',
};

/**
 * A report's answer: with any filter or `compare`, `source` says where the figures came from;
 * with `compare=previous`, `previous` and `change` are added.
 */
const withExtras = (result: unknown) => ({
  allOf: [
    result,
    {
      type: 'object',
      properties: {
        source: {
          type: 'string',
          enum: ['rollup', 'raw'],
          description: 'With filters or compare: rollup (the pre-aggregated tables answered) or raw (the raw log lines were read: any filter but bot=false, and campaigns always).',
        },
        previous: { anyOf: [result, { type: 'null' }], description: 'compare: the same report over the previous or the given period (null for compare=previous on a window starting at 1970-01-01).' },
        change: {
          type: ['object', 'null'],
          additionalProperties: true,
          description:
            'compare: per numeric figure a Change; nested objects field by field; lists of named items (buckets, entries, assets) as objects keyed by name or id, for items listed in both periods. Per-interval lists are left out.',
        },
      },
    },
  ],
});

const op = (summary: string, result: unknown) => ({
  get: {
    'x-scope': 'analytics' as const,
    security: [{ bearerAuth: ['analytics'] }],
    tags: ['Analytics'],
    summary,
    parameters: [...parameters, ...filterParameters, compareParameter],
    responses: { 200: ok200(withExtras(result)), ...pick(400, 401, 403, 404, 429) },
  },
});

const base = '/api/v1/projects/{projectId}/distributions/{distributionId}/analytics';

export const analytics: OpenApiFragment = {
  schemas,
  paths: {
    [base]: op('Distribution analytics: totals, cache hits and misses, top referers, per-interval aggregates', ref('DistributionAnalytics')),
    [`${base}/geo`]: op('Requests by continent and country', ref('GeoAnalytics')),
    [`${base}/path`]: op('Requests by path (query strings dropped), with continents and countries', withGeo({ paths: group })),
    [`${base}/device`]: op(
      'Requests by device type, browser and operating system, with continents and countries',
      withGeo({ devices: group, browsers: group, operatingSystems: group }),
    ),
    [`${base}/referers`]: op('Requests by referring host, with continents and countries', withGeo({ referers: group })),
    [`${base}/status`]: op('Requests by status class and code, and the paths answered 4xx and 5xx', ref('StatusAnalytics')),
    [`${base}/bots`]: op('Bot and human requests and bytes, and the top bots', ref('BotAnalytics')),
    [`${base}/realtime`]: op('The last 30 minutes by the minute (from and to are ignored)', ref('RealtimeAnalytics')),
    [`${base}/assets`]: op('Image traffic per asset, and the bytes saved per output format', ref('ImageAnalytics')),
    [`${base}/campaigns`]: op('Requests by campaign: utm_source, utm_medium and utm_campaign of the request query strings (read from the raw lines)', ref('CampaignAnalytics')),
    [`${base}/entries`]: op("Traffic per entry: the paths a site's URL patterns name an entry by (PUT /management/v1/sites/{siteId}/url-patterns)", ref('EntryAnalytics')),
    '/api/v1/projects': {
      get: {
        'x-scope': 'analytics' as const,
        security: [{ bearerAuth: ['analytics'] }],
        tags: ['Analytics'],
        summary: "The organization's projects and their distributions: what an analytics token can report on (the dashboard's choice)",
        responses: { 200: ok200({ type: 'array', items: ref('AnalyticsProject') }), ...pick(401, 403, 429) },
      },
    },
    '/management/v1/analytics-settings': {
      get: {
        summary: 'What the raw CDN logs keep of client IP addresses',
        tags: ['management'],
        'x-scope': 'manage',
        responses: { 200: ok200(ref('AnalyticsSettings')), ...pick(401, 403, 429) },
      },
      put: {
        summary: 'Keep client IPs whole, truncated or not at all (batches accepted from now on)',
        description: 'Visitor keys and countries come from the whole address before it is cut, so no figure changes.',
        tags: ['management'],
        'x-scope': 'manage',
        requestBody: zodBody(analyticsSettingsInputSchema),
        responses: { 200: ok200(ref('AnalyticsSettings')), ...pick(400, 401, 403, 413, 429) },
      },
    },
  },
};
