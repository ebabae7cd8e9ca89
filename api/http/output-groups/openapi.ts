import {
  KEY_PROVIDER_RAW_KEY,
  categories,
  clearLeadLimits,
  drmProviders,
  encryptionAlgorithms,
  keyProviderTypes,
  maxOutputsPerGroup,
  outputGroupTypes,
  outputPresets,
  protectionSchemes,
  rawKeyLabels,
  segmentControls,
  segmentLengthLimits,
  widevineAlgorithms,
} from '../../../shared/output-groups/catalog.js';
import type { Scope } from '../../../shared/tenancy/scopes.js';
import { envelopeOf, errors, jsonContent, ref, type OpenApiFragment } from '../openapi/common.js';

/**
 * OpenAPI 3.1 fragment for output groups. Every numeric code is rendered
 * from the catalog, so the document cannot drift from what the API accepts and returns.
 */

type Coded = { id: number; enabled: boolean; value?: string; name?: string };

/** An int32 property whose codes are listed both as an enum and in words. */
function codeProperty(list: readonly Coded[], what: string, options: { zeroMeans?: string } = {}) {
  const active = list.filter((c) => c.enabled);
  const words = active.map((c) => `${c.id} = ${c.value ?? c.name}`).join(', ');
  return {
    type: 'integer',
    format: 'int32',
    enum: [...(options.zeroMeans ? [0] : []), ...active.map((c) => c.id)],
    description: `${what}. Codes: ${options.zeroMeans ? `0 = ${options.zeroMeans}, ` : ''}${words}.`,
  };
}

const presetCodes = outputPresets.map((p) => ({ id: p.id, enabled: p.enabled, name: `${p.name} (${p.videoCodec || 'no video'}/${p.audioCodec})` }));
const algorithmCodes = widevineAlgorithms.map((a) => ({ id: a.id, enabled: a.enabled, value: a.value }));
const int32 = { type: 'integer', format: 'int32' } as const;

const schemas = {
  OutputGroupOption: {
    type: 'object',
    required: ['id', 'value', 'enabled'],
    properties: {
      id: int32,
      value: { type: 'string' },
      enabled: { type: 'boolean', description: 'Whether this group has chosen the option.' },
    },
  },
  OutputGroupOutputModel: {
    type: 'object',
    required: ['name', 'nameModifier', 'presetId', 'presetName', 'videoCodec', 'audioCodec'],
    properties: {
      name: { type: 'string' },
      nameModifier: { type: 'string', description: 'Playlist name of the output.' },
      presetId: codeProperty(presetCodes, 'Output preset', { zeroMeans: 'none (empty output model)' }),
      presetName: { type: 'string' },
      videoCodec: { type: 'string', description: 'Empty for audio-only presets.' },
      audioCodec: { type: 'string' },
    },
  },
  OutputGroupListItem: {
    type: 'object',
    required: ['id', 'name', 'customName', 'type', 'description'],
    properties: {
      id: { type: 'string', description: 'Id of the output group (an int32 in decimal).' },
      name: { type: 'string', description: 'Default name.' },
      customName: { type: 'string', description: 'Name given by the user.' },
      type: codeProperty(outputGroupTypes, 'Type of the output group'),
      description: { type: 'string' },
    },
  },
  OutputGroupDetail: {
    type: 'object',
    required: [
      'id', 'name', 'customName', 'segmentControl', 'segmentControlOptions', 'segmentLength', 'minSegmentLength',
      'type', 'outputGroupsTypes', 'typeOptions', 'categoryOptions', 'hasDRM', 'drmList', 'groupDRM',
      'description', 'emptyOutputModel', 'outputs',
    ],
    properties: {
      id: { type: 'string', description: 'Id of the output group (an addition to the original contract, so a creator learns it).' },
      name: { type: 'string', description: 'Default name.' },
      customName: { type: 'string', description: 'User-provided name; overrides the default name.' },
      segmentControl: codeProperty(segmentControls, 'Selected segment control'),
      segmentControlOptions: { type: 'array', items: ref('OutputGroupOption') },
      segmentLength: { ...int32, description: 'Segment length in seconds.' },
      minSegmentLength: { ...int32, description: 'Minimum segment length in seconds.' },
      type: codeProperty(outputGroupTypes, 'Selected output group type'),
      outputGroupsTypes: {
        type: 'object',
        additionalProperties: int32,
        description: `Output group type names and their codes: ${outputGroupTypes.map((t) => `"${t.value}": ${t.id}`).join(', ')}.`,
      },
      typeOptions: { type: 'array', items: ref('OutputGroupOption') },
      categoryOptions: {
        type: 'array',
        items: ref('OutputGroupOption'),
        description: `Category codes: ${categories.map((c) => `${c.id} = ${c.value}`).join(', ')}.`,
      },
      hasDRM: { type: 'boolean' },
      drmList: {
        type: 'object',
        required: ['providers', 'widevineAlgorithm', 'rawKey'],
        properties: {
          providers: {
            type: 'array',
            description: 'The DRM systems this group protects for.',
            items: {
              type: 'object',
              required: ['id', 'name'],
              properties: { id: codeProperty(drmProviders, 'DRM provider'), name: { type: 'string' } },
            },
          },
          widevineAlgorithm: {
            type: 'object',
            required: ['widevineId', 'algorithms'],
            properties: {
              widevineId: codeProperty(algorithmCodes, "The group's Widevine signing algorithm", { zeroMeans: 'none (key provider is not Widevine)' }),
              algorithms: {
                type: 'array',
                description: 'Every Widevine algorithm on offer; `type` and `value` carry the same string.',
                items: {
                  type: 'object',
                  required: ['id', 'type', 'value'],
                  properties: { id: int32, type: { type: 'string' }, value: { type: 'string' } },
                },
              },
            },
          },
          rawKey: {
            type: 'object',
            required: ['rawKeyId', 'labels'],
            properties: {
              rawKeyId: codeProperty(keyProviderTypes.filter((k) => k.id === KEY_PROVIDER_RAW_KEY), 'Key provider code of raw keys when the group uses them', {
                zeroMeans: 'raw keys not used',
              }),
              labels: { type: 'array', items: { type: 'string', enum: [...rawKeyLabels] }, description: 'Stream labels the raw keys apply to.' },
            },
          },
        },
      },
      groupDRM: {
        type: 'object',
        required: ['shakaPackagerKeyProviderType', 'protectionSchemaType', 'protectionSchemaOptions', 'encryptionAlgorithmType', 'label', 'clearLead'],
        properties: {
          shakaPackagerKeyProviderType: codeProperty(keyProviderTypes, 'Where Shaka Packager gets keys', { zeroMeans: 'no DRM' }),
          protectionSchemaType: codeProperty(protectionSchemes, 'Common Encryption scheme', { zeroMeans: 'no DRM' }),
          protectionSchemaOptions: { type: 'array', items: ref('OutputGroupOption') },
          encryptionAlgorithmType: codeProperty(encryptionAlgorithms, 'Encryption method', { zeroMeans: 'no DRM' }),
          label: { type: 'string' },
          clearLead: { ...int32, minimum: 0, description: 'Seconds left unencrypted at the start, when encryption is enabled.' },
        },
      },
      description: { type: 'string' },
      emptyOutputModel: ref('OutputGroupOutputModel'),
      outputs: { type: 'array', items: ref('OutputGroupOutputModel') },
    },
  },
  OutputGroupInput: {
    type: 'object',
    additionalProperties: false,
    required: ['type', 'segmentControl', 'segmentLength'],
    properties: {
      name: { type: 'string', maxLength: 200, description: 'Default: the type\'s default name.' },
      customName: { type: 'string', maxLength: 200 },
      description: { type: 'string', maxLength: 2000 },
      type: codeProperty(outputGroupTypes, 'Output group type'),
      segmentControl: codeProperty(segmentControls, 'Segment control'),
      segmentLength: { ...int32, maximum: segmentLengthLimits.ceiling, description: 'Seconds; at least minSegmentLength.' },
      minSegmentLength: {
        ...int32,
        minimum: segmentLengthLimits.floor,
        maximum: segmentLengthLimits.ceiling,
        description: `Seconds; default ${segmentLengthLimits.defaultMin}.`,
      },
      categories: { type: 'array', items: codeProperty(categories, 'Category'), uniqueItems: true },
      hasDRM: { type: 'boolean', description: '`drm` is required when true and rejected when false. Default: true exactly when `drm` is given (so a group without DRM may omit both).' },
      drm: {
        type: 'object',
        additionalProperties: false,
        required: ['providers', 'shakaPackagerKeyProviderType', 'protectionSchemaType', 'encryptionAlgorithmType'],
        properties: {
          providers: { type: 'array', minItems: 1, uniqueItems: true, items: codeProperty(drmProviders, 'DRM provider') },
          widevineAlgorithm: codeProperty(algorithmCodes, 'Widevine signing algorithm; required with the Widevine key provider, rejected otherwise'),
          rawKeyLabels: {
            type: 'array',
            uniqueItems: true,
            items: { type: 'string', enum: [...rawKeyLabels] },
            description: 'Required (non-empty) with the raw-key key provider, rejected otherwise.',
          },
          shakaPackagerKeyProviderType: codeProperty(
            keyProviderTypes,
            'Key provider; Widevine and PlayReady need the matching entry in providers',
          ),
          protectionSchemaType: codeProperty(protectionSchemes, 'Protection scheme; FairPlay requires cbcs'),
          encryptionAlgorithmType: codeProperty(encryptionAlgorithms, 'Encryption algorithm'),
          label: { type: 'string', maxLength: 200 },
          clearLead: { ...int32, minimum: 0, maximum: clearLeadLimits.ceiling, description: 'Seconds; default 0.' },
        },
      },
      outputs: {
        type: 'array',
        maxItems: maxOutputsPerGroup,
        items: {
          type: 'object',
          additionalProperties: false,
          required: ['name', 'nameModifier', 'presetId'],
          properties: {
            name: { type: 'string', maxLength: 200 },
            nameModifier: { type: 'string', maxLength: 200, description: 'Playlist name; unique within the group.' },
            presetId: codeProperty(presetCodes, 'Output preset'),
          },
        },
      },
    },
  },
  OutputGroupListResponse: envelopeOf({ type: 'array', items: ref('OutputGroupListItem') }, true),
  OutputGroupDetailResponse: envelopeOf({ type: 'array', items: ref('OutputGroupDetail'), description: 'Holds the one detail object.' }, true),
  OutputGroupWriteResponse: envelopeOf(ref('OutputGroupDetail')),
  OutputGroupDeleteResponse: envelopeOf({ type: 'object', required: ['id'], properties: { id: { type: 'string' } } }),
};

const projectId = { name: 'projectId', in: 'path', required: true, schema: { type: 'string', format: 'uuid' } };
const groupId = {
  name: 'id',
  in: 'path',
  required: true,
  schema: int32,
  description: 'Output group id; anything but an int32 is a 400.',
};
const json = jsonContent;
const error = (description: string) => ({ description, content: json(ref('ErrorEnvelope')) });
const common = {
  '401': error('Missing, malformed, unknown or revoked token.'),
  '403': error('The token lacks the required scope.'),
  '429': errors[429],
};
const notFoundProject = error('Unknown project, or one of another organization.');
const notFoundGroup = error('Unknown project or output group (including ids of another organization).');
const badId = error('The id is not an int32.');
const badPage = error('pageIndex or pageSize is not an integer in range.');
const bodyErrors = {
  '400': error('Malformed body: wrong JSON types, unknown keys, invalid JSON, or a non-int32 id.'),
  '413': errors[413],
  '422': error('The body breaks a catalog or cross-field rule; each reason names its field path.'),
};
/** `x-scope` for the document's auth walk; OpenAPI 3.1 lets a bearer requirement name roles: the scope. */
const scoped = (scope: Scope) => ({ 'x-scope': scope, security: [{ bearerAuth: [scope] }] });

const paths: OpenApiFragment['paths'] = {
  '/api/v1/projects/{projectId}/outputgroups': {
    get: {
      operationId: 'listOutputGroups',
      summary: 'List output groups (scope video)',
      tags: ['output groups'],
      ...scoped('video'),
      parameters: [
        projectId,
        { name: 'pageIndex', in: 'query', schema: { ...int32, minimum: 1, default: 1 } },
        { name: 'pageSize', in: 'query', schema: { ...int32, minimum: 1, maximum: 100, default: 20 } },
      ],
      responses: {
        '200': { description: 'One page of the project\'s output groups.', content: json(ref('OutputGroupListResponse')) },
        '400': badPage,
        ...common,
        '404': notFoundProject,
      },
    },
  },
  '/api/v1/projects/{projectId}/outputgroups/{id}': {
    get: {
      operationId: 'getOutputGroup',
      summary: 'Get output group (scope video)',
      tags: ['output groups'],
      ...scoped('video'),
      parameters: [projectId, groupId],
      responses: {
        '200': { description: '`result` is an array holding the detail.', content: json(ref('OutputGroupDetailResponse')) },
        '400': badId,
        ...common,
        '404': notFoundGroup,
      },
    },
  },
  '/management/v1/projects/{projectId}/outputgroups': {
    post: {
      operationId: 'createOutputGroup',
      summary: 'Create an output group (scope manage)',
      tags: ['output groups'],
      ...scoped('manage'),
      parameters: [projectId],
      requestBody: { required: true, content: json(ref('OutputGroupInput')) },
      responses: {
        '201': { description: 'Created; `result` is the detail, `Location` its read URL.', content: json(ref('OutputGroupWriteResponse')) },
        ...bodyErrors,
        ...common,
        '404': notFoundProject,
      },
    },
  },
  '/management/v1/projects/{projectId}/outputgroups/{id}': {
    put: {
      operationId: 'replaceOutputGroup',
      summary: 'Replace an output group (scope manage)',
      tags: ['output groups'],
      ...scoped('manage'),
      parameters: [projectId, groupId],
      requestBody: { required: true, content: json(ref('OutputGroupInput')) },
      responses: {
        '200': { description: 'Replaced; `result` is the detail.', content: json(ref('OutputGroupWriteResponse')) },
        ...bodyErrors,
        ...common,
        '404': notFoundGroup,
      },
    },
    delete: {
      operationId: 'deleteOutputGroup',
      summary: 'Delete an output group (scope manage)',
      tags: ['output groups'],
      ...scoped('manage'),
      parameters: [projectId, groupId],
      responses: {
        '200': { description: 'Deleted.', content: json(ref('OutputGroupDeleteResponse')) },
        '400': badId,
        ...common,
        '404': notFoundGroup,
      },
    },
  },
};

export const outputGroups: OpenApiFragment = { schemas, paths };
