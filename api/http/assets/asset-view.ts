import { buildAssetUrl } from '../../../shared/assets/build-asset-url.js';
import type { Asset } from '../../../shared/assets/types.js';
import type { Services } from '../../../shared/services.js';

const NO_PRESETS = new Map();

/** The REST shape of an asset: stored fields plus the original's public URL. */
export function assetView(services: Services, asset: Asset) {
  return {
    id: asset.id,
    versionId: asset.versionId,
    type: asset.type,
    title: asset.title,
    contentType: asset.contentType,
    fileName: asset.fileName,
    path: asset.path,
    caption: asset.caption,
    alt: asset.alt,
    author: asset.author,
    source: asset.source,
    size: asset.size,
    tags: asset.tags,
    externalId: asset.externalId,
    width: asset.width,
    height: asset.height,
    duration: asset.duration,
    focalPoint: asset.focalPoint,
    focalPoints: asset.focalPoints,
    suggestedFocalPoint: asset.suggestedFocalPoint,
    posterAssetId: asset.posterAssetId,
    hasExtractedPoster: asset.posterKey !== null,
    placeholder: asset.placeholder,
    url: buildAssetUrl({ asset, orgId: asset.orgId }, { baseUrl: services.config.publicBaseUrl, secret: services.secrets.signing, presets: NO_PRESETS }),
    createdAt: asset.createdAt,
    updatedAt: asset.updatedAt,
  };
}
