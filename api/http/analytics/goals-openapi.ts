import { funnelInputSchema, goalInputSchema } from '../../../shared/analytics/goal-input.js';
import { created201, ok200, pathParam, pick, ref, zodBody, type OpenApiFragment } from '../openapi/common.js';
import { compareParameter, filterParameters, parameters } from './openapi.js';

/** OpenAPI fragment of goals and funnels: their configuration and their reports. */
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
