import { funnelInputSchema, goalInputSchema } from '../../../shared/analytics/goal-input.js';
import { sharedLinkInputSchema } from '../../../shared/analytics/shared-link-input.js';
import { created201, ok200, pathParam, pick, ref, zodBody, type OpenApiFragment } from '../openapi/common.js';
import { compareParameter, filterParameters, parameters } from './openapi.js';

/** OpenAPI fragment of goals, funnels and shared links: their configuration and their reports. */
const int32 = { type: 'integer', format: 'int32' } as const;
const rate = { type: 'number', minimum: 0, maximum: 1, description: 'A share, to 4 decimals.' };
const ids = [pathParam('projectId', { type: 'string', format: 'uuid' }), pathParam('distributionId')];
const idParam = pathParam('id', { type: 'string', format: 'uuid' });
const manage = { tags: ['management'], 'x-scope': 'manage' as const };
const read = { tags: ['Analytics'], 'x-scope': 'analytics' as const, security: [{ bearerAuth: ['analytics'] }] };
const comparison = {
  previous: { description: 'With compare: the same figures over the other period (null for compare=previous on a window starting at 1970-01-01).' },
  change: { type: ['object', 'null'], additionalProperties: true, description: 'With compare: per numeric figure {absolute, relative}.' },
};

const schemas = {
  Goal: {
    type: 'object',
    required: ['id', 'name', 'path', 'createdAt'],
    properties: { id: { type: 'string', format: 'uuid' }, name: { type: 'string' }, path: { type: 'string', description: 'Path pattern: * within a segment, ** across.' }, createdAt: { type: 'string', format: 'date-time' } },
  },
  Funnel: {
    type: 'object',
    required: ['id', 'name', 'steps', 'createdAt'],
    properties: { id: { type: 'string', format: 'uuid' }, name: { type: 'string' }, steps: { type: 'array', items: { type: 'string' }, minItems: 2, maxItems: 8 }, createdAt: { type: 'string', format: 'date-time' } },
  },
  GoalFigures: {
    type: 'object',
    required: ['id', 'name', 'path', 'visitors', 'requests', 'conversionRate'],
    properties: {
      id: { type: 'string', format: 'uuid' },
      name: { type: 'string' },
      path: { type: 'string' },
      visitors: { ...int32, description: 'Visitors (one UTC day\'s address and user agent) who requested a matching path.' },
      requests: { ...int32, description: 'Requests of a matching path.' },
      conversionRate: { ...rate, description: "visitors over the window's visitors (the same filters applied); 0 without visitors." },
      ...comparison,
    },
  },
  FunnelFigures: {
    type: 'object',
    required: ['id', 'name', 'steps', 'conversionRate'],
    properties: {
      id: { type: 'string', format: 'uuid' },
      name: { type: 'string' },
      steps: {
        type: 'array',
        items: {
          type: 'object',
          required: ['path', 'visitors', 'dropOff', 'dropOffRate'],
          properties: {
            path: { type: 'string' },
            visitors: { ...int32, description: 'Visitors who reached this step after every earlier one, in order, within one UTC day.' },
            dropOff: { ...int32, description: 'Visitors of the step before who did not reach this one (0 for the first).' },
            dropOffRate: { ...rate, description: "dropOff over the step before's visitors." },
          },
        },
      },
      conversionRate: { ...rate, description: "The last step's visitors over the first's." },
      ...comparison,
    },
  },
};

const sharedLink = {
  type: 'object',
  required: ['id', 'distributionId', 'name', 'expiresAt', 'revokedAt', 'createdAt'],
  properties: {
    id: { type: 'string', format: 'uuid' },
    distributionId: { type: 'string' },
    name: { type: 'string' },
    expiresAt: { type: 'string', format: 'date-time' },
    revokedAt: { type: ['string', 'null'], format: 'date-time' },
    createdAt: { type: 'string', format: 'date-time' },
  },
};
Object.assign(schemas, {
  SharedLink: sharedLink,
  NewSharedLink: {
    allOf: [ref('SharedLink'), { type: 'object', required: ['url'], properties: { url: { type: 'string', format: 'uri', description: 'The dashboard of this distribution for whoever holds it (/dashboard/shared/<secret>). Shown once.' } } }],
  },
});
const secretParam = pathParam('secret', { type: 'string', pattern: '^[A-Za-z0-9]{43}$' }, "A shared link's secret (404 when unknown, revoked or expired).");
const shared = { tags: ['Analytics'], 'x-scope': 'public' as const, security: [] };
const KINDS = ['geo', 'path', 'device', 'referers', 'status', 'bots', 'realtime', 'assets', 'entries', 'campaigns', 'goals', 'funnels'];

const deleted = ok200({ type: 'object', required: ['id', 'deleted'], properties: { id: { type: 'string' }, deleted: { type: 'boolean' } } });
const base = '/management/v1/projects/{projectId}/distributions/{distributionId}';
const report = '/api/v1/projects/{projectId}/distributions/{distributionId}/analytics';
const reportParameters = [...parameters.slice(2), ...filterParameters, compareParameter];

export const goals: OpenApiFragment = {
  schemas,
  paths: {
    [`${base}/goals`]: {
      post: { ...manage, summary: 'Define a goal: a path pattern (at most 50 per distribution)', parameters: ids, requestBody: zodBody(goalInputSchema), responses: { 201: created201(ref('Goal')), ...pick(400, 401, 403, 404, 409, 413, 429) } },
      get: { ...manage, summary: "The distribution's goals", parameters: ids, responses: { 200: ok200({ type: 'array', items: ref('Goal') }), ...pick(401, 403, 404, 429) } },
    },
    [`${base}/goals/{id}`]: { delete: { ...manage, summary: 'Delete a goal', parameters: [...ids, idParam], responses: { 200: deleted, ...pick(401, 403, 404, 429) } } },
    [`${base}/funnels`]: {
      post: { ...manage, summary: 'Define a funnel: 2 to 8 path patterns in order (at most 50 per distribution)', parameters: ids, requestBody: zodBody(funnelInputSchema), responses: { 201: created201(ref('Funnel')), ...pick(400, 401, 403, 404, 409, 413, 429) } },
      get: { ...manage, summary: "The distribution's funnels", parameters: ids, responses: { 200: ok200({ type: 'array', items: ref('Funnel') }), ...pick(401, 403, 404, 429) } },
    },
    [`${base}/funnels/{id}`]: { delete: { ...manage, summary: 'Delete a funnel', parameters: [...ids, idParam], responses: { 200: deleted, ...pick(401, 403, 404, 429) } } },
    [`${base}/shared-links`]: {
      post: {
        ...manage,
        summary: "Share this distribution's dashboard, read-only, until the link expires (30 days by default, at most 366) or is revoked",
        parameters: ids,
        requestBody: zodBody(sharedLinkInputSchema),
        responses: { 201: created201(ref('NewSharedLink')), ...pick(400, 401, 403, 404, 413, 429) },
      },
      get: { ...manage, summary: "The distribution's shared links (without their secrets)", parameters: ids, responses: { 200: ok200({ type: 'array', items: ref('SharedLink') }), ...pick(401, 403, 404, 429) } },
    },
    [`${base}/shared-links/{id}`]: {
      delete: {
        ...manage,
        summary: 'Revoke a shared link: its URL answers 404 from then on',
        parameters: [...ids, idParam],
        responses: { 200: ok200({ type: 'object', properties: { id: { type: 'string' }, revoked: { type: 'boolean' }, revokedAt: { type: 'string', format: 'date-time' } } }), ...pick(401, 403, 404, 429) },
      },
    },
    '/api/v1/shared/{secret}': {
      get: {
        ...shared,
        summary: "A shared link's name, distribution and expiry (no token: the secret is the credential)",
        parameters: [secretParam],
        responses: { 200: ok200({ type: 'object', properties: { name: { type: 'string' }, distributionId: { type: 'string' }, expiresAt: { type: 'string', format: 'date-time' } } }), ...pick(404, 429) },
      },
    },
    '/api/v1/shared/{secret}/analytics': {
      get: { ...shared, summary: "The shared distribution's overview, as the analytics endpoint answers it", parameters: [secretParam, ...reportParameters], responses: { 200: ok200({ type: 'object' }), ...pick(400, 404, 429) } },
    },
    '/api/v1/shared/{secret}/analytics/{report}': {
      get: {
        ...shared,
        summary: "One of the shared distribution's reports, goals or funnels (every funnel), as the analytics endpoints answer them",
        parameters: [secretParam, pathParam('report', { type: 'string', enum: KINDS }), ...reportParameters],
        responses: { 200: ok200({}), ...pick(400, 404, 429) },
      },
    },
    [`${report}/goals`]: {
      get: { ...read, summary: 'Conversions per goal: visitors, requests and conversion rate (read from the raw lines)', parameters: [...ids, ...reportParameters], responses: { 200: ok200({ type: 'array', items: ref('GoalFigures') }), ...pick(400, 401, 403, 404, 429) } },
    },
    [`${report}/funnels`]: {
      get: { ...read, summary: "Every funnel of the distribution with its figures (compare: ask one funnel)", parameters: [...ids, ...reportParameters.filter((p) => p.name !== 'compare')], responses: { 200: ok200({ type: 'array', items: ref('FunnelFigures') }), ...pick(400, 401, 403, 404, 429) } },
    },
    [`${report}/funnels/{id}`]: {
      get: { ...read, summary: 'A funnel: visitors per step, in order within a UTC day, and the drop-off (read from the raw lines)', parameters: [...ids, idParam, ...reportParameters], responses: { 200: ok200(ref('FunnelFigures')), ...pick(400, 401, 403, 404, 429) } },
    },
  },
};
