import type { Queryable } from '../adapters/db/index.js';
import { notFound } from '../errors/index.js';
import { newId } from '../ids.js';
import { BUILT_IN_RULES, NO_RIGHTS, isBuiltInRole, scopesOfRules, type RoleRules } from './roles.js';
import type { TokenIdentity } from '../tenancy/context.js';
import { DELIVERY_SETTINGS_COLUMNS, deliverySettingsOf, type DeliverySettingsRow } from '../tenancy/delivery-settings.js';
import { ORG_ADMISSION } from '../tenancy/organization-repository.js';
import { hashSecret, newSessionToken } from './secret-links.js';

/** Sessions: opaque tokens stored hashed, one organization each (chosen at sign-in). */

export const SESSION_TTL_MS = 14 * 24 * 3600_000;

export interface SessionRecord {
  id: string;
  organizationId: string;
  method: string;
  userAgent: string | null;
  clientAddress: string | null;
  createdAt: Date;
  expiresAt: Date;
  revokedAt: Date | null;
}

interface SessionRow {
  id: string;
  org_id: string;
  method: string;
  user_agent: string | null;
  client_address: string | null;
  created_at: Date;
  expires_at: Date;
  revoked_at: Date | null;
}

const toRecord = (r: SessionRow): SessionRecord => ({
  id: r.id,
  organizationId: r.org_id,
  method: r.method,
  userAgent: r.user_agent,
  clientAddress: r.client_address,
  createdAt: r.created_at,
  expiresAt: r.expires_at,
  revokedAt: r.revoked_at,
});

const COLUMNS = 'id, org_id, method, user_agent, client_address, created_at, expires_at, revoked_at';

export async function createSession(
  tx: Queryable,
  input: { personId: string; orgId: string; method: 'password' | 'sso'; userAgent?: string; clientAddress: string },
): Promise<SessionRecord & { token: string }> {
  const token = newSessionToken();
  const { rows } = await tx.query<SessionRow>(
    `INSERT INTO sessions (id, person_id, org_id, hash, method, user_agent, client_address, expires_at)
     VALUES ($1, $2, $3, $4, $5, $6, $7, now() + $8 * interval '1 millisecond') RETURNING ${COLUMNS}`,
    [newId(), input.personId, input.orgId, hashSecret(token), input.method, input.userAgent?.slice(0, 500) ?? null, input.clientAddress, SESSION_TTL_MS],
  );
  return { ...toRecord(rows[0]), token };
}

export async function listSessions(db: Queryable, personId: string): Promise<SessionRecord[]> {
  const { rows } = await db.query<SessionRow>(
    `SELECT ${COLUMNS} FROM sessions WHERE person_id = $1 AND revoked_at IS NULL AND expires_at > now() ORDER BY created_at DESC, id LIMIT 200`,
    [personId],
  );
  return rows.map(toRecord);
}

/** Revokes one of the person's sessions; returns its hash so caches can evict it. */
export async function revokeSession(db: Queryable, personId: string, sessionId: string): Promise<{ hash: Buffer }> {
  const { rows } = await db.query<{ hash: Buffer | Uint8Array }>(
    'UPDATE sessions SET revoked_at = coalesce(revoked_at, now()) WHERE person_id = $1 AND id = $2 RETURNING hash',
    [personId, sessionId],
  );
  if (!rows[0]) throw notFound('Session');
  return { hash: Buffer.from(rows[0].hash) };
}

/** Revokes every session of the person (a password reset); their hashes, to evict. */
export async function revokeAllSessions(db: Queryable, personId: string): Promise<Buffer[]> {
  const { rows } = await db.query<{ hash: Buffer | Uint8Array }>(
    'UPDATE sessions SET revoked_at = now() WHERE person_id = $1 AND revoked_at IS NULL RETURNING hash',
    [personId],
  );
  return rows.map((r) => Buffer.from(r.hash));
}

import type { MemberIdentity } from './member-identity.js';

export type { MemberIdentity };

/**
 * The identity of a live session: its organization as a token's would be, with the member and
 * their role's rules; null when the session is unknown, revoked, expired, or the membership gone.
 */
export async function findActiveSession(db: Queryable, hash: Buffer): Promise<(TokenIdentity & { member: MemberIdentity }) | null> {
  const { rows } = await db.query<{
    id: string;
    org_id: string;
    slug: string;
    person_id: string;
    email: string;
    name: string | null;
    role: string;
    custom_rules: RoleRules | null;
    allowed_origins: string[] | null;
  } & DeliverySettingsRow>(
    `SELECT s.id, s.org_id, o.slug, p.id AS person_id, p.email, p.name, m.role, r.rules AS custom_rules,
            o.allowed_origins, ${DELIVERY_SETTINGS_COLUMNS}
     FROM sessions s
     JOIN people p ON p.id = s.person_id
     JOIN memberships m ON m.org_id = s.org_id AND m.person_id = s.person_id
     JOIN ${ORG_ADMISSION} o ON o.id = s.org_id
     LEFT JOIN roles r ON r.org_id = m.org_id AND m.role = 'custom:' || r.id
     WHERE s.hash = $1 AND s.revoked_at IS NULL AND s.expires_at > now()`,
    [hash],
  );
  const r = rows[0];
  if (!r) return null;
  const rules = isBuiltInRole(r.role) ? BUILT_IN_RULES[r.role] : (r.custom_rules ?? NO_RIGHTS);
  return {
    tokenId: r.id,
    orgId: r.org_id,
    orgSlug: r.slug,
    scopes: scopesOfRules(rules),
    publishable: false,
    allowedOrigins: r.allowed_origins,
    delivery: deliverySettingsOf(r),
    member: { id: r.person_id, email: r.email, name: r.name, role: r.role, rules, sessionId: r.id, credential: 'session' },
  };
}
