import { createHash, randomUUID } from 'node:crypto';
import type { Queryable } from '../adapters/db/index.js';
import { notFound } from '../errors/index.js';
import { randomBase62 } from '../ids.js';
import { isUuid } from '../tenancy/project-repository.js';

// Shared links (Postgres): the only statements naming their table. A link's secret (43 base62
// characters, ~256 bits) is shown once; its SHA-256 finds the link.

export interface SharedLink {
  id: string;
  distributionId: string;
  name: string;
  expiresAt: Date;
  revokedAt: Date | null;
  createdAt: Date;
}

type Row = { id: string; distribution_id: string; name: string; expires_at: Date; revoked_at: Date | null; created_at: Date };
const toLink = (r: Row): SharedLink => ({ id: r.id, distributionId: r.distribution_id, name: r.name, expiresAt: r.expires_at, revokedAt: r.revoked_at, createdAt: r.created_at });
const hashOf = (secret: string) => createHash('sha256').update(secret).digest();
const COLUMNS = 'id, distribution_id, name, expires_at, revoked_at, created_at';

type Who = { orgId: string; distributionId: string };

/** The new link and its secret (never stored, never answered again). */
export async function insertSharedLink(db: Queryable, who: Who, input: { name: string; expiresAt: Date }): Promise<{ link: SharedLink; secret: string }> {
  const secret = randomBase62(43);
  const { rows } = await db.query<Row>(
    `INSERT INTO analytics_shared_links (org_id, distribution_id, id, name, secret_hash, expires_at) VALUES ($1, $2, $3, $4, $5, $6) RETURNING ${COLUMNS}`,
    [who.orgId, who.distributionId, randomUUID(), input.name, hashOf(secret), input.expiresAt],
  );
  return { link: toLink(rows[0]), secret };
}

export async function listSharedLinks(db: Queryable, who: Who): Promise<SharedLink[]> {
  const { rows } = await db.query<Row>(
    `SELECT ${COLUMNS} FROM analytics_shared_links WHERE org_id = $1 AND distribution_id = $2 ORDER BY created_at, id`,
    [who.orgId, who.distributionId],
  );
  return rows.map(toLink);
}

/** Revokes the link (404 when it is not this distribution's); revoking twice keeps the first time. */
export async function revokeSharedLink(db: Queryable, who: Who, id: string): Promise<SharedLink> {
  if (!isUuid(id)) throw notFound('Shared link');
  const { rows } = await db.query<Row>(
    `UPDATE analytics_shared_links SET revoked_at = COALESCE(revoked_at, now()) WHERE org_id = $1 AND distribution_id = $2 AND id = $3 RETURNING ${COLUMNS}`,
    [who.orgId, who.distributionId, id],
  );
  if (!rows[0]) throw notFound('Shared link');
  return toLink(rows[0]);
}

/**
 * Whose distribution a link's secret opens: 404 for an unknown, revoked or expired link alike
 * (the holder of a dead link learns nothing of what it was).
 */
export async function resolveSharedLink(db: Queryable, secret: string): Promise<{ orgId: string; link: SharedLink }> {
  if (!/^[A-Za-z0-9]{43}$/.test(secret)) throw notFound('Shared link');
  const { rows } = await db.query<Row & { org_id: string }>(
    `SELECT org_id, ${COLUMNS} FROM analytics_shared_links WHERE secret_hash = $1 AND revoked_at IS NULL AND expires_at > now()`,
    [hashOf(secret)],
  );
  if (!rows[0]) throw notFound('Shared link');
  return { orgId: rows[0].org_id, link: toLink(rows[0]) };
}
