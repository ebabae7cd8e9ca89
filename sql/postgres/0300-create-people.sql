-- People: a person (an email, unique on the platform) with a membership per organization that
-- carries a role. Passwords and sessions belong to the person. The columns single sign-on needs
-- later (memberships.source, sessions.method) are here so it only adds rows.
CREATE TABLE people (
  id              text PRIMARY KEY,
  email           text NOT NULL,
  name            text,
  -- argon2id PHC string; NULL until an invitation is accepted (or for SSO-only people)
  password_hash   text,
  -- sign-in failures of the current 15-minute window (the per-account limit, shared by instances)
  failed_sign_ins integer NOT NULL DEFAULT 0,
  failed_since    timestamptz,
  created_at      timestamptz NOT NULL DEFAULT now()
);
CREATE UNIQUE INDEX people_email ON people (lower(email));

-- Custom roles of an organization; built-in roles (owner, admin, …) are not stored.
CREATE TABLE roles (
  org_id     text NOT NULL REFERENCES organizations (id) ON DELETE CASCADE,
  id         text NOT NULL,
  name       text NOT NULL,
  rules      jsonb NOT NULL,
  created_at timestamptz NOT NULL DEFAULT now(),
  PRIMARY KEY (org_id, id),
  UNIQUE (org_id, name)
);

CREATE TABLE memberships (
  org_id     text NOT NULL REFERENCES organizations (id) ON DELETE CASCADE,
  person_id  text NOT NULL REFERENCES people (id) ON DELETE CASCADE,
  -- a built-in role name, or `custom:<role id>`
  role       text NOT NULL,
  -- how the membership came to be: 'invitation' (later 'sso', just in time)
  source     text NOT NULL DEFAULT 'invitation',
  created_at timestamptz NOT NULL DEFAULT now(),
  PRIMARY KEY (org_id, person_id)
);
CREATE INDEX memberships_person ON memberships (person_id);

-- Invitations are stored as SHA-256 of the token in the link, like API tokens.
CREATE TABLE invitations (
  id          text PRIMARY KEY,
  org_id      text NOT NULL REFERENCES organizations (id) ON DELETE CASCADE,
  email       text NOT NULL,
  role        text NOT NULL,
  hash        bytea NOT NULL UNIQUE,
  created_at  timestamptz NOT NULL DEFAULT now(),
  expires_at  timestamptz NOT NULL,
  accepted_at timestamptz
);
CREATE INDEX invitations_org ON invitations (org_id, created_at);

-- Sessions: opaque random tokens stored hashed; one organization per session (chosen at sign-in).
CREATE TABLE sessions (
  id             text PRIMARY KEY,
  person_id      text NOT NULL REFERENCES people (id) ON DELETE CASCADE,
  org_id         text NOT NULL REFERENCES organizations (id) ON DELETE CASCADE,
  hash           bytea NOT NULL UNIQUE,
  -- 'password' (later 'sso')
  method         text NOT NULL DEFAULT 'password',
  user_agent     text,
  client_address text,
  created_at     timestamptz NOT NULL DEFAULT now(),
  expires_at     timestamptz NOT NULL,
  revoked_at     timestamptz
);
CREATE INDEX sessions_person ON sessions (person_id, created_at);

CREATE TABLE password_resets (
  hash       bytea PRIMARY KEY,
  person_id  text NOT NULL REFERENCES people (id) ON DELETE CASCADE,
  created_at timestamptz NOT NULL DEFAULT now(),
  expires_at timestamptz NOT NULL,
  used_at    timestamptz
);
