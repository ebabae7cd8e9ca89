/** The kinds of asset, as `CmsAsset.type` names them. */
export const ASSET_TYPES = ['IMAGE', 'FILE', 'VIDEO', 'VIDEO_PLAYLIST', 'AUDIO', 'PODCAST'] as const;
export type AssetType = (typeof ASSET_TYPES)[number];
