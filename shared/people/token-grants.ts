import type { Db } from '../adapters/db/index.js';
import { forbidden, unprocessable } from '../errors/index.js';
import type { TokenIdentity } from '../tenancy/context.js';
import type { Scope } from '../tenancy/scopes.js';
import { createToken, type TokenRecord } from '../tenancy/token-repository.js';
import { resolveRole, rulesOfRole } from './membership-repository.js';
import { hasRole, policyActorOf, rulesOf, rulesWithin } from './policy.js';
import { NO_RIGHTS } from './roles.js';

// Creating an API token: by scopes, as before, or with a role (its rules decide, and its scopes
// follow from them). A member or a role token gives a new token no more rights than its own.

export interface TokenGrant {
  name: string;
  scopes?: Scope[];
  role?: string;
  publishable: boolean;
  expiresAt?: Date;
}

export async function createGrantedToken(db: Db, creator: TokenIdentity, input: TokenGrant): Promise<TokenRecord & { token: string }> {
  return db.transaction(async (tx) => {
    const role = input.role === undefined ? null : await resolveRole(tx, creator.orgId, input.role);
    if (role === 'owner') throw unprocessable('role: a token cannot be an owner (give it admin).');
    if (hasRole(creator)) {
      const granted = role === null ? rulesOf({ scopes: input.scopes ?? [] }) : ((await rulesOfRole(tx, creator.orgId, role)) ?? NO_RIGHTS);
      if (!rulesWithin(granted, rulesOf(policyActorOf(creator)))) throw forbidden('Your role may not create a token with rights it does not have.');
    }
    return createToken(tx, creator.orgId, { name: input.name, scopes: role === null ? (input.scopes ?? []) : [], publishable: input.publishable, expiresAt: input.expiresAt, role });
  });
}
