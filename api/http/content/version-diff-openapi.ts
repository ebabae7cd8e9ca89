import { ok200, pathParam, pick, ref, type OpenApiFragment } from '../openapi/common.js';

/** `GET /management/v1/entries/{id}/versions/{versionId}/diff/{otherId}`: its own fragment, next to the route's file. */
export const versionDiff: OpenApiFragment = {
  schemas: {
    VersionChange: {
      type: 'object',
      required: ['path', 'field', 'locale', 'change'],
      properties: {
        path: { type: 'string', description: 'fields.<alias>, locales.<code>.<alias>, or a property: model, siteId, slug, labels, attrs' },
        field: { type: ['string', 'null'], description: "The field's alias; null for a property" },
        locale: { type: ['string', 'null'], description: "A localized field's locale (the default locale's for fields.*); null otherwise" },
        change: { type: 'string', enum: ['added', 'removed', 'changed'] },
        before: { description: 'The value in the first version (absent when added)' },
        after: { description: 'The value in the second version (absent when removed)' },
      },
    },
    VersionDiff: {
      type: 'object',
      properties: {
        entryId: { type: 'string' },
        from: ref('EntryVersionSummary'),
        to: ref('EntryVersionSummary'),
        changes: { type: 'array', items: ref('VersionChange') },
      },
    },
  },
  paths: {
    '/management/v1/entries/{id}/versions/{versionId}/diff/{otherId}': {
      get: {
        summary: 'What changed from one kept version to another, field by field and locale by locale (fields the role hides are left out)',
        tags: ['content'],
        'x-scope': 'manage',
        parameters: [pathParam('id'), pathParam('versionId'), pathParam('otherId')],
        responses: { 200: ok200(ref('VersionDiff')), ...pick(401, 403, 404, 429) },
      },
    },
  },
};
