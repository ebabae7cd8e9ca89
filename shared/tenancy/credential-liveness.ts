import type { Queryable } from '../adapters/db/index.js';

/**
 * Whether the credential a request was admitted with still admits it now: the API token (or a
 * member's session) is neither revoked nor expired. For what outlives its request — an open
 * subscription — asked again before each answer, since a preview link's token is short-lived.
 * A member's personal access token is a row of `tokens`; only a session is one of `sessions`.
 */
export async function isCredentialLive(db: Queryable, identity: { tokenId: string; orgId: string; member?: { credential: 'session' | 'personal-token' } }): Promise<boolean> {
  const table = identity.member?.credential === 'session' ? 'sessions' : 'tokens';
  const { rows } = await db.query(
    `SELECT 1 FROM ${table} WHERE id = $1 AND org_id = $2 AND revoked_at IS NULL AND (expires_at IS NULL OR expires_at > now())`,
    [identity.tokenId, identity.orgId],
  );
  return rows.length > 0;
}
