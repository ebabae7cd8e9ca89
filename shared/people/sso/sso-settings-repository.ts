import type { Queryable } from '../../adapters/db/index.js';

// The organization's single sign-on settings (one issuer per organization).

export interface RoleMapping {
  value: string;
  role: string;
}

export interface SsoSettings {
  orgId: string;
  issuer: string;
  clientId: string;
  /** Never leaves the domain: answers use `publicSsoSettings`. */
  clientSecret: string;
  allowedDomains: string[];
  defaultRole: string;
  roleClaim: string | null;
  roleMappings: RoleMapping[];
  ssoOnly: boolean;
  updatedAt: Date;
}

interface Row {
  org_id: string;
  issuer: string;
  client_id: string;
  client_secret: string;
  allowed_domains: string[];
  default_role: string;
  role_claim: string | null;
  role_mappings: RoleMapping[];
  sso_only: boolean;
  updated_at: Date;
}

const toSettings = (r: Row): SsoSettings => ({
  orgId: r.org_id,
  issuer: r.issuer,
  clientId: r.client_id,
  clientSecret: r.client_secret,
  allowedDomains: r.allowed_domains,
  defaultRole: r.default_role,
  roleClaim: r.role_claim,
  roleMappings: r.role_mappings,
  ssoOnly: r.sso_only,
  updatedAt: r.updated_at,
});

export async function findSsoSettings(db: Queryable, orgId: string, options: { forUpdate?: boolean } = {}): Promise<SsoSettings | null> {
  const { rows } = await db.query<Row>(`SELECT * FROM sso_settings WHERE org_id = $1${options.forUpdate ? ' FOR UPDATE' : ''}`, [orgId]);
  return rows[0] ? toSettings(rows[0]) : null;
}

export async function saveSsoSettings(tx: Queryable, s: Omit<SsoSettings, 'updatedAt'>): Promise<SsoSettings> {
  const { rows } = await tx.query<Row>(
    `INSERT INTO sso_settings (org_id, issuer, client_id, client_secret, allowed_domains, default_role, role_claim, role_mappings, sso_only)
     VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9)
     ON CONFLICT (org_id) DO UPDATE SET issuer = EXCLUDED.issuer, client_id = EXCLUDED.client_id, client_secret = EXCLUDED.client_secret,
       allowed_domains = EXCLUDED.allowed_domains, default_role = EXCLUDED.default_role, role_claim = EXCLUDED.role_claim,
       role_mappings = EXCLUDED.role_mappings, sso_only = EXCLUDED.sso_only, updated_at = clock_timestamp()
     RETURNING *`,
    [s.orgId, s.issuer, s.clientId, s.clientSecret, s.allowedDomains, s.defaultRole, s.roleClaim, JSON.stringify(s.roleMappings), s.ssoOnly],
  );
  return toSettings(rows[0]);
}

export async function deleteSsoSettings(tx: Queryable, orgId: string): Promise<boolean> {
  const { rowCount } = await tx.query('DELETE FROM sso_settings WHERE org_id = $1', [orgId]);
  return (rowCount ?? 0) > 0;
}

/** Whether the organization refuses passwords (its members sign in through its issuer only). */
export async function isSsoOnly(db: Queryable, orgId: string): Promise<boolean> {
  const { rows } = await db.query<{ sso_only: boolean }>('SELECT sso_only FROM sso_settings WHERE org_id = $1', [orgId]);
  return rows[0]?.sso_only === true;
}
