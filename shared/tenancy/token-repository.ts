import type { Queryable } from '../adapters/db/index.js';
import { notFound } from '../errors/index.js';
import { newId } from '../ids.js';
import type { TokenIdentity } from './context.js';
import type { Scope } from './scopes.js';
import { generateToken, hashToken } from './token-format.js';

export interface TokenRecord {
  id: string;
  name: string;
  scopes: Scope[];
  publishable: boolean;
  createdAt: Date;
  revokedAt: Date | null;
  lastUsedAt: Date | null;
}

interface TokenRow {
  id: string;
  name: string;
  scopes: Scope[];
  publishable: boolean;
  created_at: Date;
  revoked_at: Date | null;
  last_used_at: Date | null;
}

const toRecord = (r: TokenRow): TokenRecord => ({
  id: r.id,
  name: r.name,
  scopes: r.scopes,
  publishable: r.publishable,
  createdAt: r.created_at,
  revokedAt: r.revoked_at,
  lastUsedAt: r.last_used_at,
});

/** Creates a token; the plain value is returned here once and never stored. */
export async function createToken(
  db: Queryable,
  orgId: string,
  input: { name: string; scopes: Scope[]; publishable?: boolean },
): Promise<TokenRecord & { token: string }> {
  const token = generateToken(input.publishable ? 'publishable' : 'secret');
  const { rows } = await db.query<TokenRow>(
    `INSERT INTO tokens (id, org_id, name, scopes, hash, publishable) VALUES ($1, $2, $3, $4, $5, $6)
     RETURNING id, name, scopes, publishable, created_at, revoked_at, last_used_at`,
    [newId(), orgId, input.name, input.scopes, hashToken(token), input.publishable === true],
  );
  return { ...toRecord(rows[0]), token };
}

export async function listTokens(db: Queryable, orgId: string, page: { offset: number; limit: number }) {
  const [items, total] = await Promise.all([
    db.query<TokenRow>(
      `SELECT id, name, scopes, publishable, created_at, revoked_at, last_used_at FROM tokens
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

export async function findActiveToken(db: Queryable, hash: Buffer): Promise<TokenIdentity | null> {
  const { rows } = await db.query<{
    id: string;
    org_id: string;
    slug: string;
    scopes: Scope[];
    publishable: boolean;
    allowed_origins: string[] | null;
    cache_max_age: number;
    cache_stale_while_revalidate: number;
    trusted_documents: boolean;
  }>(
    `SELECT t.id, t.org_id, o.slug, t.scopes, t.publishable, o.allowed_origins, o.cache_max_age, o.cache_stale_while_revalidate, o.trusted_documents
     FROM tokens t JOIN organizations o ON o.id = t.org_id
     WHERE t.hash = $1 AND t.revoked_at IS NULL`,
    [hash],
  );
  const r = rows[0];
  if (!r) return null;
  return {
    tokenId: r.id,
    orgId: r.org_id,
    orgSlug: r.slug,
    scopes: r.scopes,
    publishable: r.publishable,
    allowedOrigins: r.allowed_origins,
    delivery: { maxAge: r.cache_max_age, staleWhileRevalidate: r.cache_stale_while_revalidate, trustedDocuments: r.trusted_documents },
  };
}
