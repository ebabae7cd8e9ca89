import { recordAudit } from '../../audit/record-audit.js';
import { notFound, unprocessable } from '../../errors/index.js';
import type { Services } from '../../services.js';
import { resolveRole } from '../membership-repository.js';
import { issuerConfiguration, issuerOptionsOf, issuerProblem } from './oidc-client.js';
import type { SsoSettingsInput } from './sso-input.js';
import { deleteSsoSettings, findSsoSettings, saveSsoSettings, type RoleMapping, type SsoSettings } from './sso-settings-repository.js';

// Reading and changing an organization's single sign-on settings. The client secret is written,
// never read back: answers say only whether one is set, and the audit row says only that it changed.

type Deps = Pick<Services, 'db' | 'config'>;

/** The settings as answered: without the secret, with what the issuer's client needs to know. */
export function publicSsoSettings(s: SsoSettings, publicBaseUrl: string, slug: string) {
  return {
    issuer: s.issuer,
    clientId: s.clientId,
    clientSecretSet: s.clientSecret !== '',
    allowedDomains: s.allowedDomains,
    defaultRole: s.defaultRole,
    roleClaim: s.roleClaim,
    roleMappings: s.roleMappings,
    ssoOnly: s.ssoOnly,
    redirectUri: ssoRedirectUri(publicBaseUrl),
    startUrl: `${publicBaseUrl}/auth/sso/${encodeURIComponent(slug)}/start`,
    updatedAt: s.updatedAt,
  };
}

/** The one redirect URI of every organization's client (the issuer's client registers it). */
export const ssoRedirectUri = (publicBaseUrl: string): string => `${publicBaseUrl}/auth/sso/callback`;

export async function getSsoSettings(db: Deps['db'], orgId: string): Promise<SsoSettings> {
  const found = await findSsoSettings(db, orgId);
  if (!found) throw notFound('Single sign-on settings');
  return found;
}

/** A role single sign-on may give: a built-in one but owner, or a custom one of the organization. */
async function grantableRole(db: Deps['db'], orgId: string, role: string, field: string): Promise<string> {
  const stored = await resolveRole(db, orgId, role);
  if (stored === 'owner') throw unprocessable(`${field}: single sign-on cannot make owners (an owner changes a member's role).`);
  return stored;
}

/** Before/after of every setting that changed; the secret only as changed. */
function changesOf(before: SsoSettings | null, after: SsoSettings): Record<string, unknown> {
  const changes: Record<string, unknown> = {};
  const fields = ['issuer', 'clientId', 'allowedDomains', 'defaultRole', 'roleClaim', 'roleMappings', 'ssoOnly'] as const;
  for (const f of fields) {
    const b = before ? before[f] : null;
    if (JSON.stringify(b) !== JSON.stringify(after[f])) changes[f] = { before: b, after: after[f] };
  }
  if (!before || before.clientSecret !== after.clientSecret) changes.clientSecret = { changed: true };
  return changes;
}

/**
 * Creates or replaces the settings (the secret is kept when the input has none). The issuer is
 * discovered first, so a wrong URL or an unreachable issuer is a 422 now rather than a broken
 * sign-in later.
 */
export async function putSsoSettings(services: Deps, orgId: string, input: SsoSettingsInput): Promise<SsoSettings> {
  const problem = issuerProblem(input.issuer, issuerOptionsOf(services.config));
  if (problem) throw unprocessable('The single sign-on settings are invalid.', [problem]);
  if (input.roleMappings.length > 0 && input.roleClaim === null) throw unprocessable('The single sign-on settings are invalid.', ['roleClaim: required with roleMappings']);
  const current = await findSsoSettings(services.db, orgId);
  const clientSecret = input.clientSecret ?? current?.clientSecret;
  if (clientSecret === undefined) throw unprocessable('The single sign-on settings are invalid.', ['clientSecret: required the first time']);
  const defaultRole = await grantableRole(services.db, orgId, input.defaultRole, 'defaultRole');
  const roleMappings: RoleMapping[] = [];
  for (const [i, m] of input.roleMappings.entries()) roleMappings.push({ value: m.value, role: await grantableRole(services.db, orgId, m.role, `roleMappings.${i}.role`) });
  const issuer = input.issuer.replace(/\/+$/, '');
  await issuerConfiguration({ orgId, issuer, clientId: input.clientId, clientSecret, updatedAt: new Date() }, issuerOptionsOf(services.config));
  return services.db.transaction(async (tx) => {
    const before = await findSsoSettings(tx, orgId, { forUpdate: true });
    const saved = await saveSsoSettings(tx, {
      orgId,
      issuer,
      clientId: input.clientId,
      clientSecret,
      allowedDomains: [...new Set(input.allowedDomains)],
      defaultRole,
      roleClaim: input.roleClaim,
      roleMappings,
      ssoOnly: input.ssoOnly,
    });
    await recordAudit(tx, orgId, [{ action: before ? 'sso_settings.changed' : 'sso_settings.created', subject: { type: 'sso_settings', id: orgId }, changes: changesOf(before, saved) }]);
    return saved;
  });
}

export async function removeSsoSettings(services: Deps, orgId: string): Promise<void> {
  await services.db.transaction(async (tx) => {
    if (!(await deleteSsoSettings(tx, orgId))) throw notFound('Single sign-on settings');
    await recordAudit(tx, orgId, [{ action: 'sso_settings.deleted', subject: { type: 'sso_settings', id: orgId }, changes: null }]);
  });
}
