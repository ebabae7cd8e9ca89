import type { Queryable } from '../adapters/db/index.js';
import { conflict } from '../errors/index.js';

/**
 * Refuses (409) to leave the organization without an owner: called, inside the transaction, before
 * the member who is `before` stops being one (removed, or given another role). The owners' rows are
 * locked, so two such changes of the last two owners cannot both pass the count.
 */
export async function keepAnOwner(tx: Queryable, orgId: string, before: { role: string }): Promise<void> {
  if (before.role !== 'owner') return;
  const owners = await tx.query<{ person_id: string }>("SELECT person_id FROM memberships WHERE org_id = $1 AND role = 'owner' FOR UPDATE", [orgId]);
  if (owners.rows.length <= 1) throw conflict('This member is the last owner: make another member an owner first.');
}
