import { ok200, pagingParameters, pathParam, pick, ref, type OpenApiFragment } from '../openapi/common.js';

/** OpenAPI fragment for CDN log ingestion. */
const schemas = {
  DeadLetter: {
    type: 'object',
    required: ['id', 'distributionId', 'accepted', 'error', 'createdAt', 'failedAt'],
    properties: {
      id: { type: 'string', description: 'The batch id the push answered with (batchId).' },
      distributionId: { type: 'string' },
      accepted: { type: 'integer', description: 'Lines of the batch, none of them counted.' },
      error: { type: 'string', description: "ClickHouse's reason (first 500 characters)." },
      createdAt: { type: 'string', format: 'date-time', description: 'When the batch was accepted.' },
      failedAt: { type: 'string', format: 'date-time', description: 'When it was dead-lettered.' },
    },
  },
  IngestResult: {
    type: 'object',
    required: ['batchId', 'accepted', 'rejected', 'duplicate', 'errors'],
    properties: {
      batchId: { type: ['string', 'null'], description: 'Spool id of the batch; null for a destination check without log lines.' },
      accepted: { type: 'integer', description: 'Lines stored durably (queryable once a worker has inserted them).' },
      rejected: { type: 'integer', description: 'Lines that could not be read.' },
      duplicate: { type: 'boolean', description: 'The identical batch was accepted before; it is counted once.' },
      errors: {
        type: 'array',
        description: 'The first 20 rejected lines (1-based line number; item number for a JSON array).',
        items: { type: 'object', required: ['line', 'message'], properties: { line: { type: 'integer' }, message: { type: 'string' } } },
      },
    },
  },
};

const body = {
  required: true,
  description:
    'Log lines. Formats are recognized per line, whatever the content type: NDJSON or a JSON array of the canonical ' +
    'record {timestamp, clientIp, method, host, path, status, bytes, serveTimeMs, cacheStatus, referer, userAgent, country?}, ' +
    'Cloudflare Logpush http_requests, Fastly JSON logging, Akamai DataStream 2 JSON; text lines of CloudFront standard logs ' +
    '(with their #Version/#Fields header lines) or real-time logs, and nginx/Apache combined lines optionally followed by the ' +
    'request time and cache status. Content-Encoding gzip, zstd or deflate.',
  content: {
    'application/x-ndjson': { schema: { type: 'string' } },
    'application/json': { schema: { oneOf: [{ type: 'array', items: { type: 'object' } }, { type: 'object' }] } },
    'text/plain': { schema: { type: 'string' } },
  },
};

export const ingest: OpenApiFragment = {
  schemas,
  paths: {
    '/ingest/v1/distributions/{distributionId}/logs': {
      post: {
        'x-scope': 'ingest',
        security: [{ bearerAuth: ['ingest'] }],
        tags: ['Ingest'],
        summary: 'Push CDN access log lines for a distribution',
        description:
          'Answers 200 only once the batch is durable; workers insert it into ClickHouse. Resending an identical batch is ' +
          'safe (counted once). A batch without any valid line is 400. 503 with Retry-After when ingestion is backlogged.',
        parameters: [
          pathParam('distributionId', { type: 'string' }, "A distribution of the token's organization."),
          {
            name: 'fields',
            in: 'query',
            required: false,
            schema: { type: 'string' },
            description: 'CloudFront real-time logs: the selected field names, comma-separated, when not all fields are logged.',
          },
          { name: 'Content-Encoding', in: 'header', required: false, schema: { type: 'string', enum: ['gzip', 'zstd', 'deflate'] } },
        ],
        requestBody: body,
        responses: {
          200: ok200(ref('IngestResult')),
          ...pick(400, 401, 403, 404, 413, 415, 429, 503),
        },
      },
      head: {
        'x-scope': 'public',
        tags: ['Ingest'],
        summary: 'Health check for log shippers (Vector); always 200',
        security: [],
        parameters: [pathParam('distributionId')],
        responses: { 200: { description: 'OK' } },
      },
    },
    '/management/v1/ingest/dead-letters': {
      get: {
        'x-scope': 'manage',
        security: [{ bearerAuth: ['manage'] }],
        tags: ['Ingest'],
        summary: 'Accepted log batches ClickHouse refused',
        description:
          'Every field of a line is checked against its column when the line is accepted, so this list stays empty unless ' +
          'ClickHouse refuses rows for a reason the check cannot know. A refused group of batches is split and each batch ' +
          'inserted alone; a batch refused alone is kept here with the reason, never retried, and holds no other batch back.',
        parameters: pagingParameters,
        responses: { 200: ok200({ type: 'array', items: ref('DeadLetter') }, true), ...pick(400, 401, 403, 429) },
      },
    },
    '/.well-known/fastly/logging/challenge': {
      get: {
        'x-scope': 'public',
        tags: ['Ingest'],
        summary: "Fastly HTTPS logging's endpoint challenge",
        description: 'Answers "*": any Fastly service may send here; the bearer token still guards each push.',
        security: [],
        responses: { 200: { description: 'OK', content: { 'text/plain': { schema: { type: 'string' } } } } },
      },
    },
  },
};
