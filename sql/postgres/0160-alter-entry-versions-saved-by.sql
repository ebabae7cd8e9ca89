-- Who saved a version: the token of the request that wrote it (`folio.actor`, set by Folio at the
-- start of the request's transactions); NULL for the scheduler's publications and unpublications.
ALTER TABLE entry_versions ADD COLUMN saved_by text;

CREATE OR REPLACE FUNCTION folio_keep_inserted_versions() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  INSERT INTO entry_versions (org_id, entry_id, version_id, status, model_alias, site_id, title, slug, labels, attrs, fields, saved_at, saved_by)
  SELECT n.org_id, n.id, n.version_id, n.status, n.model_alias, n.site_id, n.title, n.slug, n.labels, n.attrs, n.fields, n.updated_at,
         NULLIF(current_setting('folio.actor', true), '')
  FROM new_rows n WHERE n.in_preview
  ON CONFLICT DO NOTHING;
  RETURN NULL;
END $$;

CREATE OR REPLACE FUNCTION folio_keep_updated_versions() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  INSERT INTO entry_versions (org_id, entry_id, version_id, status, model_alias, site_id, title, slug, labels, attrs, fields, saved_at, saved_by)
  SELECT n.org_id, n.id, n.version_id, n.status, n.model_alias, n.site_id, n.title, n.slug, n.labels, n.attrs, n.fields, n.updated_at,
         NULLIF(current_setting('folio.actor', true), '')
  FROM new_rows n JOIN old_rows o ON o.row_id = n.row_id
  WHERE n.in_preview AND (n.version_id <> o.version_id OR NOT o.in_preview)
  ON CONFLICT DO NOTHING;
  RETURN NULL;
END $$;
