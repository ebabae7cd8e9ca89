-- Goals and funnels of a distribution's analytics: a goal is a path pattern (`*` within a segment,
-- `**` across), a funnel an ordered list of 2 to 8 of them. Defined here per organization and
-- evaluated over the raw CDN lines in ClickHouse; they go with their distribution.
CREATE TABLE analytics_goals (
  org_id          text NOT NULL,
  distribution_id text NOT NULL,
  id              uuid NOT NULL,
  name            text NOT NULL,
  path_pattern    text NOT NULL,
  created_at      timestamptz NOT NULL DEFAULT now(),
  PRIMARY KEY (org_id, id),
  FOREIGN KEY (org_id, distribution_id) REFERENCES distributions (org_id, id) ON DELETE CASCADE
);
CREATE INDEX analytics_goals_distribution ON analytics_goals (org_id, distribution_id, created_at);

CREATE TABLE analytics_funnels (
  org_id          text NOT NULL,
  distribution_id text NOT NULL,
  id              uuid NOT NULL,
  name            text NOT NULL,
  steps           text[] NOT NULL,
  created_at      timestamptz NOT NULL DEFAULT now(),
  PRIMARY KEY (org_id, id),
  FOREIGN KEY (org_id, distribution_id) REFERENCES distributions (org_id, id) ON DELETE CASCADE
);
CREATE INDEX analytics_funnels_distribution ON analytics_funnels (org_id, distribution_id, created_at);
