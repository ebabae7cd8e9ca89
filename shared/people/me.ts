import type { Queryable } from '../adapters/db/index.js';
import type { TenantContext } from '../tenancy/context.js';
import { ORG_NAMES } from '../tenancy/organization-repository.js';

/** `GET /auth/me`: the signed-in member, the session's organization and role, and every membership. */
export async function describeMe(db: Queryable, tenant: TenantContext) {
  const member = tenant.member!;
  const factor = await db.query<{ on: boolean }>('SELECT totp_secret IS NOT NULL AS on FROM people WHERE id = $1', [member.id]);
  const { rows } = await db.query<{ org_id: string; slug: string; name: string; role: string }>(
    `SELECT m.org_id, o.slug, o.name, m.role FROM memberships m JOIN ${ORG_NAMES} o ON o.id = m.org_id
     WHERE m.person_id = $1 ORDER BY m.created_at`,
    [member.id],
  );
  return {
    id: member.id,
    email: member.email,
    name: member.name,
    organization: { id: tenant.orgId, slug: tenant.orgSlug },
    role: member.role,
    rules: member.rules,
    sessionId: member.sessionId,
    credential: member.credential,
    secondFactor: factor.rows[0]?.on === true,
    memberships: rows.map((r) => ({ organizationId: r.org_id, slug: r.slug, name: r.name, role: r.role })),
  };
}
