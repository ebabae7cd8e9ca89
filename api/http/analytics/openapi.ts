import { ok200, pathParam, pick, ref, type OpenApiFragment } from '../openapi/common.js';

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
          required: ['time', 'bytes', 'numberOfRequests'],
          properties: { time: { type: 'string', format: 'date-time' }, bytes, numberOfRequests: int32 },
        },
      },
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

const parameters = [
  pathParam('projectId', { type: 'string', format: 'uuid' }, 'Empty → 200 with an empty result.'),
  pathParam('distributionId', { type: 'string' }, 'Empty → 200 with an empty result.'),
  { name: 'from', in: 'query', schema: { type: 'string', format: 'date-time' }, description: 'Start, inclusive. Default: to − 24 h.' },
  { name: 'to', in: 'query', schema: { type: 'string', format: 'date-time' }, description: 'End, exclusive. Default: now.' },
  {
    name: 'intervalType',
    in: 'query',
    schema: { ...int32, enum: [1, 2, 3] },
    description: '1 hourly, 2 daily, 3 monthly (UTC). Absent: hourly up to 48 h, daily up to 92 days, else monthly.',
  },
  { name: 'TermCount', in: 'query', schema: { ...int32, minimum: 1, maximum: 100, default: 7 }, description: 'Buckets per group; `termCount` is accepted too.' },
];

const op = (summary: string, result: unknown) => ({
  get: {
    'x-scope': 'analytics' as const,
    security: [{ bearerAuth: ['analytics'] }],
    tags: ['Analytics'],
    summary,
    parameters,
    responses: { 200: ok200(result), ...pick(400, 401, 403, 404, 429) },
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
  },
};
