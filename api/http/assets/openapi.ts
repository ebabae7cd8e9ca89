import { created201, errors, jsonBody, ok200, pagingParameters, pathParam, pick, ref, type OpenApiFragment } from '../openapi/common.js';

const nullableString = { type: ['string', 'null'] };
const focalPoint = {
  type: 'object',
  required: ['x', 'y'],
  additionalProperties: false,
  properties: { x: { type: 'number', minimum: 0, maximum: 1 }, y: { type: 'number', minimum: 0, maximum: 1 } },
  description: 'Fractions from the top-left corner; the centre is (0.5, 0.5).',
};
const ratioFocalPoints = {
  type: 'array',
  maxItems: 20,
  items: { type: 'object', required: ['ratio', 'focalPoint'], properties: { ratio: { type: 'string', pattern: '^[1-9][0-9]{0,3}:[1-9][0-9]{0,3}$' }, focalPoint } },
};
const metadataQuery = ['fileName', 'title', 'alt', 'caption', 'author', 'source', 'externalId', 'path', 'tags'].map((name) => ({
  name,
  in: 'query',
  schema: { type: 'string' },
  ...(name === 'tags' ? { description: 'Repeat or separate with commas' } : {}),
}));
const uploadBody = {
  required: true,
  description: 'The file as the raw body (any content type; the type is read from the bytes), or multipart/form-data with one file part.',
  content: {
    'application/octet-stream': { schema: { type: 'string', format: 'binary' } },
    'multipart/form-data': { schema: { type: 'object', properties: { file: { type: 'string', format: 'binary' } } } },
  },
};
const presetOptions = {
  type: 'object',
  additionalProperties: false,
  properties: {
    width: { type: 'integer', minimum: 1, maximum: 8192 },
    height: { type: 'integer', minimum: 1, maximum: 8192 },
    resize: { type: 'string', enum: ['FIT', 'FILL', 'AUTO', 'PAD'], description: 'Any case in a request; answered as listed. PAD: the whole image centred in the box on the background.' },
    quality: { type: 'integer', minimum: 1, maximum: 100 },
    gravity: { type: 'string', enum: ['NORTH', 'SOUTH', 'EAST', 'WEST', 'NORTH_EAST', 'NORTH_WEST', 'SOUTH_EAST', 'SOUTH_WEST', 'CENTER'] },
    format: { type: 'string', enum: ['jpeg', 'png', 'webp', 'avif', 'gif'] },
    smartCrop: { type: 'string', enum: ['AUTO', 'ATTENTION', 'ENTROPY'], description: "With resize FILL: keep the salient part (AUTO = ATTENTION); the asset's focal point wins." },
    rotate: { type: 'integer', enum: [90, 180, 270], description: 'Clockwise, after the EXIF orientation and the crop.' },
    flip: { type: 'string', enum: ['HORIZONTAL', 'VERTICAL', 'BOTH'] },
    crop: {
      type: 'object',
      required: ['x', 'y', 'width', 'height'],
      additionalProperties: false,
      description: 'Fractions 0–1 of the upright source, cut out before anything else; x + width and y + height at most 1.',
      properties: Object.fromEntries(['x', 'y', 'width', 'height'].map((k) => [k, { type: 'number', minimum: 0, maximum: 1 }])),
    },
    cropPixels: {
      type: 'object',
      required: ['x', 'y', 'width', 'height'],
      additionalProperties: false,
      description: 'The same cut in whole pixels of the upright source (not with crop); a URL built for a source it does not fit is refused.',
      properties: {
        x: { type: 'integer', minimum: 0, maximum: 65534 },
        y: { type: 'integer', minimum: 0, maximum: 65534 },
        width: { type: 'integer', minimum: 1, maximum: 65535 },
        height: { type: 'integer', minimum: 1, maximum: 65535 },
      },
    },
    trim: { type: 'integer', minimum: 1, maximum: 100, description: 'Trim a uniform border after the cut: how far a pixel may differ from the top-left one.' },
    frame: { type: 'integer', minimum: 0, maximum: 999, description: 'This frame (from 0) of an animated GIF or WebP, as a still.' },
    autoQuality: { type: 'boolean', description: 'q_auto: the quality chosen for the output format (WebP 75, AVIF 40, JPEG 80), over quality.' },
    background: { type: 'string', pattern: '^#[0-9a-fA-F]{6}$', description: 'Fill of resize PAD and of transparency flattened (JPEG: white by default).' },
    grayscale: { type: 'boolean' },
    overlay: {
      type: 'object',
      required: ['assetId'],
      additionalProperties: false,
      description: "A watermark: an image asset of the organization over every derivative of the preset (unless a transformation names its own). It must exist when a URL is built.",
      properties: {
        assetId: { type: 'string' },
        gravity: { type: 'string', enum: ['NORTH', 'SOUTH', 'EAST', 'WEST', 'NORTH_EAST', 'NORTH_WEST', 'SOUTH_EAST', 'SOUTH_WEST', 'CENTER'], description: 'Default SOUTH_EAST.' },
        opacity: { type: 'number', exclusiveMinimum: 0, maximum: 1, description: 'Default 1.' },
        scale: { type: 'number', exclusiveMinimum: 0, maximum: 1, description: "Its width as a fraction of the result's; default 0.25." },
        offsetX: { type: 'integer', minimum: 0, maximum: 8192, description: 'Pixels away from the edge the gravity names (right from the centre where it names none); kept inside.' },
        offsetY: { type: 'integer', minimum: 0, maximum: 8192, description: 'Pixels away from the edge the gravity names (down from the centre where it names none); kept inside.' },
      },
    },
  },
};
const tag = { tags: ['assets'], 'x-scope': 'manage' as const };
const publicTag = { tags: ['asset delivery'], 'x-scope': 'public' as const, security: [] };
const binary = (types: string[], description: string) => ({ description, content: Object.fromEntries(types.map((t) => [t, { schema: { type: 'string', format: 'binary' } }])) });

export const assets: OpenApiFragment = {
  schemas: {
    PlayerConfig: {
      type: 'object',
      additionalProperties: false,
      required: ['id', 'title', 'type', 'orientation', 'aspectRatio', 'width', 'height', 'duration', 'sources', 'poster', 'embed'],
      properties: {
        id: { type: 'string' },
        title: { type: ['string', 'null'] },
        type: { type: 'string' },
        orientation: { type: 'string', enum: ['HORIZONTAL', 'VERTICAL'] },
        aspectRatio: { type: 'string', enum: ['16:9', '9:16'] },
        width: { type: ['integer', 'null'] },
        height: { type: ['integer', 'null'] },
        duration: { type: ['number', 'null'] },
        sources: { type: 'array', items: { type: 'object', required: ['src', 'type'], properties: { src: { type: 'string', format: 'uri' }, type: { type: 'string' } } } },
        poster: { type: ['string', 'null'], format: 'uri', description: 'A player-sized image URL of the poster (never enlarged past the source)' },
        embed: { type: 'object', required: ['html', 'js', 'json'], properties: { html: { type: 'string' }, js: { type: 'string' }, json: { type: 'string' } } },
      },
    },
    Asset: {
      type: 'object',
      properties: {
        id: { type: 'string' },
        versionId: { type: 'string' },
        type: { type: 'string', enum: ['IMAGE', 'FILE', 'VIDEO', 'VIDEO_PLAYLIST', 'AUDIO', 'PODCAST'] },
        title: nullableString,
        contentType: { type: 'string' },
        fileName: nullableString,
        path: nullableString,
        caption: nullableString,
        alt: nullableString,
        author: nullableString,
        source: nullableString,
        size: { type: 'integer', format: 'int64' },
        tags: { type: 'array', items: { type: 'string' } },
        externalId: nullableString,
        width: { type: ['integer', 'null'] },
        height: { type: ['integer', 'null'] },
        duration: { type: ['number', 'null'] },
        focalPoint: { oneOf: [focalPoint, { type: 'null' }] },
        focalPoints: ratioFocalPoints,
        suggestedFocalPoint: {
          oneOf: [focalPoint, { type: 'null' }],
          description: 'Where the subject of an image was found at upload (libvips attention): a suggestion for focalPoint, never used for crops; null for files, videos, SVG and images it could not be found in',
        },
        posterAssetId: nullableString,
        hasExtractedPoster: { type: 'boolean' },
        placeholder: { type: ['string', 'null'], description: 'A tiny blurred data: URI of an image (WebP, a few hundred bytes) to show while it loads; null for other assets' },
        url: { type: 'string', description: 'Signed URL of the original (/files/…)' },
        createdAt: { type: 'string', format: 'date-time' },
        updatedAt: { type: 'string', format: 'date-time' },
      },
    },
    // One object, not allOf: the options' additionalProperties: false would refuse name and updatedAt.
    ImagePreset: {
      type: 'object',
      additionalProperties: false,
      required: ['name', 'updatedAt'],
      properties: { name: { type: 'string' }, updatedAt: { type: 'string', format: 'date-time' }, ...presetOptions.properties },
    },
  },
  paths: {
    '/management/v1/assets': {
      post: {
        summary: 'Upload an asset (streamed; > 50 MP images refused before decoding)',
        ...tag,
        parameters: metadataQuery,
        requestBody: uploadBody,
        responses: { 201: created201(ref('Asset')), ...pick(400, 401, 403, 413, 422, 429) },
      },
      get: {
        summary: 'List assets, newest first',
        ...tag,
        parameters: [
          ...pagingParameters,
          { name: 'type', in: 'query', schema: { type: 'string' } },
          { name: 'search', in: 'query', schema: { type: 'string', maxLength: 200 }, description: 'Words each found in the title, file name or alt text (any case)' },
          { name: 'tag', in: 'query', schema: { type: 'string', maxLength: 100 }, description: 'Assets carrying this tag (any case)' },
        ],
        responses: { 200: ok200({ type: 'array', items: ref('Asset') }, true), ...pick(400, 401, 403, 429) },
      },
    },
    '/management/v1/assets/{id}': {
      get: { summary: 'Get an asset', ...tag, parameters: [pathParam('id')], responses: { 200: ok200(ref('Asset')), ...pick(401, 403, 404, 429) } },
      patch: {
        summary: 'Change metadata, focal points or the poster',
        ...tag,
        parameters: [pathParam('id')],
        requestBody: jsonBody({
          type: 'object',
          additionalProperties: false,
          properties: {
            fileName: { type: 'string' },
            title: nullableString,
            alt: nullableString,
            caption: nullableString,
            author: nullableString,
            source: nullableString,
            externalId: nullableString,
            path: nullableString,
            tags: { type: 'array', items: { type: 'string' } },
            focalPoint: { oneOf: [focalPoint, { type: 'null' }] },
            focalPoints: ratioFocalPoints,
            posterAssetId: { ...nullableString, description: 'An image asset of the org; video assets only' },
          },
        }),
        responses: { 200: ok200(ref('Asset')), ...pick(400, 401, 403, 404, 422, 429) },
      },
      delete: { summary: 'Delete an asset and its files', ...tag, parameters: [pathParam('id')], responses: { 200: ok200({ type: 'object' }), ...pick(401, 403, 404, 429) } },
    },
    '/management/v1/assets/{id}/content': {
      put: {
        summary: 'Upload new content (a new versionId)',
        ...tag,
        parameters: [pathParam('id'), ...metadataQuery],
        requestBody: uploadBody,
        responses: { 200: ok200(ref('Asset')), ...pick(400, 401, 403, 404, 413, 422, 429) },
      },
    },
    '/management/v1/image-presets': {
      get: { summary: 'List image presets', ...tag, responses: { 200: ok200({ type: 'array', items: ref('ImagePreset') }), ...pick(401, 403, 429) } },
    },
    '/management/v1/image-presets/{name}': {
      put: {
        summary: 'Create (201) or replace (200) an image preset',
        ...tag,
        parameters: [pathParam('name', { type: 'string', pattern: '^[a-z0-9][a-z0-9_-]{0,63}$' })],
        requestBody: jsonBody(presetOptions),
        responses: { 200: ok200(ref('ImagePreset')), 201: created201(ref('ImagePreset')), ...pick(400, 401, 403, 429) },
      },
      delete: { summary: 'Delete an image preset', ...tag, parameters: [pathParam('name')], responses: { 200: ok200({ type: 'object' }), ...pick(401, 403, 404, 429) } },
    },
    '/files/{sig}/{orgId}/{assetId}/{versionId}/{fileName}': {
      get: {
        summary: 'An original (public, signed; Range, ETag, long caching)',
        ...publicTag,
        parameters: ['sig', 'orgId', 'assetId', 'versionId', 'fileName'].map((n) => pathParam(n)),
        responses: { 200: binary(['*/*'], 'The file'), 206: binary(['*/*'], 'A byte range'), 304: { description: 'Not modified' }, ...pick(403, 404), 416: { description: 'Range not satisfiable' } },
      },
    },
    '/img/{sig}/{orgId}/{assetId}/{versionId}/{operations}.{ext}': {
      get: {
        summary: 'An image derivative (public, signed; grammar in the README)',
        ...publicTag,
        parameters: ['sig', 'orgId', 'assetId', 'versionId', 'operations', 'ext'].map((n) => pathParam(n)),
        responses: {
          200: binary(['image/jpeg', 'image/png', 'image/webp', 'image/avif', 'image/gif'], 'The derivative; X-Cache: HIT|MISS'),
          304: { description: 'Not modified' },
          ...pick(400, 403, 404, 422, 503),
          429: {
            ...errors[429],
            description:
              "A miss refused, with Retry-After: the organization's transforms in progress use its share of the transform workers (IMAGE_TRANSFORM_SHARE_SECONDS of estimated work), or its minute's budget of transform megapixels is spent. Hits are never limited",
          },
          504: { description: 'The transform did not finish in time' },
        },
      },
    },
    '/embed/{orgId}/{file}': {
      get: {
        summary: 'Video embed: {assetId}.html (player page), .js (mount script) or .json (configuration)',
        ...publicTag,
        parameters: [pathParam('orgId'), pathParam('file'), { name: 'orientation', in: 'query', schema: { type: 'string', enum: ['horizontal', 'vertical'] } }],
        responses: {
          200: {
            description: 'The embed: the player page (.html), the mount script (.js) or the player configuration (.json)',
            content: { ...binary(['text/html', 'application/javascript'], '').content, 'application/json': { schema: ref('PlayerConfig') } },
          },
          ...pick(400, 404),
        },
      },
    },
  },
};
