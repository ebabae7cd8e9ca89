import type { ImageWatermark } from '../assets/types.js';
import type { Queryable } from '../adapters/db/index.js';
import type { PublishableImageLimits } from '../assets/publishable-image-limits.js';
import type { DeliveryScope } from './filters/filter-env.js';
import { ReadSet } from '../edge/surrogate-keys.js';
import type { EntryTrafficReader } from '../analytics/entry-traffic-reader.js';
import type { OrgLocales } from '../content/locale-types.js';
import { createLoaders, type DeliveryLoaders, type OrgModels } from './loaders.js';
import { LocaleReads } from './locale-reads.js';
import type { LiveChanges } from './live-changes.js';

/** What every resolver of the generated schema reads: the tenant, its scope, batching. */
export interface DeliveryContext {
  db: Queryable;
  orgId: string;
  scope: DeliveryScope;
  models: OrgModels;
  /** HMAC key for continuation tokens and asset URLs (`services.secrets.signing`). */
  signing: Buffer;
  /** Base of absolute asset URLs (PUBLIC_BASE_URL). */
  publicBaseUrl: string;
  loaders: DeliveryLoaders;
  /** What this request read, for its surrogate keys (the loaders and collections record it). */
  reads: ReadSet;
  /** Which locale each value of a localized query was read in. */
  locale: LocaleReads;
  /** Traffic per entry, for a token that also has the analytics scope; null otherwise. */
  traffic: EntryTrafficReader | null;
  /** What a publishable key may ask of images (the org's delivery settings); null for other tokens. */
  imageLimits: PublishableImageLimits | null;
  /** The organization's watermark, drawn over derivatives that name no overlay (its delivery settings). */
  imageWatermark?: ImageWatermark | null;
  /** Committed entry changes, for subscriptions; absent where nothing serves them. */
  live?: {
    changes: LiveChanges;
    /** Whether the caller's token (or session) still admits it: asked before each answer of a subscription. */
    stillAdmitted: () => Promise<boolean>;
  };
}

export function createDeliveryContext(args: Omit<DeliveryContext, 'loaders' | 'reads' | 'locale'>): DeliveryContext {
  const reads = new ReadSet();
  return { ...args, reads, loaders: createLoaders(args.db, args.orgId, args.scope, reads), locale: new LocaleReads(args.models) };
}

export function orgModels(list: OrgModels['list'], locales: OrgLocales | null = null): OrgModels {
  return { list, byAlias: new Map(list.map((m) => [m.alias, m])), locales };
}
