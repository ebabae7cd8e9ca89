import { Router } from 'express';
import { ref, type OpenApiFragment } from './common.js';
import { assets } from '../assets/openapi.js';
import { content } from '../content/openapi.js';
import { versionDiff } from '../content/version-diff-openapi.js';
import { analytics } from '../analytics/openapi.js';
import { goals } from '../analytics/goals-openapi.js';
import { ingest } from '../ingest/openapi.js';
import { outputGroups } from '../output-groups/openapi.js';
import { OPERATION_IDS } from './operation-ids.js';
import { platform } from '../platform/openapi.js';
import { organizationAdmin } from '../platform/organization-admin-openapi.js';
import { webhooks } from '../webhooks/openapi.js';
import { edge } from '../edge/openapi.js';
import { people } from '../people/openapi.js';
import { sso } from '../people/sso-openapi.js';
import { audit } from '../audit/openapi.js';
import { releases } from '../releases/openapi.js';

/** Every feature's fragment, in the order its tag should appear. */
const fragments: OpenApiFragment[] = [
  platform,
  organizationAdmin,
  outputGroups,
  assets,
  content,
  versionDiff,
  releases,
  analytics,
  goals,
  ingest,
  webhooks,
  edge,
  people,
  sso,
  audit,
];

export function buildOpenApiDocument(serverUrl: string): Record<string, unknown> {
  const paths: Record<string, unknown> = {};
  const schemas: Record<string, unknown> = {
    ResultInfo: {
      type: 'object',
      properties: {
        totalCount: { type: 'integer', format: 'int32' },
        pageIndex: { type: 'integer', format: 'int32' },
        pageSize: { type: 'integer', format: 'int32' },
        totalPages: { type: 'integer', format: 'int32' },
        hasNextPage: { type: 'boolean' },
        hasPreviousPage: { type: 'boolean' },
      },
    },
    ErrorEnvelope: {
      type: 'object',
      properties: {
        success: { type: 'boolean', const: false },
        errors: { type: 'array', items: { type: 'string' } },
        messages: { type: 'array', items: { type: 'string' } },
        result: { type: 'null' },
        resultInfo: { type: 'null' },
      },
    },
  };
  const securitySchemes: Record<string, unknown> = { bearerAuth: { type: 'http', scheme: 'bearer' } };
  const operationIds = new Set<string>();
  for (const f of fragments) {
    for (const [p, ops] of Object.entries(f.paths)) {
      const named = Object.fromEntries(
        Object.entries(ops).map(([method, op]) => {
          const operationId = OPERATION_IDS[`${method.toUpperCase()} ${p}`];
          if (!operationId) throw new Error(`OpenAPI: ${method.toUpperCase()} ${p} has no operationId in operation-ids.ts`);
          if (operationIds.has(operationId)) throw new Error(`OpenAPI: operationId ${operationId} (${method.toUpperCase()} ${p}) is not unique`);
          operationIds.add(operationId);
          return [method, { operationId, ...op }];
        }),
      );
      paths[p] = { ...(paths[p] as object | undefined), ...named };
    }
    Object.assign(schemas, f.schemas ?? {});
    Object.assign(securitySchemes, f.securitySchemes ?? {});
  }
  return {
    openapi: '3.1.0',
    info: {
      title: 'Folio REST API',
      version: '1',
      description:
        'Every response uses the envelope {success, errors, messages, result, resultInfo}. Authenticate with "Authorization: Bearer <token>".',
    },
    servers: [{ url: serverUrl }],
    security: [{ bearerAuth: [] }],
    components: { securitySchemes, schemas },
    paths,
  };
}

export function openApiRoutes(serverUrl: string): Router {
  const document = buildOpenApiDocument(serverUrl);
  const r = Router();
  r.get('/api/openapi.json', (_req, res) => {
    res.json(document);
  });
  return r;
}

export { ref };
