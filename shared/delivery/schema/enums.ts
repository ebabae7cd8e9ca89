import { GraphQLEnumType } from 'graphql';
import { ASSET_TYPES, ENTRY_STATUSES } from '../../content/model-types.js';

const enumOf = (name: string, values: readonly string[], description?: string) =>
  new GraphQLEnumType({ name, description, values: Object.fromEntries(values.map((v) => [v, { value: v }])) });

export const CmsOrderDirection = enumOf('CmsOrderDirection', ['ASC', 'DESC']);
export const CmsEntryStatus = enumOf('CmsEntryStatus', ENTRY_STATUSES);
export const CmsAssetType = enumOf('CmsAssetType', ASSET_TYPES);
export const CmsImageTransformationResize = enumOf('CmsImageTransformationResize', ['FIT', 'FILL', 'AUTO']);
export const CmsImageTransformationGravity = enumOf('CmsImageTransformationGravity', [
  'NORTH',
  'SOUTH',
  'EAST',
  'WEST',
  'NORTH_EAST',
  'NORTH_WEST',
  'SOUTH_EAST',
  'SOUTH_WEST',
  'CENTER',
]);
export const CmsVideoTransformationFormat = enumOf('CmsVideoTransformationFormat', ['THUMBNAIL', 'HTML', 'JS', 'JSON']);
export const CmsVideoTransformationOrientation = enumOf('CmsVideoTransformationOrientation', ['HORIZONTAL', 'VERTICAL']);
