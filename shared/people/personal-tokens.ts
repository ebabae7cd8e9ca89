import type { Queryable } from '../adapters/db/index.js';
import { notFound } from '../errors/index.js';
import { createToken, type TokenRecord } from '../tenancy/token-repository.js';

// A member's personal access tokens: API tokens that act as the member, under their membership's
// role at the time of use (see findActiveToken), in one organization, and always expire.

const COLUMNS = 'id, name, created_at, revoked_at, last_used_at, expires_at';

export interface PersonalToken {
  id: string;
  name: string;
  createdAt: Date;
  revokedAt: Date | null;
  lastUsedAt: Date | null;
  expiresAt: Date;
}

type Row = { id: string; name: string; created_at: Date; revoked_at: Date | null; last_used_at: Date | null; expires_at: Date };
const toToken = (r: Row): PersonalToken => ({ id: r.id, name: r.name, createdAt: r.created_at, revokedAt: r.revoked_at, lastUsedAt: r.last_used_at, expiresAt: r.expires_at });
const personal = (t: TokenRecord): PersonalToken => ({ id: t.id, name: t.name, createdAt: t.createdAt, revokedAt: t.revokedAt, lastUsedAt: t.lastUsedAt, expiresAt: t.expiresAt! });

export async function createPersonalToken(db: Queryable, orgId: string, personId: string, input: { name: string; expiresAt: Date }): Promise<PersonalToken & { token: string }> {
  const created = await createToken(db, orgId, { name: input.name, scopes: [], expiresAt: input.expiresAt, personId });
  return { ...personal(created), token: created.token };
}

/** The member's unrevoked tokens in the organization, expired ones included (until revoked). */
export async function listPersonalTokens(db: Queryable, orgId: string, personId: string): Promise<PersonalToken[]> {
  const { rows } = await db.query<Row>(
    `SELECT ${COLUMNS} FROM tokens WHERE org_id = $1 AND person_id = $2 AND revoked_at IS NULL ORDER BY created_at DESC, id LIMIT 200`,
    [orgId, personId],
  );
  return rows.map(toToken);
}

/** Revokes one of the member's own tokens (404 for anyone else's); its hash, to evict caches. */
export async function revokePersonalToken(db: Queryable, orgId: string, personId: string, tokenId: string): Promise<{ hash: Buffer }> {
  const { rows } = await db.query<{ hash: Buffer | Uint8Array }>(
    'UPDATE tokens SET revoked_at = coalesce(revoked_at, now()) WHERE org_id = $1 AND person_id = $2 AND id = $3 RETURNING hash',
    [orgId, personId, tokenId],
  );
  if (!rows[0]) throw notFound('Token');
  return { hash: Buffer.from(rows[0].hash) };
}
