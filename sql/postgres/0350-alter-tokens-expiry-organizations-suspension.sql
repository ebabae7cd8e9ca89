-- A token may expire (set when it is created, or by a rotation: the old token then lives until
-- the overlap ends). `replaced_by` names the token a rotation issued in its place.
ALTER TABLE tokens ADD COLUMN expires_at timestamptz;
ALTER TABLE tokens ADD COLUMN replaced_by text;

-- The platform operator suspends an organization (every request of it answers 403 with the
-- reason) or deletes it: deletion first suspends it, then a job removes its data.
ALTER TABLE organizations ADD COLUMN suspended_at timestamptz;
ALTER TABLE organizations ADD COLUMN suspended_reason text;
ALTER TABLE organizations ADD COLUMN deletion_requested_at timestamptz;
-- Every instance reads the suspended organizations every few seconds: a small partial index.
CREATE INDEX organizations_suspended ON organizations (id) WHERE suspended_at IS NOT NULL;

-- What a deletion removed, kept after the organization's rows are gone so its status can be
-- polled. No org_id column and no foreign key on purpose: nothing here belongs to the tenant.
CREATE TABLE organization_deletions (
  id            text PRIMARY KEY,
  slug          text NOT NULL,
  requested_at  timestamptz NOT NULL DEFAULT now(),
  finished_at   timestamptz,
  -- rows, blobs and analytics rows removed, once finished
  removed       jsonb,
  error         text
);
