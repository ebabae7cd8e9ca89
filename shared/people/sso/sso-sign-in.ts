import { recordAudit } from '../../audit/record-audit.js';
import { forbidden, notFound, unauthenticated } from '../../errors/index.js';
import type { Services } from '../../services.js';
import { assertNotSuspended } from '../../tenancy/suspensions.js';
import { addMembership, ensurePerson, normalizeEmail } from '../membership-repository.js';
import { openSession, type SignedIn } from '../people-service.js';
import { forgetMember } from '../forget-member.js';
import { authorizationUrl, exchangeCode, failureReason, issuerConfiguration, issuerOptionsOf, type Claims } from './oidc-client.js';
import { PENDING_TTL_MS, type PendingCookie } from './pending-cookie.js';
import { checkedReturnTo } from './return-to.js';
import { findOrganization, findOrganizationBySlug } from '../../tenancy/organization-repository.js';
import { findSsoSettings, type SsoSettings } from './sso-settings-repository.js';
import { ssoRedirectUri } from './sso-settings-service.js';

// Signing in through the organization's issuer: the start (a redirect with state, nonce and PKCE)
// and the callback (the code exchanged and checked, the member created just in time, a session).

type Deps = Pick<Services, 'db' | 'config' | 'secrets' | 'suspensions'>;
/** The callback also drops the member's cached credentials when the provider changed their role. */
type CallbackDeps = Deps & Pick<Services, 'auth' | 'bus' | 'logger'>;

async function settingsOfOrganization(db: Deps['db'], organization: string): Promise<{ orgId: string; slug: string; settings: SsoSettings }> {
  const org = (await findOrganization(db, organization)) ?? (await findOrganizationBySlug(db, organization));
  const settings = org ? await findSsoSettings(db, org.id) : null;
  if (!org || !settings) throw notFound('Single sign-on for this organization');
  return { orgId: org.id, slug: org.slug, settings };
}

/** The issuer's authorization URL, and the pending attempt the browser keeps until the callback. */
export async function startSsoSignIn(services: Deps, organization: string, returnTo: string | undefined, options: { test?: boolean } = {}): Promise<{ redirect: URL; pending: PendingCookie }> {
  const target = checkedReturnTo(returnTo, services.config.publicBaseUrl);
  const { orgId, settings } = await settingsOfOrganization(services.db, organization);
  assertNotSuspended(services.suspensions, orgId);
  const config = await issuerConfiguration(settings, issuerOptionsOf(services.config));
  const { url, pending } = await authorizationUrl(config, ssoRedirectUri(services.config.publicBaseUrl));
  return { redirect: url, pending: { ...pending, orgId, returnTo: target, expiresAt: Date.now() + PENDING_TTL_MS, ...(options.test ? { test: true } : {}) } };
}

/** The claim's values as strings (a claim may be a string or a list). */
const claimValues = (claims: Claims, name: string | null): string[] => {
  if (!name) return [];
  const v = claims[name];
  return Array.isArray(v) ? v.filter((x): x is string => typeof x === 'string') : typeof v === 'string' ? [v] : [];
};

/** The role the claims map to (the first mapping whose value the claim holds), or null. */
export function mappedRole(settings: Pick<SsoSettings, 'roleClaim' | 'roleMappings'>, claims: Claims): string | null {
  const held = new Set(claimValues(claims, settings.roleClaim));
  return settings.roleMappings.find((m) => held.has(m.value))?.role ?? null;
}

/** The email of the claims when the issuer vouches for it and its domain is allowed; 403 otherwise. */
export function allowedEmail(settings: Pick<SsoSettings, 'allowedDomains'>, claims: Claims): string {
  const email = typeof claims.email === 'string' ? normalizeEmail(claims.email) : '';
  if (!email.includes('@')) throw forbidden('The identity provider gave no email address for this account, so it cannot be a member.');
  if (claims.email_verified === false) throw forbidden(`The identity provider has not verified ${email}; verify it there and sign in again.`);
  const domain = email.slice(email.lastIndexOf('@') + 1);
  if (!settings.allowedDomains.includes(domain)) {
    throw forbidden(`${email} may not sign in to this organization: only addresses of ${settings.allowedDomains.join(', ')} are allowed.`);
  }
  return email;
}

/** The issuer's answer to `pending` verified (state, nonce, PKCE), its email allowed: the settings, the email and the mapped role. */
async function verifiedAnswer(services: Deps, pending: PendingCookie, callbackQuery: string): Promise<{ settings: SsoSettings; email: string; mapped: string | null }> {
  assertNotSuspended(services.suspensions, pending.orgId);
  const settings = await findSsoSettings(services.db, pending.orgId);
  if (!settings) throw notFound('Single sign-on for this organization');
  const config = await issuerConfiguration(settings, issuerOptionsOf(services.config));
  const callbackUrl = new URL(`${ssoRedirectUri(services.config.publicBaseUrl)}?${callbackQuery}`);
  let claims: Claims;
  try {
    claims = await exchangeCode(config, callbackUrl, pending);
  } catch (err) {
    throw unauthenticated(`The identity provider's answer could not be verified (${failureReason(err)}); start the sign-in again.`);
  }
  return { settings, email: allowedEmail(settings, claims), mapped: mappedRole(settings, claims) };
}

/** The role a sign-in gives: a member's own, unless single sign-on made them and a mapping applies; a newcomer's mapped or default role. */
const roleAt = (current: { role: string; source: string } | undefined, mapped: string | null, settings: SsoSettings): string =>
  current && !(current.source === 'sso' && mapped !== null) ? current.role : (mapped ?? settings.defaultRole);

/**
 * A test sign-in's result: the answer is verified as for a real one and the page says who would
 * sign in with which role, but nothing is written (no member, no session), so an admin can try the
 * settings without losing their own session.
 */
export async function testSsoSignIn(services: Deps, pending: PendingCookie, callbackQuery: string): Promise<{ email: string; role: string; member: boolean; returnTo: string }> {
  const { settings, email, mapped } = await verifiedAnswer(services, pending, callbackQuery);
  const { rows } = await services.db.query<{ role: string; source: string }>(
    `SELECT m.role, m.source FROM memberships m JOIN people p ON p.id = m.person_id WHERE m.org_id = $1 AND p.email = $2`,
    [pending.orgId, email],
  );
  return { email, role: roleAt(rows[0], mapped, settings), member: rows.length > 0, returnTo: pending.returnTo };
}

/**
 * Finishes the sign-in of `pending` with the issuer's answer (`callbackQuery`): the code is
 * exchanged (state, nonce and PKCE checked by openid-client), the email checked against the
 * allowed domains, the member created just in time (a mapped role, else the default role; a
 * member created by single sign-on follows the mapping at every sign-in), and a session opened —
 * the same session a password sign-in opens.
 */
export async function finishSsoSignIn(
  services: CallbackDeps,
  pending: PendingCookie,
  callbackQuery: string,
  client: { address: string; userAgent?: string },
): Promise<SignedIn & { returnTo: string }> {
  const { settings, email, mapped } = await verifiedAnswer(services, pending, callbackQuery);
  let roleChanged: string | null = null;
  const signed = await services.db.transaction(async (tx) => {
    const person = await ensurePerson(tx, email);
    const actor = { type: 'member' as const, id: person.id, name: person.email };
    const { rows } = await tx.query<{ role: string; source: string }>('SELECT role, source FROM memberships WHERE org_id = $1 AND person_id = $2 FOR UPDATE', [
      pending.orgId,
      person.id,
    ]);
    const current = rows[0];
    const role = roleAt(current, mapped, settings);
    if (!current) {
      await addMembership(tx, pending.orgId, person.id, role, 'sso');
      await recordAudit(tx, pending.orgId, [{ action: 'member.joined', subject: { type: 'member', id: person.id }, changes: { role, source: 'sso' }, actor }]);
    } else if (role !== current.role) {
      roleChanged = person.id;
      await tx.query('UPDATE memberships SET role = $3 WHERE org_id = $1 AND person_id = $2', [pending.orgId, person.id, role]);
      await recordAudit(tx, pending.orgId, [
        { action: 'member.role_changed', subject: { type: 'member', id: person.id }, changes: { role: { before: current.role, after: role }, source: 'sso' }, actor },
      ]);
    }
    const signed = await openSession(tx, services, { person, orgId: pending.orgId, role, method: 'sso', client });
    return { ...signed, returnTo: pending.returnTo };
  });
  if (roleChanged !== null) await forgetMember(services, pending.orgId, roleChanged);
  return signed;
}
