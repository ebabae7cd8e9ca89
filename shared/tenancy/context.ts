import type { Scope } from './scopes.js';

/** Who is calling: resolved once from the bearer token by the auth middleware. */
export interface TokenIdentity {
  orgId: string;
  orgSlug: string;
  tokenId: string;
  scopes: Scope[];
  /** The organization's allowed web origins (CORS), or null for any. */
  allowedOrigins: string[] | null;
}

export interface TenantContext extends TokenIdentity {
  requestId: string;
}
