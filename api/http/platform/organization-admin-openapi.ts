import { adminTokenInputSchema, suspensionInputSchema, tokenRotationInputSchema } from '../../../shared/tenancy/tenancy-input.js';
import { created201, zodBody, ok200, pagingParameters, pathParam, pick, ref, type OpenApiFragment } from '../openapi/common.js';

const removed = {
  type: ['object', 'null'],
  description: 'What the deletion removed, once finished',
  properties: { rows: { type: 'integer' }, blobs: { type: 'integer' }, analyticsRows: { type: 'integer' } },
};

/** Token rotation, and the platform operator's routes on one organization. */
export const organizationAdmin: OpenApiFragment = {
  schemas: {
    RotatedToken: {
      allOf: [ref('CreatedToken'), { type: 'object', properties: { previous: ref('Token') } }],
      description: 'The new token (shown once) and the old one, now expiring when the overlap ends',
    },
    OrganizationDeletion: {
      type: 'object',
      properties: {
        id: { type: 'string' },
        slug: { type: 'string' },
        status: { type: 'string', enum: ['deleting', 'deleted'] },
        requestedAt: { type: 'string', format: 'date-time' },
        finishedAt: { type: ['string', 'null'], format: 'date-time' },
        removed,
        error: { type: ['string', 'null'], description: 'Why the job has not finished yet (it is retried)' },
      },
    },
    OrganizationState: {
      type: 'object',
      description: 'The organization (status active, suspended or deleting) or, once its data is gone, its deletion (status deleted)',
      properties: {
        id: { type: 'string' },
        slug: { type: 'string' },
        name: { type: 'string' },
        createdAt: { type: 'string', format: 'date-time' },
        status: { type: 'string', enum: ['active', 'suspended', 'deleting', 'deleted'] },
        suspendedReason: { type: ['string', 'null'] },
        deletion: { oneOf: [ref('OrganizationDeletion'), { type: 'null' }] },
      },
    },
  },
  paths: {
    '/management/v1/tokens/{id}/rotate': {
      post: {
        summary: 'Rotate a token: a new one (shown once); the old one keeps working until the overlap ends',
        description:
          'The new token has the same name, scopes and kind. Its expiry is expiresAt, or the old token\'s lifetime again. The old token then expires at now + overlapSeconds (default 3600; 0 stops it at once), ' +
          'on every instance within 5 s. A revoked, expired or already rotated token is not rotated (409).',
        tags: ['management'], 'x-scope': 'manage',
        parameters: [pathParam('id')],
        requestBody: { ...zodBody(tokenRotationInputSchema), required: false },
        responses: { 201: created201(ref('RotatedToken')), ...pick(400, 401, 403, 404, 409, 413, 429) },
      },
    },
    '/admin/v1/organizations/{id}': {
      get: {
        summary: 'An organization and its state (platform admin token); after a deletion, its status "deleted" and what was removed',
        tags: ['admin'], 'x-scope': 'admin',
        parameters: [pathParam('id')],
        responses: { 200: ok200(ref('OrganizationState')), ...pick(401, 404) },
      },
      delete: {
        summary: 'Delete an organization: 202 at once, then a job removes its rows, objects and analytics rows',
        description:
          'The organization is suspended at once (its requests answer 403 on every instance within 5 s). Poll GET /admin/v1/organizations/{id} until status is "deleted". Repeating the call while it runs starts the job again if it stopped.',
        tags: ['admin'], 'x-scope': 'admin',
        parameters: [pathParam('id')],
        responses: { 202: { description: 'Accepted', content: ok200(ref('OrganizationDeletion')).content }, ...pick(401, 404, 503) },
      },
    },
    '/admin/v1/organizations/{id}/tokens': {
      post: {
        summary: 'Issue a new manage token for an organization (recovering a lost one)',
        tags: ['admin'], 'x-scope': 'admin',
        parameters: [pathParam('id')],
        requestBody: zodBody(adminTokenInputSchema),
        responses: { 201: created201(ref('CreatedToken')), ...pick(400, 401, 404, 409, 413) },
      },
    },
    '/admin/v1/organizations/{id}/members': {
      get: {
        summary: "An organization's members: email, role, how they joined (invitation or single sign-on)",
        tags: ['admin'], 'x-scope': 'admin',
        parameters: [pathParam('id'), ...pagingParameters],
        responses: { 200: ok200({ type: 'array', items: ref('Member') }, true), ...pick(400, 401, 403, 404) },
      },
    },
    '/admin/v1/organizations/{id}/suspend': {
      post: {
        summary: "Suspend an organization: every request of it (REST, GraphQL, images, files, ingest) answers 403 naming the reason",
        description: 'Applied by this instance before the answer, by every other within 5 s.',
        tags: ['admin'], 'x-scope': 'admin',
        parameters: [pathParam('id')],
        requestBody: { ...zodBody(suspensionInputSchema), required: false },
        responses: { 200: ok200(ref('Organization')), ...pick(400, 401, 404, 409, 413) },
      },
    },
    '/admin/v1/organizations/{id}/resume': {
      post: {
        summary: 'Resume a suspended organization',
        tags: ['admin'], 'x-scope': 'admin',
        parameters: [pathParam('id')],
        responses: { 200: ok200(ref('Organization')), ...pick(400, 401, 404, 409) },
      },
    },
  },
};
