-- Version history: every version an entry's preview row takes (each save, publication,
-- unpublication, schedule or restore makes a new version id) is kept here, written by triggers in
-- the statement that changes `entries`, so no write path can skip it and a bulk import adds one
-- INSERT … SELECT per statement, not one per row. Pruned per organization (versions_kept,
-- versions_days); the current version is never pruned.
CREATE TABLE entry_versions (
  org_id      text NOT NULL REFERENCES organizations (id) ON DELETE CASCADE,
  entry_id    text NOT NULL,
  version_id  text NOT NULL,
  seq         bigint GENERATED ALWAYS AS IDENTITY,
  status      text NOT NULL,
  model_alias text NOT NULL,
  site_id     text NOT NULL,
  title       text,
  slug        text,
  labels      text[] NOT NULL DEFAULT '{}',
  attrs       jsonb,
  fields      jsonb NOT NULL,
  saved_at    timestamptz NOT NULL DEFAULT now(),
  PRIMARY KEY (org_id, entry_id, version_id)
);
CREATE INDEX entry_versions_entry ON entry_versions (org_id, entry_id, seq DESC);

ALTER TABLE organizations
  ADD COLUMN versions_kept integer NOT NULL DEFAULT 100,
  ADD COLUMN versions_days integer;

CREATE FUNCTION folio_keep_inserted_versions() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  INSERT INTO entry_versions (org_id, entry_id, version_id, status, model_alias, site_id, title, slug, labels, attrs, fields, saved_at)
  SELECT n.org_id, n.id, n.version_id, n.status, n.model_alias, n.site_id, n.title, n.slug, n.labels, n.attrs, n.fields, n.updated_at
  FROM new_rows n WHERE n.in_preview
  ON CONFLICT DO NOTHING;
  RETURN NULL;
END $$;
CREATE TRIGGER entries_keep_inserted_versions AFTER INSERT ON entries
  REFERENCING NEW TABLE AS new_rows FOR EACH STATEMENT EXECUTE FUNCTION folio_keep_inserted_versions();

CREATE FUNCTION folio_keep_updated_versions() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  INSERT INTO entry_versions (org_id, entry_id, version_id, status, model_alias, site_id, title, slug, labels, attrs, fields, saved_at)
  SELECT n.org_id, n.id, n.version_id, n.status, n.model_alias, n.site_id, n.title, n.slug, n.labels, n.attrs, n.fields, n.updated_at
  FROM new_rows n JOIN old_rows o ON o.row_id = n.row_id
  WHERE n.in_preview AND (n.version_id <> o.version_id OR NOT o.in_preview)
  ON CONFLICT DO NOTHING;
  RETURN NULL;
END $$;
CREATE TRIGGER entries_keep_updated_versions AFTER UPDATE ON entries
  REFERENCING OLD TABLE AS old_rows NEW TABLE AS new_rows FOR EACH STATEMENT EXECUTE FUNCTION folio_keep_updated_versions();

-- the entries written before history was kept: their current version
INSERT INTO entry_versions (org_id, entry_id, version_id, status, model_alias, site_id, title, slug, labels, attrs, fields, saved_at)
SELECT org_id, id, version_id, status, model_alias, site_id, title, slug, labels, attrs, fields, updated_at
FROM entries WHERE in_preview
ON CONFLICT DO NOTHING;
