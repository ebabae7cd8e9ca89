import type { Scope } from './scopes.js';

/** Who is calling: resolved once from the bearer token by the auth middleware. */
export interface TokenIdentity {
  orgId: string;
  orgSlug: string;
  tokenId: string;
  scopes: Scope[];
}

export interface TenantContext extends TokenIdentity {
  requestId: string;
}
