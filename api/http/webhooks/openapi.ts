import { EVENT_TYPES } from '../../../shared/events/event-types.js';
import { webhookInputSchema, webhookPatchSchema } from '../../../shared/webhooks/webhook-input.js';
import { created201, envelopeOf, jsonContent, ok200, pagingParameters, pathParam, pick, ref, zodBody, type OpenApiFragment } from '../openapi/common.js';

const dateTime = { type: 'string', format: 'date-time' };
const nullable = (type: string, extra: object = {}) => ({ type: [type, 'null'], ...extra });
const tags = ['webhooks'];
const id = pathParam('id', { type: 'string' }, 'The webhook id');

export const webhooks: OpenApiFragment = {
  schemas: {
    Webhook: {
      type: 'object',
      properties: {
        id: { type: 'string' },
        url: { type: 'string', format: 'uri' },
        events: { type: 'array', items: { type: 'string' }, description: `Event types (${EVENT_TYPES.join(', ')}), families such as "entry.*", or "*"` },
        models: { type: ['array', 'null'], items: { type: 'string' }, description: 'Entry and model events of these model aliases only; null: every model' },
        description: nullable('string'),
        enabled: { type: 'boolean' },
        disabledReason: nullable('string', { description: 'Why Folio disabled it after failed deliveries; PATCH enabled: true starts it afresh' }),
        failedInARow: { type: 'integer', description: 'Deliveries in a row that failed every attempt' },
        createdAt: dateTime,
        updatedAt: dateTime,
      },
    },
    CreatedWebhook: {
      allOf: [ref('Webhook'), { type: 'object', properties: { secret: { type: 'string', description: 'whsec_… (Standard Webhooks) — shown once' } } }],
    },
    WebhookDelivery: {
      type: 'object',
      properties: {
        id: { type: 'string', description: 'The webhook-id header: the same on every attempt' },
        eventId: { type: 'integer' },
        eventType: { type: 'string' },
        status: { type: 'string', enum: ['pending', 'succeeded', 'failed'] },
        attempts: { type: 'integer' },
        lastStatusCode: nullable('integer'),
        lastDurationMs: nullable('integer'),
        lastError: nullable('string'),
        responseExcerpt: nullable('string', { description: 'The first 256 characters of the last response body' }),
        nextAttemptAt: nullable('string', { format: 'date-time', description: 'When a pending delivery is tried next' }),
        createdAt: dateTime,
        finishedAt: nullable('string', { format: 'date-time' }),
      },
    },
  },
  paths: {
    '/management/v1/webhooks': {
      post: {
        summary: 'Subscribe a URL to events (the signing secret is shown once)',
        description:
          'The URL must be http(s) and resolve to a public address (checked now and before every delivery). Deliveries are JSON POSTs {type, timestamp, data} signed per Standard Webhooks.',
        tags,
        'x-scope': 'manage',
        requestBody: zodBody(webhookInputSchema),
        responses: { 201: created201(ref('CreatedWebhook')), ...pick(400, 401, 403, 413, 422, 429) },
      },
      get: { summary: 'List webhooks', tags, 'x-scope': 'manage', parameters: pagingParameters, responses: { 200: ok200({ type: 'array', items: ref('Webhook') }, true), ...pick(400, 401, 403, 429) } },
    },
    '/management/v1/webhooks/{id}': {
      get: { summary: 'A webhook', tags, 'x-scope': 'manage', parameters: [id], responses: { 200: ok200(ref('Webhook')), ...pick(401, 403, 404, 429) } },
      patch: {
        summary: 'Change a webhook (enabled: true re-enables one disabled after failures)',
        tags,
        'x-scope': 'manage',
        parameters: [id],
        requestBody: zodBody(webhookPatchSchema),
        responses: { 200: ok200(ref('Webhook')), ...pick(400, 401, 403, 404, 413, 422, 429) },
      },
      delete: { summary: 'Delete a webhook and its delivery log', tags, 'x-scope': 'manage', parameters: [id], responses: { 200: ok200({ type: 'object' }), ...pick(401, 403, 404, 429) } },
    },
    '/management/v1/webhooks/{id}/rotate-secret': {
      post: {
        summary: 'A new signing secret (shown once); the old one signs beside it for 24 hours',
        tags,
        'x-scope': 'manage',
        parameters: [id],
        responses: {
          200: ok200({ type: 'object', properties: { id: { type: 'string' }, secret: { type: 'string' }, previousSecretValidUntil: dateTime } }),
          ...pick(401, 403, 404, 429),
        },
      },
    },
    '/management/v1/webhooks/{id}/deliveries': {
      get: {
        summary: 'The delivery log, newest first',
        tags,
        'x-scope': 'manage',
        parameters: [id, ...pagingParameters],
        responses: { 200: ok200({ type: 'array', items: ref('WebhookDelivery') }, true), ...pick(400, 401, 403, 404, 429) },
      },
    },
    '/management/v1/webhooks/{id}/deliveries/{deliveryId}/redeliver': {
      post: {
        summary: 'Send a delivery again (same webhook-id and body, attempts counted afresh)',
        tags,
        'x-scope': 'manage',
        parameters: [id, pathParam('deliveryId')],
        responses: { 202: { description: 'Queued', content: jsonContent(envelopeOf(ref('WebhookDelivery'))) }, ...pick(401, 403, 404, 429) },
      },
    },
  },
};
