import { z } from 'zod';
import { ENTRY_SORTS, entryInputSchema, entryPatchSchema, scheduleInputSchema, versionRetentionPatchSchema } from '../../../shared/content/entry-input.js';
import { localeInputSchema, localePatchSchema } from '../../../shared/content/locale-input.js';
import { componentInputSchema, MAX_COMPONENT_DEPTH } from '../../../shared/content/component-rules.js';
import { modelInputSchema } from '../../../shared/content/model-input.js';
import { previewLinkInputSchema } from '../../../shared/content/preview-links.js';
import { FIELD_TYPES, ENTRY_STATUSES } from '../../../shared/content/model-types.js';
import { created201, zodBody, ok200, pagingParameters, pathParam, pick, ref, type OpenApiFragment } from '../openapi/common.js';
import { authorInputSchema, authorPatchSchema, labelInputSchema, labelPatchSchema, listEntriesSchema, listInputSchema, listPatchSchema, sectionInputSchema, sectionMediaSchema, sectionPatchSchema } from '../../../shared/content/resource-input.js';

const tag = { tags: ['content'], 'x-scope': 'manage' as const };
const nullableString = { type: ['string', 'null'] };
const dateTime = { type: ['string', 'null'], format: 'date-time' };
const id = pathParam('id');
/** The optional version check of entry writes. */
const ifMatch = {
  name: 'If-Match',
  in: 'header',
  required: false,
  schema: { type: 'string' },
  description: 'The entry\'s versionId the write was made on ("<versionId>"): 409 when the entry has a newer version since',
};

const crud = (name: string, schema: string, create: z.ZodType, patch: z.ZodType) => ({
  [`/management/v1/${name}`]: {
    post: { summary: `Create a ${schema.toLowerCase()} (optional client \`id\`)`, ...tag, requestBody: zodBody(create), responses: { 201: created201(ref(schema)), ...pick(400, 401, 403, 409, 413, 422, 429) } },
    get: { summary: `List ${name}`, ...tag, parameters: pagingParameters, responses: { 200: ok200({ type: 'array', items: ref(schema) }, true), ...pick(400, 401, 403, 429) } },
  },
  [`/management/v1/${name}/{id}`]: {
    get: { summary: `Read a ${schema.toLowerCase()}`, ...tag, parameters: [id], responses: { 200: ok200(ref(schema)), ...pick(401, 403, 404, 429) } },
    patch: { summary: `Change members of a ${schema.toLowerCase()}`, ...tag, parameters: [id], requestBody: zodBody(patch), responses: { 200: ok200(ref(schema)), ...pick(400, 401, 403, 404, 413, 422, 429) } },
    delete: { summary: `Delete a ${schema.toLowerCase()} (409 while in use)`, ...tag, parameters: [id], responses: { 200: ok200({ type: 'object', properties: { id: { type: 'string' } } }), ...pick(401, 403, 404, 409, 429) } },
  },
});

const transition = (summary: string) => ({
  post: { summary, ...tag, parameters: [id, ifMatch], responses: { 200: ok200(ref('Entry')), ...pick(400, 401, 403, 404, 409, 429) } },
});

export const content: OpenApiFragment = {
  schemas: {
    EntryVersionSummary: {
      type: 'object',
      properties: {
        versionId: { type: 'string' },
        status: { type: 'string', enum: [...ENTRY_STATUSES] },
        title: nullableString,
        savedAt: { type: 'string', format: 'date-time' },
        savedBy: {
          type: ['object', 'null'],
          properties: {
            type: { type: 'string', enum: ['member', 'token'] },
            id: { type: 'string' },
            name: { type: ['string', 'null'], description: "The member's email or the token's name" },
            tokenId: { type: 'string', description: 'The token (type "token" only)' },
          },
          description: "The member or token whose request saved it; null for the scheduler's publications and unpublications",
        },
        current: { type: 'boolean', description: "The entry's current (preview) version" },
      },
    },
    EntryVersion: {
      allOf: [
        ref('EntryVersionSummary'),
        {
          type: 'object',
          properties: {
            model: { type: 'string' },
            siteId: { type: 'string' },
            slug: nullableString,
            labels: { type: 'array', items: { type: 'string' } },
            attrs: {},
            fields: { type: 'object' },
            locales: { type: 'object', additionalProperties: { type: 'object' }, description: 'Present when the version had values in other locales' },
          },
        },
      ],
    },
    VersionRetention: {
      type: 'object',
      properties: { versionsKept: { type: 'integer' }, versionsDays: { type: ['integer', 'null'] } },
    },
    FieldDefinition: {
      type: 'object',
      properties: {
        alias: { type: 'string', pattern: '^[a-zA-Z_][A-Za-z0-9_]*$' },
        type: { type: 'string', enum: [...FIELD_TYPES] },
        valueType: { type: 'string', enum: ['single', 'list'] },
        numberFormat: { type: 'string', enum: ['int', 'decimal'] },
        allowedModels: { type: 'array', items: { type: 'string' } },
        required: { type: 'boolean', description: 'Of the default locale only: other locales may be partial' },
        localized: {
          type: 'boolean',
          description:
            'A value per locale (text, richtext, tag, url, number, datetime, boolean, json, location and component fields — a component value is localized as a whole, its references and media included; other relations and rich content are shared by every locale). Not allowed on the fields of a component',
        },
        components: {
          type: 'array',
          items: { type: 'string' },
          description:
            'Component fields only: the aliases of the components a value may be. A value is `{"component": "<alias>", …its fields}`; a list (`valueType: "list"`) may mix the allowed components in any order. In GraphQL the field is the component\'s type when it allows one, else a union `<Type>_<field>` read with inline fragments',
        },
        validations: {
          type: 'array',
          description:
            'Rules every value must keep, each an object with one member: `unique` (true; single text, tag, url, number, datetime; among all entries of the model, drafts included, per locale when localized), `pattern` ({regex, flags of i m s u, message}; text, tag, url), `size` ({min, max}: characters of text, items of a list), `range` ({min, max}: numbers, or date-times for datetime fields), `in` (allowed values; text, tag, url, number), `assetTypes` (media), `imageSize` ({width: {min, max}, height: {min, max}} in px; media). Absent when the field has none. A write that breaks one is a 422 naming `fields.<alias>` (or `locales.<code>.<alias>`) and the rule',
          items: { type: 'object', minProperties: 1, maxProperties: 1 },
        },
      },
    },
    BrokenEntries: {
      type: 'array',
      description: 'Present in the answer of a model write that added or changed validation rules while entries exist: per rule, how many entries break it (they stay; their next write must keep it)',
      items: { type: 'object', properties: { field: { type: 'string' }, rule: { type: 'string' }, entries: { type: 'integer' } } },
    },
    Locale: {
      type: 'object',
      properties: {
        code: { type: 'string', description: 'A BCP 47 language tag, e.g. en-US' },
        name: { type: 'string' },
        default: { type: 'boolean', description: "The default locale's values are the entries' `fields`; it is what GraphQL reads without a locale" },
        fallback: { type: ['string', 'null'], description: 'The locale asked next when this one has no value; every chain ends in the default' },
        createdAt: { type: 'string', format: 'date-time' },
        updatedAt: { type: 'string', format: 'date-time' },
      },
    },
    PreviewLink: {
      type: 'object',
      required: ['url', 'token', 'tokenId', 'expiresAt'],
      properties: {
        url: { type: 'string', format: 'uri' },
        token: { type: 'string', description: 'Shown once; send it as "Authorization: Bearer <token>" to /graphql' },
        tokenId: { type: 'string' },
        expiresAt: { type: 'string', format: 'date-time' },
      },
    },
    Model: {
      type: 'object',
      properties: {
        id: { type: 'string' },
        alias: { type: 'string', pattern: '^[a-z][A-Za-z0-9]*$' },
        name: { type: 'string' },
        titleField: nullableString,
        fields: { type: 'array', items: ref('FieldDefinition') },
        previewUrl: { ...nullableString, description: 'Template of the URL a preview link opens: `{token}` (required), `{id}`, `{model}`, `{slug}` or a field alias, each URL-encoded' },
        createdAt: { type: 'string', format: 'date-time' },
        updatedAt: { type: 'string', format: 'date-time' },
      },
    },
    Component: {
      type: 'object',
      description: `A typed group of fields used by models' component fields. Its alias shares the models' namespace (its GraphQL type is named from it as a model's is); its fields take the same shapes as a model's, except rich content, \`localized\` and \`unique\`; components nest at most ${MAX_COMPONENT_DEPTH} levels deep`,
      properties: {
        id: { type: 'string' },
        alias: { type: 'string', pattern: '^[a-z][A-Za-z0-9]*$' },
        name: { type: 'string' },
        fields: { type: 'array', items: ref('FieldDefinition') },
        createdAt: { type: 'string', format: 'date-time' },
        updatedAt: { type: 'string', format: 'date-time' },
      },
    },
    Entry: {
      type: 'object',
      description: 'The current (preview) version of an entry. `publishedVersionId` is the version delivery tokens read.',
      properties: {
        id: { type: 'string' },
        model: { type: 'string' },
        modelId: { type: 'string' },
        siteId: { type: 'string' },
        status: { type: 'string', enum: [...ENTRY_STATUSES] },
        versionId: { type: 'string' },
        publishedVersionId: nullableString,
        title: nullableString,
        slug: nullableString,
        externalId: nullableString,
        labels: { type: 'array', items: { type: 'string' } },
        attrs: { type: ['object', 'null'] },
        fields: { type: 'object', description: 'Values by field alias, in their stored shapes (decimals as strings, date-times as UTC ISO-8601 with ms); for localized fields, the default locale\'s' },
        locales: {
          type: 'object',
          additionalProperties: { type: 'object' },
          description: 'Values of localized fields in the other locales, by locale code then field alias (present when the entry has some). Writes take the same member: PUT replaces it, PATCH merges it per locale and field (null clears a value or a locale)',
        },
        locale: { type: 'string', description: 'The locale `fields` are read in (a listing asked with `locale`)' },
        metrics: {
          type: 'object',
          properties: { wordCount: { type: 'integer' }, characterCount: { type: 'integer' }, sentenceCount: { type: 'integer' }, imageCount: { type: 'integer' }, readingTime: { type: 'integer' } },
        },
        publishedAt: dateTime,
        firstPublishedAt: dateTime,
        unpublishedAt: dateTime,
        scheduledAt: dateTime,
        unpublishAt: { ...dateTime, description: 'A scheduled unpublish: the published entry is withdrawn then' },
        createdAt: { type: 'string', format: 'date-time' },
        updatedAt: { type: 'string', format: 'date-time' },
      },
    },
    Section: {
      type: 'object',
      properties: {
        id: { type: 'string' }, parentId: nullableString, title: nullableString, slug: nullableString, url: nullableString, siteId: nullableString,
        externalId: nullableString, description: nullableString, position: { type: ['integer', 'null'] }, mediaIds: { type: 'array', items: { type: 'string' } },
        createdAt: { type: 'string', format: 'date-time' }, updatedAt: { type: 'string', format: 'date-time' },
      },
    },
    Author: {
      type: 'object',
      properties: Object.fromEntries([
        ['id', { type: 'string' }],
        ...['userId', 'byline', 'externalId', 'firstName', 'lastName', 'url', 'imageId', 'biography', 'email', 'website', 'facebook', 'instagram', 'twitter', 'linkedin', 'tiktok', 'telegram'].map((k) => [k, nullableString]),
        ['profession', { type: 'array', items: { type: 'string' } }],
        ['createdAt', { type: 'string', format: 'date-time' }],
        ['updatedAt', { type: 'string', format: 'date-time' }],
      ]),
    },
    Label: {
      type: 'object',
      properties: { id: { type: 'string' }, name: { type: 'string' }, description: nullableString, color: nullableString, siteId: nullableString, externalId: nullableString, createdAt: { type: 'string', format: 'date-time' } },
    },
    List: {
      type: 'object',
      properties: {
        id: { type: 'string' }, name: { type: 'string' }, description: nullableString, siteId: nullableString, externalId: nullableString,
        entries: { type: 'array', items: { type: 'object', properties: { entryId: { type: 'string' }, startAt: dateTime, endAt: dateTime } } },
        createdAt: { type: 'string', format: 'date-time' }, updatedAt: { type: 'string', format: 'date-time' },
      },
    },
    ImportReport: {
      type: 'object',
      properties: {
        lines: { type: 'integer' },
        succeeded: { type: 'integer' },
        failed: { type: 'integer' },
        truncated: { type: 'boolean', description: 'Up to 10,000 lines every result is listed; beyond, only failures (at most 1,000)' },
        results: {
          type: 'array',
          items: {
            type: 'object',
            properties: { line: { type: 'integer' }, type: { type: 'string' }, ok: { type: 'boolean' }, id: { type: 'string' }, errors: { type: 'array', items: { type: 'string' } } },
          },
        },
      },
    },
    ImportRun: {
      type: 'object',
      properties: {
        id: { type: 'string' },
        state: { type: 'string', enum: ['running', 'completed', 'stopped'], description: 'stopped: the client disconnected, the body passed IMPORT_BODY_LIMIT_BYTES or broke off, or the server failed; `reason` says which' },
        reason: nullableString,
        lines: { type: 'integer', description: 'Lines applied or refused so far (brought up to date about once a second while running)' },
        succeeded: { type: 'integer' },
        failed: { type: 'integer' },
        startedAt: { type: 'string', format: 'date-time' },
        updatedAt: { type: 'string', format: 'date-time' },
        finishedAt: dateTime,
      },
    },
  },
  paths: {
    '/management/v1/models': {
      get: { summary: 'List the models of the organization', ...tag, responses: { 200: ok200({ type: 'array', items: ref('Model') }), ...pick(401, 403, 429) } },
    },
    '/management/v1/models/{alias}': {
      put: {
        summary:
          'Create (201) or replace (200) a model; bumps the schema version. 422 names every problem: alias rules, reserved or colliding GraphQL names, unknown types, list forms, allowedModels, titleField, validations. The answer carries `brokenEntries` when rules were added or changed under existing entries',
        ...tag,
        parameters: [pathParam('alias', { type: 'string', pattern: '^[a-z][A-Za-z0-9]*$' })],
        requestBody: zodBody(modelInputSchema),
        responses: {
          200: ok200({ allOf: [ref('Model'), { type: 'object', properties: { brokenEntries: ref('BrokenEntries') } }] }),
          201: created201(ref('Model')),
          ...pick(401, 403, 413, 422, 429),
        },
      },
      get: { summary: 'Read a model', ...tag, parameters: [pathParam('alias')], responses: { 200: ok200(ref('Model')), ...pick(401, 403, 404, 429) } },
      delete: { summary: 'Delete a model (409 while entries exist or another model allows it)', ...tag, parameters: [pathParam('alias')], responses: { 200: ok200({ type: 'object' }), ...pick(401, 403, 404, 409, 429) } },
    },
    '/management/v1/models/{alias}/graphql': {
      get: {
        summary: "The GraphQL type the saved model produces, in SDL as delivery serves it (with the component types and unions its fields name): the Studio's preview",
        ...tag,
        parameters: [pathParam('alias')],
        responses: {
          200: ok200({ type: 'object', required: ['alias', 'typeName', 'sdl'], properties: { alias: { type: 'string' }, typeName: { type: 'string' }, sdl: { type: 'string' } } }),
          ...pick(401, 403, 404, 429),
        },
      },
    },
    '/management/v1/components': {
      get: { summary: 'List the components of the organization', ...tag, responses: { 200: ok200({ type: 'array', items: ref('Component') }), ...pick(401, 403, 429) } },
    },
    '/management/v1/components/{alias}': {
      put: {
        summary:
          'Create (201) or replace (200) a component; bumps the schema version. 422 names every problem: alias rules, a name a model or its generated types already has, unknown types, components that are not declared, nesting past the depth limit or back into itself, field types that change while entries hold the component',
        ...tag,
        parameters: [pathParam('alias', { type: 'string', pattern: '^[a-z][A-Za-z0-9]*$' })],
        requestBody: zodBody(componentInputSchema),
        responses: { 200: ok200(ref('Component')), 201: created201(ref('Component')), ...pick(401, 403, 413, 422, 429) },
      },
      get: { summary: 'Read a component', ...tag, parameters: [pathParam('alias')], responses: { 200: ok200(ref('Component')), ...pick(401, 403, 404, 429) } },
      delete: { summary: 'Delete a component (409 naming the model or component that still uses it)', ...tag, parameters: [pathParam('alias')], responses: { 200: ok200({ type: 'object' }), ...pick(401, 403, 404, 409, 429) } },
    },
    '/management/v1/entries': {
      post: { summary: 'Create an entry (DRAFT unless `status` says otherwise)', ...tag, requestBody: zodBody(entryInputSchema), responses: { 201: created201(ref('Entry')), ...pick(400, 401, 403, 413, 422, 429) } },
      get: {
        summary: 'List entries (current versions), in creation order unless `sort` says otherwise: pages do not shift as entries are edited or published; entries created meanwhile come last',
        ...tag,
        parameters: [
          { name: 'model', in: 'query', schema: { type: 'string' }, description: 'Entries of this model alias' },
          { name: 'status', in: 'query', schema: { type: 'string', enum: [...ENTRY_STATUSES] } },
          { name: 'updatedSince', in: 'query', schema: { type: 'string', format: 'date-time' }, description: 'Changed at or after this instant' },
          {
            name: 'search',
            in: 'query',
            schema: { type: 'string', maxLength: 500 },
            description: "Words to find in the entries' text fields (text, richtext, tag) read in `locale` (else the default), stemmed for its language; drafts included; the most relevant first",
          },
          {
            name: 'locale',
            in: 'query',
            schema: { type: 'string' },
            description: "Show each entry's fields and title as read in this locale (localized fields from it, then its fallbacks, then the default), with `locale` set and without `locales`. 400 for a locale the organization does not have",
          },
          { name: 'hasLocale', in: 'query', schema: { type: 'string' }, description: 'Entries with values in this locale (the default locale: every entry). 400 for a locale the organization does not have' },
          { name: 'label', in: 'query', schema: { type: 'string' }, description: 'Entries carrying this label id' },
          { name: 'author', in: 'query', schema: { type: 'string' }, description: 'Entries whose author fields name this author id' },
          { name: 'asset', in: 'query', schema: { type: 'string' }, description: 'Entries using this asset id (media fields, media blocks of rich content, inside components): where the asset is used' },
          { name: 'sort', in: 'query', schema: { type: 'string', enum: [...ENTRY_SORTS] }, description: 'Order by this instead of creation order (or relevance with `search`); ties in creation order' },
          { name: 'order', in: 'query', schema: { type: 'string', enum: ['asc', 'desc'] }, description: 'Direction of `sort`: newest first for updatedAt and createdAt, A–Z for title and status unless given' },
          ...pagingParameters,
        ],
        responses: { 200: ok200({ type: 'array', items: ref('Entry') }, true), ...pick(400, 401, 403, 429) },
      },
    },
    '/management/v1/entries/{id}': {
      put: { summary: 'Create with a client id (201) or replace the content (200); a published entry becomes EDITED until published again', ...tag, parameters: [id, ifMatch], requestBody: zodBody(entryInputSchema), responses: { 200: ok200(ref('Entry')), 201: created201(ref('Entry')), ...pick(400, 401, 403, 409, 413, 422, 429) } },
      get: { summary: 'Read the current version of an entry', ...tag, parameters: [id], responses: { 200: ok200(ref('Entry')), ...pick(401, 403, 404, 429) } },
      patch: { summary: 'Merge `fields` by alias (null clears one); other members replace', ...tag, parameters: [id, ifMatch], requestBody: zodBody(entryPatchSchema), responses: { 200: ok200(ref('Entry')), ...pick(400, 401, 403, 404, 409, 413, 422, 429) } },
      delete: { summary: 'Mark the entry DELETED (kept, invisible to delivery)', ...tag, parameters: [id], responses: { 200: ok200(ref('Entry')), ...pick(401, 403, 404, 429) } },
    },
    '/management/v1/entries/{id}/publish': transition('Publish the current version (publishedAt = now, firstPublishedAt once)'),
    '/management/v1/entries/{id}/unpublish': transition('Withdraw from delivery (UNPUBLISHED, unpublishedAt = now); 409 when not published'),
    '/management/v1/entries/{id}/archive': transition('Archive (kept, invisible to delivery)'),
    '/management/v1/entries/{id}/versions': {
      get: {
        summary: "The entry's kept versions, newest first (every save, publication, unpublication, schedule and restore is one)",
        ...tag,
        parameters: [id, ...pagingParameters],
        responses: { 200: ok200({ type: 'array', items: ref('EntryVersionSummary') }, true), ...pick(400, 401, 403, 404, 429) },
      },
    },
    '/management/v1/entries/{id}/versions/{versionId}': {
      get: { summary: 'One kept version with its stored fields', ...tag, parameters: [id, pathParam('versionId')], responses: { 200: ok200(ref('EntryVersion')), ...pick(401, 403, 404, 429) } },
    },
    '/management/v1/entries/{id}/versions/{versionId}/restore': {
      post: {
        summary: 'Make a kept version the draft (a new version, checked against the model as it is now); publish to make it live',
        ...tag,
        parameters: [id, pathParam('versionId')],
        responses: { 200: ok200(ref('Entry')), ...pick(401, 403, 404, 409, 422, 429) },
      },
    },
    '/management/v1/version-retention': {
      get: { summary: 'How long entry versions are kept', ...tag, responses: { 200: ok200(ref('VersionRetention')), ...pick(401, 403, 429) } },
      patch: {
        summary: 'Keep the newest versionsKept versions per entry (default 100), none older than versionsDays (null: no age limit); pruned hourly, never the current one',
        ...tag,
        requestBody: zodBody(versionRetentionPatchSchema),
        responses: { 200: ok200(ref('VersionRetention')), ...pick(400, 401, 403, 413, 429) },
      },
    },
    '/management/v1/entries/{id}/preview-link': {
      post: {
        summary: "The entry's draft on the site: the model's previewUrl filled with the entry's values and a new token of the preview scope",
        description:
          'The token reads drafts of this organization through GraphQL (and its live subscriptions) until `expiresAt` (an hour by default, a minute to a day), and is listed and revocable with the other tokens. 422 when the model has no previewUrl. A member needs to read every field of every model.',
        ...tag,
        parameters: [id],
        requestBody: { required: false, content: zodBody(previewLinkInputSchema).content },
        responses: { 201: created201(ref('PreviewLink')), ...pick(400, 401, 403, 404, 422, 429) },
      },
    },
    '/management/v1/entries/{id}/schedule': {
      post: {
        summary: 'Publish the current version at `at` (SCHEDULED; a worker publishes it), and/or unpublish at `unpublishAt` (null cancels)',
        description:
          '`at`: 409 for a published, unchanged entry. `unpublishAt`: in the future, after `at`; 409 unless the entry is published or scheduled. The worker that publishes scheduled entries withdraws it once, with an entry.unpublished event.',
        ...tag,
        parameters: [id, ifMatch],
        requestBody: zodBody(scheduleInputSchema),
        responses: { 200: ok200(ref('Entry')), ...pick(400, 401, 403, 404, 409, 422, 429) },
      },
    },
    '/management/v1/locales': {
      get: { summary: "The organization's locales, the default first", ...tag, responses: { 200: ok200({ type: 'array', items: ref('Locale') }), ...pick(401, 403, 429) } },
      post: {
        summary: 'Add a locale; the first is the default. `default: true` moves the default to it (409 while entries hold values in other locales)',
        ...tag,
        requestBody: zodBody(localeInputSchema),
        responses: { 201: created201(ref('Locale')), ...pick(400, 401, 403, 409, 413, 422, 429) },
      },
    },
    '/management/v1/locales/{code}': {
      get: { summary: 'Read a locale', ...tag, parameters: [pathParam('code')], responses: { 200: ok200(ref('Locale')), ...pick(401, 403, 404, 429) } },
      patch: {
        summary: 'Rename a locale, change its fallback (422 for a chain that loops), or make it the default',
        ...tag,
        parameters: [pathParam('code')],
        requestBody: zodBody(localePatchSchema),
        responses: { 200: ok200(ref('Locale')), ...pick(400, 401, 403, 404, 409, 413, 422, 429) },
      },
      delete: {
        summary: "Delete a locale and its values in every entry (versions keep theirs); 409 for the default while others exist, and for another locale's fallback",
        ...tag,
        parameters: [pathParam('code')],
        responses: { 200: ok200({ type: 'object', properties: { code: { type: 'string' } } }), ...pick(401, 403, 404, 409, 429) },
      },
    },
    ...crud('sections', 'Section', sectionInputSchema, sectionPatchSchema),
    '/management/v1/sections/{id}/media': {
      put: { summary: 'Replace the media of a section (array of asset ids, in order)', ...tag, parameters: [id], requestBody: zodBody(sectionMediaSchema), responses: { 200: ok200(ref('Section')), ...pick(400, 401, 403, 404, 422, 429) } },
    },
    ...crud('authors', 'Author', authorInputSchema, authorPatchSchema),
    ...crud('labels', 'Label', labelInputSchema, labelPatchSchema),
    ...crud('lists', 'List', listInputSchema, listPatchSchema),
    '/management/v1/lists/{id}/entries': {
      put: { summary: 'Replace the entries of a list (order = position; endAt must follow startAt)', ...tag, parameters: [id], requestBody: zodBody(listEntriesSchema), responses: { 200: ok200(ref('List')), ...pick(400, 401, 403, 404, 422, 429) } },
    },
    '/management/v1/export': {
      get: {
        summary: "The organization's content as the NDJSON the import takes, streamed: sites, locales (each after its fallback), components (each after those it holds), models, components with references again, assets (with their signed /files URLs, from which an import into another organization copies the bytes), sections, authors, labels, entries (each after the entries it references; a published entry with unpublished edits as two lines), lists",
        description: 'Compressed with gzip when the request accepts it. An unpublished or scheduled entry is written as a draft (the import has no such status). A failure part-way cuts the stream short.',
        ...tag,
        responses: {
          200: { description: 'One JSON object per line', content: { 'application/x-ndjson': { schema: { type: 'string' } } } },
          ...pick(401, 403, 429),
        },
      },
    },
    '/management/v1/import': {
      post: {
        summary: 'Bulk import: NDJSON lines {"type": "site"|"locale"|"component"|"model"|"asset"|"section"|"author"|"label"|"entry"|"list", ...body}, applied in order in batched transactions; bad lines are reported with their number and never stop good ones',
        ...tag,
        parameters: [
          {
            name: 'Content-Encoding',
            in: 'header',
            required: false,
            description: 'The body may be compressed; it is decoded as it is read. Compressed data that breaks off answers 400, and a body over IMPORT_BODY_LIMIT_BYTES (on the wire or decoded) 413, after applying the lines before (an import may be run again). An import whose client disconnects stops after the batch being written.',
            schema: { type: 'string', enum: ['gzip', 'deflate', 'br'] },
          },
        ],
        requestBody: { required: true, content: { 'application/x-ndjson': { schema: { type: 'string', description: 'One JSON object per line' } } } },
        responses: { 200: ok200(ref('ImportReport')), ...pick(400, 401, 403, 413, 415, 429) },
      },
      get: {
        summary: "The organization's latest import (null when it never ran one): running, completed, or stopped with its reason, and the lines applied",
        ...tag,
        responses: { 200: ok200({ oneOf: [ref('ImportRun'), { type: 'null' }] }), ...pick(401, 403, 429) },
      },
    },
  },
};
