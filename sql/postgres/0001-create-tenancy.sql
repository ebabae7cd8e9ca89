-- Organizations are the tenants. Every other table carries org_id and is only ever queried with it.
CREATE TABLE organizations (
  id              text PRIMARY KEY,
  slug            text NOT NULL UNIQUE,
  name            text NOT NULL,
  -- bumped by every model change: selects the cached GraphQL schema
  schema_version  integer NOT NULL DEFAULT 1,
  -- bumped by every content write: keys the response cache
  content_version bigint NOT NULL DEFAULT 1,
  -- per-org overrides of GraphQL limits
  limits          jsonb NOT NULL DEFAULT '{}',
  created_at      timestamptz NOT NULL DEFAULT now()
);

-- Tokens are stored as SHA-256 of the plain token; the plain token is shown once.
CREATE TABLE tokens (
  id           text PRIMARY KEY,
  org_id       text NOT NULL REFERENCES organizations (id) ON DELETE CASCADE,
  name         text NOT NULL,
  scopes       text[] NOT NULL,
  hash         bytea NOT NULL UNIQUE,
  created_at   timestamptz NOT NULL DEFAULT now(),
  revoked_at   timestamptz,
  last_used_at timestamptz
);
CREATE INDEX tokens_org ON tokens (org_id, created_at);

CREATE TABLE sites (
  org_id      text NOT NULL REFERENCES organizations (id) ON DELETE CASCADE,
  id          text NOT NULL,
  name        text NOT NULL,
  external_id text,
  created_at  timestamptz NOT NULL DEFAULT now(),
  PRIMARY KEY (org_id, id)
);

CREATE TABLE projects (
  org_id     text NOT NULL REFERENCES organizations (id) ON DELETE CASCADE,
  id         uuid NOT NULL,
  name       text NOT NULL,
  created_at timestamptz NOT NULL DEFAULT now(),
  PRIMARY KEY (org_id, id)
);

-- Distribution ids are strings chosen by the client (or generated), unique within the org:
-- the ingest path names only the distribution.
CREATE TABLE distributions (
  org_id     text NOT NULL,
  id         text NOT NULL,
  project_id uuid NOT NULL,
  name       text NOT NULL,
  hostnames  text[] NOT NULL DEFAULT '{}',
  created_at timestamptz NOT NULL DEFAULT now(),
  PRIMARY KEY (org_id, id),
  FOREIGN KEY (org_id, project_id) REFERENCES projects (org_id, id) ON DELETE CASCADE
);
CREATE INDEX distributions_project ON distributions (org_id, project_id);
