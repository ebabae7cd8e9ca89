import type { PublishableImageLimits, PublishableImageSizes } from '../assets/publishable-image-limits.js';
import type { ImageWatermark } from '../assets/types.js';
import type { DeliverySettings, TokenIdentity } from './context.js';

// The organization's delivery settings as every token and session lookup reads them (one list of
// columns, one mapping), and what they mean for one caller.

/** The columns of `organizations` that `deliverySettingsOf` maps. */
export const DELIVERY_SETTINGS_FIELDS = ['cache_max_age', 'cache_stale_while_revalidate', 'trusted_documents', 'publishable_image_sizes', 'publishable_image_presets', 'image_watermark'] as const;

/** The same columns of `organizations o`, for a SELECT list. */
export const DELIVERY_SETTINGS_COLUMNS = DELIVERY_SETTINGS_FIELDS.map((f) => `o.${f}`).join(', ');

export interface DeliverySettingsRow {
  cache_max_age: number;
  cache_stale_while_revalidate: number;
  trusted_documents: boolean;
  publishable_image_sizes: PublishableImageSizes | null;
  publishable_image_presets: string[] | null;
  image_watermark: ImageWatermark | null;
}

export function deliverySettingsOf(r: DeliverySettingsRow): DeliverySettings {
  return {
    maxAge: r.cache_max_age,
    staleWhileRevalidate: r.cache_stale_while_revalidate,
    trustedDocuments: r.trusted_documents,
    publishableImages: { sizes: r.publishable_image_sizes, presets: r.publishable_image_presets },
    imageWatermark: r.image_watermark,
  };
}

/** The image limits this caller is held to: a publishable key's when its org set any, else null. */
export function publishableImageLimitsOf(identity: TokenIdentity): PublishableImageLimits | null {
  const limits = identity.delivery.publishableImages;
  return identity.publishable && (limits.sizes !== null || limits.presets !== null) ? limits : null;
}

/**
 * What tells a cached answer's image URLs apart: '' for callers without limits or watermark, else
 * the limits and the organization's watermark (an answer minted under others is not this caller's).
 */
export function imageLimitsKey(identity: TokenIdentity): string {
  const limits = publishableImageLimitsOf(identity);
  const mark = identity.delivery.imageWatermark;
  return limits || mark ? JSON.stringify([limits, mark]) : '';
}
