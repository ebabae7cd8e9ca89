import { allowedOriginsInputSchema, distributionInputSchema, organizationDeletionInputSchema, organizationInputSchema, projectInputSchema, siteInputSchema, siteUrlPatternsInputSchema, tokenInputSchema } from '../../../shared/tenancy/tenancy-input.js';
import { SCOPES } from '../../../shared/tenancy/scopes.js';
import { created201, zodBody, ok200, pagingParameters, pathParam, pick, ref, type OpenApiFragment } from '../openapi/common.js';

const scopes = { type: 'string', enum: [...SCOPES] };
const idList = (schema: string) => ({ type: 'array', items: ref(schema) });

export const platform: OpenApiFragment = {
  schemas: {
    Organization: {
      type: 'object',
      properties: {
        id: { type: 'string' },
        slug: { type: 'string' },
        name: { type: 'string' },
        schemaVersion: { type: 'integer', description: 'Rises with every model change; the GraphQL schema is rebuilt for a new value' },
        contentVersion: { type: 'integer', description: 'Rises with every content change; cached GraphQL results are kept per value' },
        createdAt: { type: 'string', format: 'date-time' },
        status: { type: 'string', enum: ['active', 'suspended', 'deleting'], description: "suspended: every request of the organization's tokens, images and files answers 403 with the reason" },
        suspendedReason: { type: ['string', 'null'] },
      },
    },
    CreatedOrganization: {
      allOf: [ref('Organization'), { type: 'object', properties: { token: { type: 'string', description: 'A first manage token, shown once' }, tokenId: { type: 'string' } } }],
    },
    Token: {
      type: 'object',
      properties: {
        id: { type: 'string' },
        name: { type: 'string' },
        scopes: { type: 'array', items: scopes },
        publishable: { type: 'boolean', description: 'A publishable key (folio_pk_…): published content only, may travel in the URL of GET /graphql as access_token' },
        createdAt: { type: 'string', format: 'date-time' },
        revokedAt: { type: ['string', 'null'], format: 'date-time' },
        lastUsedAt: { type: ['string', 'null'], format: 'date-time', description: 'Recorded at most once a minute per token and instance, so up to about a minute behind' },
        expiresAt: { type: ['string', 'null'], format: 'date-time', description: 'From then on the token answers 401 saying it expired; null: never' },
        replacedBy: { type: ['string', 'null'], description: 'The token a rotation issued in its place (this one then expires when the overlap ends)' },
        role: { type: ['string', 'null'], description: 'The role the token acts under (built-in name or custom:<id>; its scopes are then empty), or null: its scopes decide' },
        personId: { type: ['string', 'null'], description: "A member's personal access token: the member it acts as" },
      },
    },
    CreatedToken: { allOf: [ref('Token'), { type: 'object', properties: { token: { type: 'string', description: 'folio_… (folio_pk_… for a publishable key) — shown once' } } }] },
    AllowedOrigins: {
      type: 'object',
      properties: { allowedOrigins: { type: ['array', 'null'], items: { type: 'string' }, description: 'Origins such as https://www.example.com; null: any origin' } },
    },
    SiteUrlPatterns: {
      type: 'object',
      required: ['patterns', 'distributionIds'],
      properties: {
        patterns: {
          type: 'array',
          items: { type: 'object', required: ['pattern'], properties: { pattern: { type: 'string', example: '/articles/{slug}' }, model: { type: 'string', description: 'Only entries of this model.' } } },
        },
        distributionIds: { type: 'array', items: { type: 'string' }, description: 'The distributions serving the site; empty: every one of the organization.' },
      },
    },
    OwnOrganization: {
      type: 'object',
      properties: {
        id: { type: 'string' },
        slug: { type: 'string' },
        name: { type: ['string', 'null'] },
        usage: {
          type: 'object',
          properties: {
            month: { type: 'string', format: 'date', description: 'The first day (UTC) of the month counted' },
            entries: { type: 'integer' },
            assets: { type: 'integer' },
            assetBytes: { type: 'integer' },
            requests: { type: 'integer', description: 'Admitted REST and GraphQL requests this month' },
            imageTransforms: { type: 'integer', description: 'Image derivatives made this month' },
          },
        },
      },
    },
    Site: { type: 'object', properties: { id: { type: 'string' }, name: { type: 'string' }, externalId: { type: ['string', 'null'] }, createdAt: { type: 'string', format: 'date-time' } } },
    Project: { type: 'object', properties: { id: { type: 'string', format: 'uuid' }, name: { type: 'string' }, createdAt: { type: 'string', format: 'date-time' } } },
    Distribution: {
      type: 'object',
      properties: {
        id: { type: 'string' },
        projectId: { type: 'string', format: 'uuid' },
        name: { type: 'string' },
        hostnames: { type: 'array', items: { type: 'string' } },
        createdAt: { type: 'string', format: 'date-time' },
      },
    },
  },
  paths: {
    '/admin/v1/organizations': {
      post: {
        summary: 'Create an organization (platform admin token)',
        tags: ['admin'], 'x-scope': 'admin',
        requestBody: zodBody(organizationInputSchema),
        responses: { 201: created201(ref('CreatedOrganization')), ...pick(400, 401, 409, 413) },
      },
      get: { summary: 'List organizations', tags: ['admin'], 'x-scope': 'admin', parameters: pagingParameters, responses: { 200: ok200(idList('Organization'), true), ...pick(400, 401) } },
    },
    '/management/v1/tokens': {
      post: {
        summary: 'Create a token (shown once), with scopes or with a role (never more rights than the creating member or role token has)',
        tags: ['management'], 'x-scope': 'manage',
        requestBody: zodBody(tokenInputSchema),
        responses: { 201: created201(ref('CreatedToken')), ...pick(400, 401, 403, 413, 429) },
      },
      get: { summary: 'List tokens', tags: ['management'], 'x-scope': 'manage', parameters: pagingParameters, responses: { 200: ok200(idList('Token'), true), ...pick(400, 401, 403, 429) } },
    },
    '/management/v1/tokens/{id}': {
      delete: { summary: 'Revoke a token (effective at once on this instance, within 5 s everywhere)', tags: ['management'], 'x-scope': 'manage', parameters: [pathParam('id')], responses: { 200: ok200({ type: 'object' }), ...pick(401, 403, 404, 429) } },
    },
    '/management/v1/allowed-origins': {
      get: {
        summary: "The web origins whose pages may call Folio with this organization's tokens (null: any)",
        tags: ['management'], 'x-scope': 'manage',
        responses: { 200: ok200(ref('AllowedOrigins')), ...pick(401, 403, 429) },
      },
      put: {
        summary: 'Set the allowed origins (CORS): a page elsewhere gets 403; null accepts any origin',
        description: 'Requests without an Origin header (servers) are not affected. Applied by every instance within 5 seconds.',
        tags: ['management'], 'x-scope': 'manage',
        requestBody: zodBody(allowedOriginsInputSchema),
        responses: { 200: ok200(ref('AllowedOrigins')), ...pick(400, 401, 403, 413, 429) },
      },
    },
    '/management/v1/organization': {
      get: {
        summary: "The caller's organization: its name, slug and usage at a glance",
        description: 'Any member, any manage token. Requests and image transforms are counted per calendar month (UTC) and written every few seconds, so they may be a few seconds behind.',
        tags: ['management'], 'x-scope': 'manage',
        responses: { 200: ok200(ref('OwnOrganization')), ...pick(401, 403, 429) },
      },
      delete: {
        summary: 'Delete the organization: an owner signed in with a session, the slug typed to confirm',
        description: 'API tokens, admins and personal access tokens get 403; a confirmation other than the slug 422. The organization is refused at once and removed by a job.',
        tags: ['management'], 'x-scope': 'manage',
        requestBody: zodBody(organizationDeletionInputSchema),
        responses: { 202: ok200({ type: 'object' }), ...pick(400, 401, 403, 413, 422, 429) },
      },
    },
    '/management/v1/sites': {
      post: {
        summary: 'Create a site',
        tags: ['management'], 'x-scope': 'manage',
        requestBody: zodBody(siteInputSchema),
        responses: { 201: created201(ref('Site')), ...pick(400, 401, 403, 409, 413, 429) },
      },
      get: { summary: 'List sites', tags: ['management'], 'x-scope': 'manage', parameters: pagingParameters, responses: { 200: ok200(idList('Site'), true), ...pick(400, 401, 403, 429) } },
    },
    '/management/v1/sites/{siteId}/url-patterns': {
      get: {
        summary: "How the site's page paths name its entries, and the distributions serving it",
        tags: ['management'], 'x-scope': 'manage',
        parameters: [pathParam('siteId', { type: 'string' })],
        responses: { 200: ok200(ref('SiteUrlPatterns')), ...pick(401, 403, 404, 429) },
      },
      put: {
        summary: 'Replace the URL patterns of a site (traffic per entry)',
        description:
          'A pattern is literal segments and {placeholders}; exactly one of {slug}, {id} or {externalId} names the entry, any other placeholder matches one segment. ' +
          'A log line is resolved when it is ingested: the sites serving its distribution (distributionIds; empty: every distribution), oldest first, each in its patterns\' order — the first reading that names an entry of the site (of the model, when given) wins; slugs compare without case; query, fragment and a trailing slash are not part of the path. ' +
          'Applies to lines accepted from then on (other instances within 30 seconds).',
        tags: ['management'], 'x-scope': 'manage',
        parameters: [pathParam('siteId', { type: 'string' })],
        requestBody: zodBody(siteUrlPatternsInputSchema),
        responses: { 200: ok200(ref('SiteUrlPatterns')), ...pick(400, 401, 403, 404, 413, 429) },
      },
    },
    '/management/v1/projects': {
      post: { summary: 'Create a project', tags: ['management'], 'x-scope': 'manage', requestBody: zodBody(projectInputSchema), responses: { 201: created201(ref('Project')), ...pick(400, 401, 403, 413, 429) } },
      get: { summary: 'List projects', tags: ['management'], 'x-scope': 'manage', parameters: pagingParameters, responses: { 200: ok200(idList('Project'), true), ...pick(400, 401, 403, 429) } },
    },
    '/management/v1/projects/{projectId}': {
      get: { summary: 'A project with its distributions', tags: ['management'], 'x-scope': 'manage', parameters: [pathParam('projectId', { type: 'string', format: 'uuid' })], responses: { 200: ok200(ref('Project')), ...pick(401, 403, 404, 429) } },
    },
    '/management/v1/projects/{projectId}/distributions': {
      post: {
        summary: 'Create a distribution in a project',
        tags: ['management'], 'x-scope': 'manage',
        parameters: [pathParam('projectId', { type: 'string', format: 'uuid' })],
        requestBody: zodBody(distributionInputSchema),
        responses: { 201: created201(ref('Distribution')), ...pick(400, 401, 403, 404, 409, 413, 429) },
      },
      get: { summary: 'List the distributions of a project', tags: ['management'], 'x-scope': 'manage', parameters: [pathParam('projectId', { type: 'string', format: 'uuid' })], responses: { 200: ok200(idList('Distribution')), ...pick(401, 403, 404, 429) } },
    },
    '/healthz': { get: { summary: 'Liveness', tags: ['operations'], 'x-scope': 'public', security: [], responses: { 200: { description: 'Alive' } } } },
    '/readyz': {
      get: {
        summary: 'Readiness: every dependency with its state',
        description: 'Ready means Postgres answers (GraphQL and REST need nothing else): 200 with status "ready", or "degraded" when another dependency (queue, blobs, analytics) is down; 503 when Postgres is down or the process is draining.',
        tags: ['operations'],
        'x-scope': 'public',
        security: [],
        responses: { 200: { description: 'Ready or degraded' }, 503: { description: 'Postgres is down, or draining' } },
      },
    },
    '/metrics': {
      get: {
        summary: 'Prometheus metrics',
        description: 'Bearer METRICS_TOKEN (the operator sets it); without METRICS_TOKEN the endpoint is closed (403).',
        tags: ['operations'],
        'x-scope': 'metrics',
        responses: { 200: { description: 'text/plain exposition format' }, ...pick(401, 403) },
      },
    },
  },
};
