import { deliverySettingsPatchSchema, persistedDocumentsInputSchema, purgeTargetInputSchema, purgeTargetPatchSchema } from '../../../shared/edge/edge-input.js';
import { created201, ok200, pagingParameters, pathParam, pick, ref, zodBody, type OpenApiFragment } from '../openapi/common.js';

const dateTime = { type: 'string', format: 'date-time' };
const nullable = (type: string, extra: object = {}) => ({ type: [type, 'null'], ...extra });
const tags = ['edge'];
const id = pathParam('id', { type: 'string' });

export const edge: OpenApiFragment = {
  schemas: {
    DeliverySettings: {
      type: 'object',
      properties: {
        cacheMaxAge: { type: 'integer', description: 'Cache-Control max-age (seconds) of GraphQL GET delivery answers' },
        cacheStaleWhileRevalidate: { type: 'integer', description: 'Cache-Control stale-while-revalidate (seconds)' },
        trustedDocuments: { type: 'boolean', description: 'Delivery runs only registered documents (preview runs anything)' },
        publishableImageSizes: {
          type: ['object', 'null'],
          description: "Sizes a publishable key's image derivatives may have (null: any). Outside them the URL field is a FORBIDDEN error and no URL is signed.",
          properties: {
            maxWidth: { type: 'integer', minimum: 1, maximum: 8192, description: 'The widest output (after dpr, presets and the aspect ratio)' },
            maxHeight: { type: 'integer', minimum: 1, maximum: 8192, description: 'The tallest output' },
            widths: { type: 'array', items: { type: 'integer', minimum: 1, maximum: 8192 }, description: 'The only widths a derivative may name (after dpr); one without a width is refused' },
          },
        },
        publishableImagePresets: {
          type: ['array', 'null'],
          items: { type: 'string' },
          description: 'The presets every derivative of a publishable key must name (null: any or none; []: originals only). On top of a preset only imageFormat and the focal point may be added, sizes only within publishableImageSizes.',
        },
        imageWatermark: {
          type: ['object', 'null'],
          description:
            "An image asset of the organization drawn over every derivative whose transformation and preset name no overlay (null: none); an image's url is then a derivative even without a transformation. Setting it needs asset edit rights besides the models settings.",
          properties: {
            assetId: { type: 'string' },
            gravity: { type: 'string', enum: ['NORTH', 'SOUTH', 'EAST', 'WEST', 'NORTH_EAST', 'NORTH_WEST', 'SOUTH_EAST', 'SOUTH_WEST', 'CENTER'] },
            opacity: { type: 'number', exclusiveMinimum: 0, maximum: 1 },
            scale: { type: 'number', exclusiveMinimum: 0, maximum: 1 },
            offsetX: { type: 'integer', minimum: 0, maximum: 8192 },
            offsetY: { type: 'integer', minimum: 0, maximum: 8192 },
          },
        },
      },
    },
    PersistedDocument: {
      type: 'object',
      properties: { id: { type: 'string' }, sha256: { type: 'string' }, name: nullable('string'), document: { type: 'string' }, createdAt: dateTime },
    },
    PurgeTarget: {
      type: 'object',
      properties: {
        id: { type: 'string' },
        provider: { type: 'string', enum: ['http', 'fastly', 'cloudflare'] },
        method: { type: 'string', description: 'http: the request method' },
        url: { type: 'string', description: 'http: the URL template ({key}, {keys} or {path})' },
        headerNames: { type: 'array', items: { type: 'string' }, description: 'http: the headers sent (values not shown)' },
        serviceId: { type: 'string', description: 'fastly' },
        softPurge: { type: 'boolean', description: 'fastly' },
        zoneId: { type: 'string', description: 'cloudflare' },
        events: { type: 'array', items: { type: 'string' } },
        description: nullable('string'),
        enabled: { type: 'boolean' },
        disabledReason: nullable('string'),
        failedInARow: { type: 'integer' },
        createdAt: dateTime,
        updatedAt: dateTime,
      },
    },
  },
  paths: {
    '/management/v1/delivery-settings': {
      get: { summary: "HTTP caching, trusted documents and publishable keys' image limits of GraphQL delivery", tags, 'x-scope': 'manage', responses: { 200: ok200(ref('DeliverySettings')), ...pick(401, 403, 429) } },
      patch: {
        summary: 'Change delivery settings (applied everywhere within 5 seconds)',
        tags,
        'x-scope': 'manage',
        requestBody: zodBody(deliverySettingsPatchSchema),
        responses: { 200: ok200(ref('DeliverySettings')), ...pick(400, 401, 403, 413, 429) },
      },
    },
    '/management/v1/persisted-documents': {
      post: {
        summary: 'Register GraphQL documents: a list, a GraphQL Code Generator / Relay manifest (id → text) or an Apollo persisted-query manifest',
        description: 'All or none: each must parse, a 64-hex id must be the SHA-256 of its text, an id already registered must name the same text (409).',
        tags,
        'x-scope': 'manage',
        requestBody: zodBody(persistedDocumentsInputSchema),
        responses: { 201: created201({ type: 'object', properties: { added: { type: 'integer' }, total: { type: 'integer' } } }), ...pick(400, 401, 403, 409, 413, 422, 429) },
      },
      get: { summary: 'Registered documents', tags, 'x-scope': 'manage', parameters: pagingParameters, responses: { 200: ok200({ type: 'array', items: ref('PersistedDocument') }, true), ...pick(400, 401, 403, 429) } },
    },
    '/management/v1/persisted-documents/{id}': {
      delete: { summary: 'Unregister a document', tags, 'x-scope': 'manage', parameters: [id], responses: { 200: ok200({ type: 'object' }), ...pick(401, 403, 404, 429) } },
    },
    '/management/v1/purge-targets': {
      post: {
        summary: 'Purge a CDN when content changes: Fastly (surrogate keys), Cloudflare (cache tags) or any HTTP cache (a request template)',
        description: 'Deliveries go through the webhook queue: retries with backoff, the delivery log, disabled after failures in a row.',
        tags,
        'x-scope': 'manage',
        requestBody: zodBody(purgeTargetInputSchema),
        responses: { 201: created201(ref('PurgeTarget')), ...pick(400, 401, 403, 413, 422, 429) },
      },
      get: { summary: 'Purge targets', tags, 'x-scope': 'manage', parameters: pagingParameters, responses: { 200: ok200({ type: 'array', items: ref('PurgeTarget') }, true), ...pick(400, 401, 403, 429) } },
    },
    '/management/v1/purge-targets/{id}': {
      get: { summary: 'A purge target', tags, 'x-scope': 'manage', parameters: [id], responses: { 200: ok200(ref('PurgeTarget')), ...pick(401, 403, 404, 429) } },
      patch: {
        summary: 'Change a purge target (enabled: true re-enables one disabled after failures)',
        tags,
        'x-scope': 'manage',
        parameters: [id],
        requestBody: zodBody(purgeTargetPatchSchema),
        responses: { 200: ok200(ref('PurgeTarget')), ...pick(400, 401, 403, 404, 413, 422, 429) },
      },
      delete: { summary: 'Delete a purge target and its delivery log', tags, 'x-scope': 'manage', parameters: [id], responses: { 200: ok200({ type: 'object' }), ...pick(401, 403, 404, 429) } },
    },
    '/management/v1/purge-targets/{id}/deliveries': {
      get: {
        summary: 'The purge log, newest first (the body lists the surrogate keys purged)',
        tags,
        'x-scope': 'manage',
        parameters: [id, ...pagingParameters],
        responses: { 200: ok200({ type: 'array', items: ref('WebhookDelivery') }, true), ...pick(400, 401, 403, 404, 429) },
      },
    },
  },
};
