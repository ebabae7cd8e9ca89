import type { PublishableImageLimits } from '../assets/publishable-image-limits.js';
import type { ImageWatermark } from '../assets/types.js';
import type { MemberIdentity } from '../people/member-identity.js';
import type { Scope } from './scopes.js';
import type { RoleRules } from '../people/roles.js';

/** Who is calling: resolved once from the bearer token by the auth middleware. */
export interface TokenIdentity {
  orgId: string;
  orgSlug: string;
  tokenId: string;
  scopes: Scope[];
  /** A publishable key (`folio_pk_…`): delivery of published content, may travel in a URL. */
  publishable: boolean;
  /** The organization's allowed web origins (CORS), or null for any. */
  allowedOrigins: string[] | null;
  /** The organization's delivery settings: HTTP caching of GraphQL GETs, trusted documents. */
  delivery: DeliverySettings;
  /** A member signed in (a session, whose id is `tokenId`, or a personal access token), acting under their role; absent for API tokens. */
  member?: MemberIdentity;
  /** An API token that carries a role: its name and rules (the policy's); absent for scope tokens. */
  role?: string;
  rules?: RoleRules;
}

export interface DeliverySettings {
  /** Cache-Control max-age of a cacheable delivery response, seconds. */
  maxAge: number;
  /** Cache-Control stale-while-revalidate, seconds. */
  staleWhileRevalidate: number;
  /** Delivery (not preview) runs only registered documents. */
  trustedDocuments: boolean;
  /** What the org's publishable keys may ask of images (other tokens are not limited). */
  publishableImages: PublishableImageLimits;
  /** Drawn over every derivative whose transformation and preset name no overlay (null: none). */
  imageWatermark: ImageWatermark | null;
}

export interface TenantContext extends TokenIdentity {
  requestId: string;
}
