-- Shared links: a read-only view of one distribution's dashboard for whoever holds the link, until
-- it expires or is revoked. Only the SHA-256 of the link's secret is kept: the URL is shown once.
CREATE TABLE analytics_shared_links (
  org_id          text NOT NULL,
  distribution_id text NOT NULL,
  id              uuid NOT NULL,
  name            text NOT NULL,
  secret_hash     bytea NOT NULL UNIQUE,
  expires_at      timestamptz NOT NULL,
  revoked_at      timestamptz,
  created_at      timestamptz NOT NULL DEFAULT now(),
  PRIMARY KEY (org_id, id),
  FOREIGN KEY (org_id, distribution_id) REFERENCES distributions (org_id, id) ON DELETE CASCADE
);
CREATE INDEX analytics_shared_links_distribution ON analytics_shared_links (org_id, distribution_id, created_at);
