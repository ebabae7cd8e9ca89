import { releaseEntriesInputSchema, releaseInputSchema, releaseRunInputSchema } from '../../../shared/content/releases/release-input.js';
import { RELEASE_STATUSES } from '../../../shared/content/releases/release-repository.js';
import { created201, ok200, pagingParameters, pathParam, pick, ref, zodBody, type OpenApiFragment } from '../openapi/common.js';

const tag = { tags: ['releases'], 'x-scope': 'manage' as const };
const id = pathParam('id');
const dateTime = { type: ['string', 'null'], format: 'date-time' };
const optionalBody = (schema: Parameters<typeof zodBody>[0]) => ({ required: false, content: zodBody(schema).content });

const run = (action: 'publish' | 'unpublish') => ({
  post: {
    summary:
      action === 'publish'
        ? 'Publish every entry of the release in one transaction (200), or schedule it with `at` (202)'
        : 'Unpublish every entry of a published release in one transaction (200), or schedule it with `at` (202)',
    description:
      'A member needs publish rights on the model of every entry of the release (403 naming the entries refused). All or nothing: 422 names every entry that blocks it (deleted, changed since it was added, invalid against its model, not published) and nothing changes. Each entry goes through the single publish path with its event, so webhooks and purges go out as for single publishes. A scheduled run that is blocked leaves the release FAILED with `problems`.',
    ...tag,
    parameters: [id],
    requestBody: optionalBody(releaseRunInputSchema),
    responses: { 200: ok200(ref('Release')), 202: { ...ok200(ref('Release')), description: 'Scheduled: GET the release for its status' }, ...pick(400, 401, 403, 404, 409, 422, 429) },
  },
});

export const releases: OpenApiFragment = {
  schemas: {
    Release: {
      type: 'object',
      properties: {
        id: { type: 'string' },
        name: { type: 'string' },
        status: { type: 'string', enum: [...RELEASE_STATUSES] },
        scheduledAction: { type: ['string', 'null'], enum: ['publish', 'unpublish', null] },
        scheduledAt: dateTime,
        problems: { type: ['array', 'null'], items: { type: 'string' }, description: 'Why the last scheduled run changed nothing, one line per blocking entry' },
        entries: {
          type: 'array',
          items: { type: 'object', properties: { entryId: { type: 'string' }, versionId: { type: 'string', description: 'The version the release publishes' } } },
        },
        createdAt: { type: 'string', format: 'date-time' },
        updatedAt: { type: 'string', format: 'date-time' },
        publishedAt: dateTime,
        unpublishedAt: dateTime,
      },
    },
  },
  paths: {
    '/management/v1/releases': {
      post: { summary: 'Create a release of entries, each at its current version', ...tag, requestBody: zodBody(releaseInputSchema), responses: { 201: created201(ref('Release')), ...pick(400, 401, 403, 413, 422, 429) } },
      get: { summary: 'List releases, newest first', ...tag, parameters: pagingParameters, responses: { 200: ok200({ type: 'array', items: ref('Release') }, true), ...pick(400, 401, 403, 429) } },
    },
    '/management/v1/releases/{id}': {
      get: { summary: 'Read a release: its status, schedule, entries and problems', ...tag, parameters: [id], responses: { 200: ok200(ref('Release')), ...pick(401, 403, 404, 429) } },
      delete: {
        summary: 'Delete a release that is not live (open, scheduled to publish, failed or unpublished); its entries are untouched',
        description: 'A published release, or one scheduled to be unpublished, is 409: unpublish it first. A member needs publish rights on the model of every entry it holds (403 naming the others).',
        ...tag,
        parameters: [id],
        responses: { 200: ok200({ type: 'object', properties: { id: { type: 'string' }, deleted: { type: 'boolean' } } }), ...pick(401, 403, 404, 409, 429) },
      },
    },
    '/management/v1/releases/{id}/cancel': {
      post: {
        summary: 'Cancel a scheduled release: a scheduled publish goes back to OPEN, a scheduled unpublish back to PUBLISHED',
        description: '409 when the release is not scheduled (any more: a run and a cancel never both happen). A member needs publish rights on the model of every entry it holds.',
        ...tag,
        parameters: [id],
        responses: { 200: ok200(ref('Release')), ...pick(401, 403, 404, 409, 429) },
      },
    },
    '/management/v1/releases/{id}/entries': {
      post: {
        summary: 'Add entries to a release not yet run, or take entries it holds again at their current version',
        ...tag,
        parameters: [id],
        requestBody: zodBody(releaseEntriesInputSchema),
        responses: { 200: ok200(ref('Release')), ...pick(400, 401, 403, 404, 409, 413, 422, 429) },
      },
    },
    '/management/v1/releases/{id}/publish': run('publish'),
    '/management/v1/releases/{id}/unpublish': run('unpublish'),
  },
};
