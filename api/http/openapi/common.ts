import { z } from 'zod';
import type { Scope } from '../../../shared/tenancy/scopes.js';

/**
 * One operation. `x-scope` is required: the token scope the route demands, `admin` for the
 * platform token, `metrics` for the METRICS_TOKEN, `member` for a member's session (bearer or
 * cookie; API tokens get 403), or `public` (then also `security: []`). The auth test walks every operation of
 * the document with it, so a route listed here is tested for 401/403/404 automatically.
 */
export interface OpenApiOperation {
  'x-scope': Scope | 'admin' | 'metrics' | 'public' | 'member';
  summary: string;
  [key: string]: unknown;
}

/** Building blocks shared by every fragment of the OpenAPI document. */
export interface OpenApiFragment {
  paths: Record<string, Partial<Record<'get' | 'post' | 'put' | 'patch' | 'delete' | 'head', OpenApiOperation>>>;
  schemas?: Record<string, unknown>;
  securitySchemes?: Record<string, unknown>;
}

export const ref = (name: string) => ({ $ref: `#/components/schemas/${name}` });

/** The API's envelope around a given `result` schema. */
export const envelopeOf = (result: unknown, withResultInfo = false) => ({
  type: 'object',
  required: ['success', 'errors', 'messages', 'result', 'resultInfo'],
  properties: {
    success: { type: 'boolean' },
    errors: { type: 'array', items: { type: 'string' } },
    messages: { type: 'array', items: { type: 'string' } },
    result,
    resultInfo: withResultInfo ? ref('ResultInfo') : { oneOf: [ref('ResultInfo'), { type: 'null' }] },
  },
});

export const jsonContent = (schema: unknown) => ({ 'application/json': { schema } });

const errorResponse = (description: string) => ({ description, content: jsonContent(ref('ErrorEnvelope')) });

/** Standard error responses by status code. */
export const errors = {
  400: errorResponse('Invalid input'),
  401: errorResponse('Missing, malformed, unknown or revoked token'),
  403: errorResponse('The token lacks the required scope'),
  404: errorResponse('Not found in the token\'s organization'),
  409: errorResponse('Conflict'),
  413: errorResponse('Body too large'),
  415: errorResponse('Unsupported media type'),
  422: errorResponse('Semantically invalid input; each error names the field'),
  429: errorResponse('Rate limited; see Retry-After and RateLimit-* headers'),
  503: errorResponse('A dependency is unavailable; retry after Retry-After'),
};

export const pick = <K extends keyof typeof errors>(...codes: K[]) =>
  Object.fromEntries(codes.map((c) => [String(c), errors[c]])) as Record<string, unknown>;

export const ok200 = (result: unknown, withResultInfo = false, description = 'OK') => ({
  description,
  content: jsonContent(envelopeOf(result, withResultInfo)),
});

export const created201 = (result: unknown) => ({ description: 'Created', content: jsonContent(envelopeOf(result)) });

export const pagingParameters = [
  { name: 'pageIndex', in: 'query', schema: { type: 'integer', minimum: 1, default: 1 }, description: '1-based page index' },
  { name: 'pageSize', in: 'query', schema: { type: 'integer', minimum: 1, maximum: 100, default: 20 } },
];

export const pathParam = (name: string, schema: unknown = { type: 'string' }, description?: string) => ({
  name,
  in: 'path',
  required: true,
  schema,
  ...(description ? { description } : {}),
});

export const jsonBody = (schema: unknown) => ({ required: true, content: jsonContent(schema) });

/** A request body generated from the zod schema its handler parses with, so the two cannot drift. */
export const zodBody = (schema: z.ZodType) => jsonBody(z.toJSONSchema(schema, { io: 'input', unrepresentable: 'any' }));
