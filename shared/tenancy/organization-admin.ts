import type { EventBus } from '../adapters/bus/index.js';
import type { Db } from '../adapters/db/index.js';
import { conflict, notFound } from '../errors/index.js';
import { findDeletion, type DeletionStatus } from './organization-deletion.js';
import { findOrganization, setSuspended, type Organization } from './organization-repository.js';
import type { Suspensions } from './suspensions.js';
import { listMembers, type Member } from '../people/membership-repository.js';
import { createToken, type TokenRecord } from './token-repository.js';

// The platform operator's actions on one organization (`/admin/v1/organizations/{id}/…`):
// recovering access with a new manage token, listing its members, suspending and resuming.

/** A new `manage` token for an existing organization: how a lost one is recovered. 404 unknown, 409 while deleting. */
export async function issueManageToken(db: Db, orgId: string, input: { name: string; expiresAt?: Date }): Promise<TokenRecord & { token: string }> {
  return db.transaction(async (tx) => {
    const org = await findOrganization(tx, orgId);
    if (!org) throw notFound('Organization');
    if (org.status === 'deleting') throw conflict('This organization is being deleted.');
    return createToken(tx, orgId, { name: input.name, scopes: ['manage'], expiresAt: input.expiresAt });
  });
}

/** The organization's members, paged, for the operator (404 for an unknown organization; a suspended one still answers). */
export async function organizationMembers(db: Db, orgId: string, page: { offset: number; limit: number }): Promise<{ items: Member[]; total: number }> {
  if (!(await findOrganization(db, orgId))) throw notFound('Organization');
  return listMembers(db, orgId, page);
}

/**
 * Suspends or resumes the organization, then makes every instance re-read the suspended ones:
 * this one before answering, the others on the bus message (or within their 2 s re-read).
 */
export async function changeSuspension(
  deps: { db: Db; bus: EventBus; suspensions: Suspensions; warn: (err: unknown) => void },
  orgId: string,
  change: { suspend: true; reason: string | null } | { suspend: false },
): Promise<Organization> {
  const org = await setSuspended(deps.db, orgId, change);
  await announceSuspension(deps, orgId);
  return org;
}

/** This instance re-reads the suspended organizations now; the others on the bus message. */
export async function announceSuspension(deps: { bus: EventBus; suspensions: Suspensions; warn: (err: unknown) => void }, orgId: string): Promise<void> {
  await deps.suspensions.refresh();
  await deps.bus.publish('organization-suspended', { orgId }).catch(deps.warn);
}

/** What `GET /admin/v1/organizations/{id}` shows: the organization, or its deletion once it is gone. */
export type OrganizationState = (Organization & { deletion: DeletionStatus | null }) | { id: string; slug: string; status: DeletionStatus['status']; deletion: DeletionStatus };

export async function organizationState(db: Db, orgId: string): Promise<OrganizationState> {
  const [org, deletion] = await Promise.all([findOrganization(db, orgId), findDeletion(db, orgId)]);
  if (org) return { ...org, deletion };
  // its rows are gone: deleted, or (for the moment the job records what it removed) still deleting
  if (deletion) return { id: deletion.id, slug: deletion.slug, status: deletion.status, deletion };
  throw notFound('Organization');
}
