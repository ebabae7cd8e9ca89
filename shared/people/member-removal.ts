import { recordAudit } from '../audit/record-audit.js';
import type { Services } from '../services.js';
import { forgetMember } from './forget-member.js';
import { keepAnOwner } from './last-owner.js';
import { getMember, type Member } from './membership-repository.js';
import { authorizeOwnerChange } from './policy.js';
import type { Inviter } from './people-service.js';

type Deps = Pick<Services, 'db' | 'auth' | 'bus' | 'logger'>;

/**
 * Ends a membership: the member's sessions and personal access tokens in the organization are
 * revoked in the same transaction (a later invitation does not bring an old token back), audited
 * as `member.removed`. The last owner stays: an organization without one could not make another.
 */
export async function removeMember(services: Deps, orgId: string, actor: Inviter, memberId: string): Promise<Member> {
  const removed = await services.db.transaction(async (tx) => {
    const member = await getMember(tx, orgId, memberId);
    authorizeOwnerChange(actor, member, 'remove');
    await keepAnOwner(tx, orgId, member);
    await tx.query('DELETE FROM memberships WHERE org_id = $1 AND person_id = $2', [orgId, memberId]);
    const sessions = await tx.query('UPDATE sessions SET revoked_at = now() WHERE org_id = $1 AND person_id = $2 AND revoked_at IS NULL', [orgId, memberId]);
    const tokens = await tx.query('UPDATE tokens SET revoked_at = now() WHERE org_id = $1 AND person_id = $2 AND revoked_at IS NULL', [orgId, memberId]);
    await recordAudit(tx, orgId, [
      {
        action: 'member.removed',
        subject: { type: 'member', id: memberId },
        changes: { email: member.email, role: member.role, sessionsRevoked: sessions.rowCount, tokensRevoked: tokens.rowCount },
      },
    ]);
    return member;
  });
  await forgetMember(services, orgId, memberId);
  return removed;
}
