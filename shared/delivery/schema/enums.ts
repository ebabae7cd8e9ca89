import { GraphQLEnumType } from 'graphql';
import { FLIPS, GRAVITIES, ORIENTATIONS, RESIZE_MODES, SMART_CROPS, VIDEO_FORMATS } from '../../assets/types.js';
import { IMAGE_FORMAT_INPUTS } from '../../assets/build-asset-url.js';
import { ASSET_TYPES, ENTRY_STATUSES } from '../../content/model-types.js';

const enumOf = (name: string, values: readonly string[], description?: string) =>
  new GraphQLEnumType({ name, description, values: Object.fromEntries(values.map((v) => [v, { value: v }])) });

export const CmsOrderDirection = enumOf('CmsOrderDirection', ['ASC', 'DESC']);
export const CmsEntryStatus = enumOf('CmsEntryStatus', ENTRY_STATUSES);
export const CmsAssetType = enumOf('CmsAssetType', ASSET_TYPES);
export const CmsImageTransformationResize = enumOf('CmsImageTransformationResize', RESIZE_MODES);
export const CmsImageTransformationGravity = enumOf('CmsImageTransformationGravity', GRAVITIES);
export const CmsVideoTransformationFormat = enumOf('CmsVideoTransformationFormat', VIDEO_FORMATS);
export const CmsImageSmartCrop = enumOf('CmsImageSmartCrop', SMART_CROPS);
export const CmsImageFlip = enumOf('CmsImageFlip', FLIPS);
export const CmsImageFormat = enumOf('CmsImageFormat', IMAGE_FORMAT_INPUTS);
export const CmsVideoTransformationOrientation = enumOf('CmsVideoTransformationOrientation', ORIENTATIONS);
