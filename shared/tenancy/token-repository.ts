import type { Queryable } from '../adapters/db/index.js';
import { conflict, notFound } from '../errors/index.js';
import { newId } from '../ids.js';
import type { TokenIdentity } from './context.js';
import { DELIVERY_SETTINGS_COLUMNS, deliverySettingsOf, type DeliverySettingsRow } from './delivery-settings.js';
import { ORG_ADMISSION } from './organization-repository.js';
import type { Scope } from './scopes.js';
import { BUILT_IN_RULES, isBuiltInRole, NO_RIGHTS, scopesOfRules, type RoleRules } from '../people/roles.js';
import { generateToken, hashToken } from './token-format.js';

export interface TokenRecord {
  id: string;
  name: string;
  scopes: Scope[];
  publishable: boolean;
  createdAt: Date;
  revokedAt: Date | null;
  /** Written at most once a minute per token and instance (see token-usage.ts). */
  lastUsedAt: Date | null;
  /** After this the token is refused (401, saying it expired); null: never. */
  expiresAt: Date | null;
  /** The token a rotation issued in its place. */
  replacedBy: string | null;
  /** The role the token acts under (then `scopes` is empty), or null: its scopes decide. */
  role: string | null;
  /** A member's personal access token: the person it acts as, under their membership's role. */
  personId: string | null;
}

interface TokenRow {
  id: string;
  name: string;
  scopes: Scope[];
  publishable: boolean;
  created_at: Date;
  revoked_at: Date | null;
  last_used_at: Date | null;
  expires_at: Date | null;
  replaced_by: string | null;
  role: string | null;
  person_id: string | null;
}

const COLUMNS = 'id, name, scopes, publishable, created_at, revoked_at, last_used_at, expires_at, replaced_by, role, person_id';

const toRecord = (r: TokenRow): TokenRecord => ({
  id: r.id,
  name: r.name,
  scopes: r.scopes,
  publishable: r.publishable,
  createdAt: r.created_at,
  revokedAt: r.revoked_at,
  lastUsedAt: r.last_used_at,
  expiresAt: r.expires_at,
  replacedBy: r.replaced_by,
  role: r.role,
  personId: r.person_id,
});

/** Creates a token; the plain value is returned here once and never stored. */
export async function createToken(
  db: Queryable,
  orgId: string,
  input: { name: string; scopes: Scope[]; publishable?: boolean; expiresAt?: Date | null; role?: string | null; personId?: string | null },
): Promise<TokenRecord & { token: string }> {
  const token = generateToken(input.publishable ? 'publishable' : 'secret');
  const { rows } = await db.query<TokenRow>(
    `INSERT INTO tokens (id, org_id, name, scopes, hash, publishable, expires_at, role, person_id) VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9)
     RETURNING ${COLUMNS}`,
    [newId(), orgId, input.name, input.scopes, hashToken(token), input.publishable === true, input.expiresAt ?? null, input.role ?? null, input.personId ?? null],
  );
  return { ...toRecord(rows[0]), token };
}

export async function listTokens(db: Queryable, orgId: string, page: { offset: number; limit: number }) {
  const [items, total] = await Promise.all([
    db.query<TokenRow>(
      `SELECT ${COLUMNS} FROM tokens
       WHERE org_id = $1 ORDER BY created_at, id LIMIT $2 OFFSET $3`,
      [orgId, page.limit, page.offset],
    ),
    db.query<{ n: number }>('SELECT count(*)::int AS n FROM tokens WHERE org_id = $1', [orgId]),
  ]);
  return { items: items.rows.map(toRecord), total: total.rows[0].n };
}

/** Marks the token revoked and returns its hash so caches can evict it. */
export async function revokeToken(db: Queryable, orgId: string, tokenId: string): Promise<{ hash: Buffer }> {
  const { rows } = await db.query<{ hash: Buffer | Uint8Array }>(
    `UPDATE tokens SET revoked_at = coalesce(revoked_at, now()) WHERE org_id = $1 AND id = $2 RETURNING hash`,
    [orgId, tokenId],
  );
  if (rows.length === 0) throw notFound('Token');
  return { hash: Buffer.from(rows[0].hash) };
}

/** A token found by its hash, whether or not it has expired (the caller says which it is). */
export interface FoundToken {
  identity: TokenIdentity;
  expiresAt: Date | null;
  /** Set when a rotation replaced it: its expiry is the end of the overlap. */
  replacedBy: string | null;
}

/**
 * The unrevoked token of `hash`, expired or not, with its organization's settings. A token with a
 * role acts under the role's rules (its scopes derived from them); a personal access token acts
 * as its member under the membership's role, and is not found once the membership is gone.
 */
export async function findActiveToken(db: Queryable, hash: Buffer): Promise<FoundToken | null> {
  const { rows } = await db.query<{
    id: string;
    org_id: string;
    slug: string;
    scopes: Scope[];
    publishable: boolean;
    expires_at: Date | null;
    replaced_by: string | null;
    role: string | null;
    person_id: string | null;
    email: string | null;
    person_name: string | null;
    member_role: string | null;
    custom_rules: RoleRules | null;
    allowed_origins: string[] | null;
  } & DeliverySettingsRow>(
    `SELECT t.id, t.org_id, o.slug, t.scopes, t.publishable, t.expires_at, t.replaced_by, t.role, t.person_id,
            p.email, p.name AS person_name, m.role AS member_role, r.rules AS custom_rules,
            o.allowed_origins, ${DELIVERY_SETTINGS_COLUMNS}
     FROM tokens t JOIN ${ORG_ADMISSION} o ON o.id = t.org_id
     LEFT JOIN people p ON p.id = t.person_id
     LEFT JOIN memberships m ON m.org_id = t.org_id AND m.person_id = t.person_id
     LEFT JOIN roles r ON r.org_id = t.org_id AND 'custom:' || r.id = COALESCE(m.role, t.role)
     WHERE t.hash = $1 AND t.revoked_at IS NULL`,
    [hash],
  );
  const r = rows[0];
  if (!r) return null;
  if (r.person_id !== null && r.member_role === null) return null;
  const role = r.member_role ?? r.role;
  const rules = role === null ? undefined : isBuiltInRole(role) ? BUILT_IN_RULES[role] : (r.custom_rules ?? NO_RIGHTS);
  return {
    identity: {
      tokenId: r.id,
      orgId: r.org_id,
      orgSlug: r.slug,
      scopes: rules ? scopesOfRules(rules) : r.scopes,
      publishable: r.publishable,
      allowedOrigins: r.allowed_origins,
      delivery: deliverySettingsOf(r),
      ...(r.person_id !== null && rules
        ? { member: { id: r.person_id, email: r.email!, name: r.person_name, role: role!, rules, sessionId: r.id, credential: 'personal-token' as const } }
        : rules
          ? { role: role!, rules }
          : {}),
    },
    expiresAt: r.expires_at,
    replacedBy: r.replaced_by,
  };
}

/**
 * Issues a token with the same name, scopes and kind in place of `tokenId`, and lets the old one
 * work until `overlapSeconds` from now (or its own earlier expiry). The new token's expiry is
 * `expiresAt` when given, else the old token's lifetime again (none if it had none). A revoked,
 * expired or already rotated token is not rotated (409): the chain of replacements stays linear.
 */
export async function rotateToken(
  db: Queryable,
  orgId: string,
  tokenId: string,
  input: { overlapSeconds: number; expiresAt?: Date },
): Promise<{ token: TokenRecord & { token: string }; previous: TokenRecord; previousHash: Buffer }> {
  const { rows } = await db.query<TokenRow & { expired: boolean }>(
    `SELECT ${COLUMNS}, expires_at <= now() AS expired FROM tokens WHERE org_id = $1 AND id = $2 FOR UPDATE`,
    [orgId, tokenId],
  );
  const old = rows[0];
  if (!old) throw notFound('Token');
  if (old.revoked_at) throw conflict('This token is revoked; create a new one instead.');
  if (old.expired) throw conflict('This token has expired; create a new one instead.');
  if (old.replaced_by) throw conflict(`This token was already rotated (replaced by ${old.replaced_by}).`);
  const lifetimeMs = old.expires_at ? old.expires_at.getTime() - old.created_at.getTime() : null;
  const expiresAt = input.expiresAt ?? (lifetimeMs === null ? null : new Date(Date.now() + lifetimeMs));
  const token = await createToken(db, orgId, { name: old.name, scopes: old.scopes, publishable: old.publishable, expiresAt, role: old.role, personId: old.person_id });
  const updated = await db.query<TokenRow & { hash: Buffer | Uint8Array }>(
    `UPDATE tokens SET replaced_by = $3,
       expires_at = least(coalesce(expires_at, 'infinity'), now() + make_interval(secs => $4::int))
     WHERE org_id = $1 AND id = $2 RETURNING ${COLUMNS}, hash`,
    [orgId, tokenId, token.id, input.overlapSeconds],
  );
  return { token, previous: toRecord(updated.rows[0]), previousHash: Buffer.from(updated.rows[0].hash) };
}
