import type { Queryable } from '../adapters/db/index.js';
import { recordAudit } from '../audit/record-audit.js';
import { forbidden, rateLimited, unauthenticated } from '../errors/index.js';
import type { Services } from '../services.js';
import { ORG_NAMES } from '../tenancy/organization-repository.js';
import { addMembership, createRole, ensurePerson, findPersonByEmail, getMember, normalizeEmail, resolveRole, setMemberRole, setPassword, type CustomRole, type Member } from './membership-repository.js';
import type { RoleRules } from './roles.js';
import { createInvitation, createPasswordReset, INVITATION_TTL_MS, takeInvitation, takePasswordReset } from './link-repository.js';
import { checkPasswordStrength, hashPassword, verifyPassword } from './passwords.js';
import { createSession, revokeAllSessions, revokeSession, type SessionRecord } from './session-repository.js';
import { csrfTokenOf } from './csrf.js';
import { isSsoOnly } from './sso/sso-settings-repository.js';
import { checkSecondFactor } from './second-factor-service.js';
import { forgetMember } from './forget-member.js';
import { keepAnOwner } from './last-owner.js';
import { authorizeOwnerChange } from './policy.js';
import type { MemberIdentity } from './session-repository.js';

/** Members' flows: invitations, sign-in, sessions, password resets and roles. */

type Deps = Pick<Services, 'db' | 'bus' | 'auth' | 'mailer' | 'config' | 'logger' | 'secrets' | 'rateLimiter'>;

/** Who invites: a member (only an owner makes owners) or a token with the manage scope. */
export interface Inviter {
  member?: Pick<MemberIdentity, 'id' | 'role'>;
}

export async function invite(services: Deps, orgId: string, inviter: Inviter, input: { email: string; role: string }) {
  const email = normalizeEmail(input.email);
  const result = await services.db.transaction(async (tx) => {
    const role = await resolveRole(tx, orgId, input.role);
    if (role === 'owner' && inviter.member && inviter.member.role !== 'owner') throw forbidden('Only an owner may invite an owner.');
    const invitation = await createInvitation(tx, orgId, { email, role });
    await recordAudit(tx, orgId, [{ action: 'member.invited', subject: { type: 'invitation', id: invitation.id }, changes: { email, role } }]);
    return invitation;
  });
  const url = `${services.config.publicBaseUrl}/auth/invitations/accept?token=${result.token}`;
  let emailed = false;
  if (services.mailer.enabled) {
    await services.mailer.send({
      to: email,
      subject: 'You are invited to Folio',
      text: `You are invited to join an organization on Folio as ${input.role}.\n\nAccept within ${INVITATION_TTL_MS / 86_400_000} days: ${url}\n`,
    });
    emailed = true;
  }
  return { id: result.id, email, role: result.role, expiresAt: result.expiresAt, url, token: result.token, emailed };
}

/** Accepts an invitation: the person gets a password (a new one) or proves theirs, and the membership. */
export async function acceptInvitation(services: Deps, input: { token: string; password: string }) {
  return services.db.transaction(async (tx) => {
    const invitation = await takeInvitation(tx, input.token);
    const person = await ensurePerson(tx, invitation.email);
    if (person.passwordHash === null) {
      checkPasswordStrength(input.password);
      await setPassword(tx, person.id, await hashPassword(input.password));
    } else if (!(await verifyPassword(person.passwordHash, input.password))) {
      throw unauthenticated('This email has a Folio account already: accept with its password.');
    }
    await addMembership(tx, invitation.orgId, person.id, invitation.role, 'invitation');
    await recordAudit(tx, invitation.orgId, [
      { action: 'member.joined', subject: { type: 'member', id: person.id }, changes: { role: invitation.role }, actor: { type: 'member', id: person.id, name: person.email } },
    ]);
    return { memberId: person.id, email: person.email, organizationId: invitation.orgId, role: invitation.role };
  });
}

/** Failed sign-ins of one account, within one window, before 429. */
export const ACCOUNT_FAILURES = { max: 10, windowMs: 15 * 60_000 };

const wrongCredentials = () => unauthenticated('The email or password is wrong.');

/**
 * Takes one attempt from the account's window, or returns the seconds until it may try again.
 * Atomic (one UPDATE), so concurrent guesses on every instance share the count: an attempt counts
 * as failed until it succeeds.
 */
async function takeAttempt(services: Deps, personId: string): Promise<number | null> {
  const { rows } = await services.db.query<{ ok: boolean; retry: number }>(
    `WITH cur AS (
       SELECT id, (failed_since IS NOT NULL AND failed_since > now() - $2 * interval '1 millisecond') AS in_window, failed_sign_ins, failed_since
       FROM people WHERE id = $1 FOR UPDATE
     ), upd AS (
       UPDATE people p SET
         failed_sign_ins = CASE WHEN cur.in_window THEN cur.failed_sign_ins + 1 ELSE 1 END,
         failed_since = CASE WHEN cur.in_window THEN cur.failed_since ELSE now() END
       FROM cur WHERE p.id = cur.id AND NOT (cur.in_window AND cur.failed_sign_ins >= $3)
       RETURNING p.id
     )
     SELECT EXISTS (SELECT 1 FROM upd) AS ok,
            COALESCE((SELECT ceil(extract(epoch FROM (cur.failed_since + $2 * interval '1 millisecond' - now())))::int FROM cur), 1) AS retry`,
    [personId, ACCOUNT_FAILURES.windowMs, ACCOUNT_FAILURES.max],
  );
  return rows[0].ok ? null : Math.max(1, rows[0].retry);
}

export interface SignedIn {
  session: SessionRecord;
  token: string;
  csrfToken: string;
  member: { id: string; email: string; organizationId: string; role: string };
}

/**
 * Email and password → a session in one organization (`organization`: its id or slug; by default
 * the person's oldest membership). Limited per account (10 failures in 15 minutes) and per client
 * address (the failed-authentication bucket): past either, 429 with Retry-After.
 */
export async function signIn(
  services: Deps,
  input: { email: string; password: string; organization?: string; code?: string },
  client: { address: string; userAgent?: string },
): Promise<SignedIn> {
  const addressKey = `sign-in-failures:${client.address}`;
  const failedFromAddress = async () => {
    const d = await services.rateLimiter.consume(addressKey, 1, services.config.authFailures).catch(() => null);
    if (d && !d.allowed) throw rateLimited(d.retryAfterSeconds, 'Too many failed sign-ins from this address; retry later.');
  };
  const person = await findPersonByEmail(services.db, input.email);
  if (!person) {
    await verifyPassword(null, input.password);
    await failedFromAddress();
    throw wrongCredentials();
  }
  const wait = await takeAttempt(services, person.id);
  if (wait !== null) throw rateLimited(wait, 'Too many failed sign-ins for this account; retry later.');
  if (!(await verifyPassword(person.passwordHash, input.password))) {
    await failedFromAddress();
    throw wrongCredentials();
  }
  // a missing or wrong second factor counts as a failed sign-in (the account's count is reset only below)
  await checkSecondFactor(services.db, person, input.code).catch(async (err: unknown) => {
    await failedFromAddress();
    throw err;
  });
  return services.db.transaction(async (tx) => {
    await tx.query('UPDATE people SET failed_sign_ins = 0, failed_since = NULL WHERE id = $1', [person.id]);
    const { rows } = await tx.query<{ org_id: string; slug: string; role: string }>(
      `SELECT m.org_id, o.slug, m.role FROM memberships m JOIN ${ORG_NAMES} o ON o.id = m.org_id
       WHERE m.person_id = $1 AND ($2::text IS NULL OR o.id = $2 OR o.slug = $2) ORDER BY m.created_at LIMIT 1`,
      [person.id, input.organization ?? null],
    );
    if (!rows[0]) throw forbidden(input.organization ? 'You are not a member of this organization.' : 'You are not a member of any organization.');
    if (await isSsoOnly(tx, rows[0].org_id)) {
      throw forbidden(`This organization signs in through single sign-on only: open /auth/sso/${rows[0].slug}/start in the browser.`);
    }
    return openSession(tx, services, { person, orgId: rows[0].org_id, role: rows[0].role, method: 'password', client });
  });
}

/** Opens a member's session (a password or a single sign-on sign-in), audited as theirs. */
export async function openSession(
  tx: Queryable,
  services: Pick<Deps, 'secrets'>,
  input: { person: { id: string; email: string }; orgId: string; role: string; method: 'password' | 'sso'; client: { address: string; userAgent?: string } },
): Promise<SignedIn> {
  const { person, orgId, method, client } = input;
  const created = await createSession(tx, { personId: person.id, orgId, method, userAgent: client.userAgent, clientAddress: client.address });
  await recordAudit(tx, orgId, [
    { action: 'session.created', subject: { type: 'session', id: created.id }, changes: method === 'sso' ? { method } : null, actor: { type: 'member', id: person.id, name: person.email } },
  ]);
  const { token, ...session } = created;
  return {
    session,
    token,
    csrfToken: csrfTokenOf(services.secrets.signing, token),
    member: { id: person.id, email: person.email, organizationId: orgId, role: input.role },
  };
}

/** Revokes sessions on this instance at once and on the others through the bus (or within the TTL). */
async function forgetSessions(services: Deps, revoked: { id: string; hash: Buffer }[]): Promise<void> {
  for (const { id, hash } of revoked) {
    services.auth.evictSession(hash);
    await services.bus.publish('session-revoked', { sessionId: id, hash: hash.toString('hex') }).catch((err: unknown) => {
      services.logger.warn({ err }, 'session revocation broadcast failed; other instances drop it within the cache TTL');
    });
  }
}

export async function endSession(services: Deps, member: MemberIdentity, sessionId: string, orgId: string): Promise<void> {
  const { hash } = await services.db.transaction(async (tx) => {
    const revoked = await revokeSession(tx, member.id, sessionId);
    await recordAudit(tx, orgId, [{ action: 'session.revoked', subject: { type: 'session', id: sessionId } }]);
    return revoked;
  });
  await forgetSessions(services, [{ id: sessionId, hash }]);
}

/**
 * Sends a reset link when the email has an account and mail is configured. The answer is the same
 * either way, so it does not tell who has an account.
 */
export async function requestPasswordReset(services: Deps, email: string): Promise<void> {
  if (!services.mailer.enabled) return;
  const person = await findPersonByEmail(services.db, email);
  if (!person) return;
  const token = await createPasswordReset(services.db, person.id);
  const url = `${services.config.publicBaseUrl}/auth/password-reset/confirm?token=${token}`;
  await services.mailer.send({
    to: person.email,
    subject: 'Reset your Folio password',
    text: `Someone (hopefully you) asked to reset the password of ${person.email} on Folio.\n\nWithin an hour, POST {"token": "${token}", "password": "…"} to ${services.config.publicBaseUrl}/auth/password-reset/confirm\n(link: ${url}).\n\nIf it was not you, ignore this mail.\n`,
  });
}

/** Sets a new password with a reset token; every session of the person ends. */
export async function resetPassword(services: Deps, input: { token: string; password: string }): Promise<void> {
  checkPasswordStrength(input.password);
  const passwordHash = await hashPassword(input.password);
  const revoked = await services.db.transaction(async (tx) => {
    const personId = await takePasswordReset(tx, input.token);
    await setPassword(tx, personId, passwordHash);
    const { rows } = await tx.query<{ id: string; hash: Buffer | Uint8Array }>(
      'SELECT id, hash FROM sessions WHERE person_id = $1 AND revoked_at IS NULL',
      [personId],
    );
    await revokeAllSessions(tx, personId);
    return rows.map((r) => ({ id: r.id, hash: Buffer.from(r.hash) }));
  });
  await forgetSessions(services, revoked);
}

export async function changeMemberRole(services: Deps, orgId: string, actor: Inviter, memberId: string, role: string): Promise<Member> {
  const changed = await services.db.transaction(async (tx) => {
    const stored = await resolveRole(tx, orgId, role);
    authorizeOwnerChange(actor, { role: stored }, 'make');
    const current = await getMember(tx, orgId, memberId);
    authorizeOwnerChange(actor, current, 'change the role of');
    if (stored !== 'owner') await keepAnOwner(tx, orgId, current);
    const { before, member } = await setMemberRole(tx, orgId, memberId, stored);
    await recordAudit(tx, orgId, [{ action: 'member.role_changed', subject: { type: 'member', id: memberId }, changes: { role: { before, after: stored } } }]);
    return member;
  });
  // the member's cached sessions and personal tokens carry the old role: dropped on every instance
  await forgetMember(services, orgId, memberId);
  return changed;
}

export async function createCustomRole(services: Deps, orgId: string, input: { name: string; rules: RoleRules }): Promise<CustomRole> {
  return services.db.transaction(async (tx) => {
    const made = await createRole(tx, orgId, input);
    await recordAudit(tx, orgId, [{ action: 'role.created', subject: { type: 'role', id: made.id }, changes: { name: made.name, rules: made.rules } }]);
    return made;
  });
}
