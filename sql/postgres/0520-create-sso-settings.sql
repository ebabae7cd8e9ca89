-- Single sign-on per organization: one OpenID Connect issuer and client. The client secret is
-- stored like the other secrets a tenant gives Folio (webhook secrets, purge API tokens): in its
-- row, never answered, never logged, and audited only as "changed".
CREATE TABLE sso_settings (
  org_id          text PRIMARY KEY REFERENCES organizations (id) ON DELETE CASCADE,
  issuer          text NOT NULL,
  client_id       text NOT NULL,
  client_secret   text NOT NULL,
  -- email domains (lower case) whose people may sign in; anyone else is refused
  allowed_domains text[] NOT NULL,
  -- the role of a member created just in time, when no mapping applies
  default_role    text NOT NULL,
  -- the ID token / userinfo claim read for role mappings, and [{value, role}] in order
  role_claim      text,
  role_mappings   jsonb NOT NULL DEFAULT '[]',
  -- passwords are refused for this organization's members
  sso_only        boolean NOT NULL DEFAULT false,
  created_at      timestamptz NOT NULL DEFAULT now(),
  updated_at      timestamptz NOT NULL DEFAULT now()
);
