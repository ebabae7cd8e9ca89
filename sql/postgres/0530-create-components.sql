-- Components: typed groups of fields declared once per organization and used by model fields of
-- type `component`. Their aliases share the models' namespace (checked when either is written,
-- under the same advisory lock); values live inside entries' `fields` like any other field's.
CREATE TABLE components (
  org_id     text NOT NULL REFERENCES organizations (id) ON DELETE CASCADE,
  id         text NOT NULL,
  alias      text NOT NULL,
  name       text NOT NULL,
  fields     jsonb NOT NULL DEFAULT '[]',
  created_at timestamptz NOT NULL DEFAULT now(),
  updated_at timestamptz NOT NULL DEFAULT now(),
  PRIMARY KEY (org_id, alias),
  UNIQUE (org_id, id)
);
