-- Requests and image transforms per organization and calendar month (UTC), for "usage at a
-- glance". Each instance adds what it counted every few seconds in one upsert, so a request
-- costs no write of its own.
CREATE TABLE organization_usage (
  org_id            text NOT NULL REFERENCES organizations (id) ON DELETE CASCADE,
  month             date NOT NULL,
  requests          bigint NOT NULL DEFAULT 0,
  image_transforms  bigint NOT NULL DEFAULT 0,
  PRIMARY KEY (org_id, month)
);
