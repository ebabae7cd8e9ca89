import type { Queryable } from '../adapters/db/index.js';
import { AppError } from '../errors/index.js';
import { newId } from '../ids.js';
import { hashSecret, isWellFormedLinkToken, newLinkToken } from './secret-links.js';

/** One-time links: invitations to an organization and password resets, stored hashed. */

export const INVITATION_TTL_MS = 7 * 24 * 3600_000;
export const RESET_TTL_MS = 3600_000;

const expiredLink = (what: string) => new AppError('UNAUTHENTICATED', `The ${what} link is unknown, used or expired; ask for a new one.`);

export interface Invitation {
  id: string;
  email: string;
  role: string;
  expiresAt: Date;
}

export async function createInvitation(tx: Queryable, orgId: string, input: { email: string; role: string }): Promise<Invitation & { token: string }> {
  const token = newLinkToken();
  const { rows } = await tx.query<{ id: string; expires_at: Date }>(
    `INSERT INTO invitations (id, org_id, email, role, hash, expires_at) VALUES ($1, $2, $3, $4, $5, now() + $6 * interval '1 millisecond')
     RETURNING id, expires_at`,
    [newId(), orgId, input.email, input.role, hashSecret(token), INVITATION_TTL_MS],
  );
  return { id: rows[0].id, email: input.email, role: input.role, expiresAt: rows[0].expires_at, token };
}

/** Marks the invitation of `token` accepted and returns it, or throws 401 (unknown, used or expired). */
export async function takeInvitation(tx: Queryable, token: string): Promise<Invitation & { orgId: string }> {
  if (!isWellFormedLinkToken(token)) throw expiredLink('invitation');
  const { rows } = await tx.query<{ id: string; org_id: string; email: string; role: string; expires_at: Date }>(
    `UPDATE invitations SET accepted_at = now() WHERE hash = $1 AND accepted_at IS NULL AND expires_at > now()
     RETURNING id, org_id, email, role, expires_at`,
    [hashSecret(token)],
  );
  const r = rows[0];
  if (!r) throw expiredLink('invitation');
  return { id: r.id, orgId: r.org_id, email: r.email, role: r.role, expiresAt: r.expires_at };
}

export async function createPasswordReset(tx: Queryable, personId: string): Promise<string> {
  const token = newLinkToken();
  await tx.query(`INSERT INTO password_resets (hash, person_id, expires_at) VALUES ($1, $2, now() + $3 * interval '1 millisecond')`, [hashSecret(token), personId, RESET_TTL_MS]);
  return token;
}

/** Marks the reset of `token` used and returns its person, or throws 401. */
export async function takePasswordReset(tx: Queryable, token: string): Promise<string> {
  if (!isWellFormedLinkToken(token)) throw expiredLink('password reset');
  const { rows } = await tx.query<{ person_id: string }>(
    'UPDATE password_resets SET used_at = now() WHERE hash = $1 AND used_at IS NULL AND expires_at > now() RETURNING person_id',
    [hashSecret(token)],
  );
  if (!rows[0]) throw expiredLink('password reset');
  return rows[0].person_id;
}
