import type { Queryable } from '../adapters/db/index.js';
import { createInvitation } from '../people/link-repository.js';

/** Who the demo organization's sign-in link is for. */
export const DEMO_MEMBER_EMAIL = 'owner@demo.example';

/**
 * While nobody has joined the demo organization, a new invitation for its owner at each start:
 * the banner prints its link (the Studio's page where one chooses a password), so a fresh
 * `npm start` can sign in to the Studio. The token is shown once and kept only as a hash; once
 * someone has joined, there is none. Embedded mode only, as the demo itself.
 */
export async function demoOwnerInvitation(db: Queryable, orgId: string): Promise<string | null> {
  const { rows } = await db.query('SELECT 1 FROM memberships WHERE org_id = $1 LIMIT 1', [orgId]);
  if (rows.length > 0) return null;
  return (await createInvitation(db, orgId, { email: DEMO_MEMBER_EMAIL, role: 'owner' })).token;
}
