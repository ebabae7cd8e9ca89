-- A release groups entries, each at the version it had when added, to publish or unpublish
-- together in one transaction, at once or at `scheduled_at` (the scheduled-publish tick runs it).
-- status: OPEN (editable), SCHEDULED (`scheduled_action` at `scheduled_at`), PUBLISHED,
-- UNPUBLISHED, FAILED (a scheduled run found entries blocking it; `problems` says which and why).
CREATE TABLE releases (
  org_id           text NOT NULL REFERENCES organizations (id) ON DELETE CASCADE,
  id               text NOT NULL,
  name             text NOT NULL,
  status           text NOT NULL DEFAULT 'OPEN',
  scheduled_action text,
  scheduled_at     timestamptz,
  problems         jsonb,
  created_at       timestamptz NOT NULL DEFAULT now(),
  updated_at       timestamptz NOT NULL DEFAULT now(),
  published_at     timestamptz,
  unpublished_at   timestamptz,
  PRIMARY KEY (org_id, id)
);
-- the tick looks for due releases of every organization
CREATE INDEX releases_due ON releases (scheduled_at) WHERE status = 'SCHEDULED';

CREATE TABLE release_entries (
  org_id     text NOT NULL,
  release_id text NOT NULL,
  entry_id   text NOT NULL,
  -- the entry's version when it was added: the one the release publishes
  version_id text NOT NULL,
  position   int NOT NULL,
  PRIMARY KEY (org_id, release_id, entry_id),
  FOREIGN KEY (org_id, release_id) REFERENCES releases (org_id, id) ON DELETE CASCADE
);
