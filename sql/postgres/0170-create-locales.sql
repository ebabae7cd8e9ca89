-- Locales of an organization. One is the default: its values are an entry's `fields` (so an
-- organization that declares none reads and writes exactly as before). Each other locale may
-- name a fallback; a missing value is looked up along that chain and then in the default.
CREATE TABLE locales (
  org_id     text NOT NULL REFERENCES organizations (id) ON DELETE CASCADE,
  code       text NOT NULL,
  name       text NOT NULL,
  is_default boolean NOT NULL DEFAULT false,
  fallback   text,
  created_at timestamptz NOT NULL DEFAULT now(),
  updated_at timestamptz NOT NULL DEFAULT now(),
  PRIMARY KEY (org_id, code)
);
CREATE UNIQUE INDEX locales_one_default ON locales (org_id) WHERE is_default;

-- The values of localized fields in the other locales: {"de-DE": {"title": "…"}, …}. NULL when
-- there are none.
ALTER TABLE entries ADD COLUMN locales jsonb;
ALTER TABLE entry_versions ADD COLUMN locales jsonb;

CREATE OR REPLACE FUNCTION folio_keep_inserted_versions() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  INSERT INTO entry_versions (org_id, entry_id, version_id, status, model_alias, site_id, title, slug, labels, attrs, fields, locales, saved_at, saved_by)
  SELECT n.org_id, n.id, n.version_id, n.status, n.model_alias, n.site_id, n.title, n.slug, n.labels, n.attrs, n.fields, n.locales, n.updated_at,
         NULLIF(current_setting('folio.actor', true), '')
  FROM new_rows n WHERE n.in_preview
  ON CONFLICT DO NOTHING;
  RETURN NULL;
END $$;

CREATE OR REPLACE FUNCTION folio_keep_updated_versions() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  INSERT INTO entry_versions (org_id, entry_id, version_id, status, model_alias, site_id, title, slug, labels, attrs, fields, locales, saved_at, saved_by)
  SELECT n.org_id, n.id, n.version_id, n.status, n.model_alias, n.site_id, n.title, n.slug, n.labels, n.attrs, n.fields, n.locales, n.updated_at,
         NULLIF(current_setting('folio.actor', true), '')
  FROM new_rows n JOIN old_rows o ON o.row_id = n.row_id
  WHERE n.in_preview AND (n.version_id <> o.version_id OR NOT o.in_preview)
  ON CONFLICT DO NOTHING;
  RETURN NULL;
END $$;

-- The titles an entry has in the other locales, one per line, trigram-indexed like `title`: a
-- substring filter on a localized title finds its candidates in the two indexes, then checks the
-- title of the asked locale (with its fallbacks) on those rows only.
ALTER TABLE entries ADD COLUMN locale_titles text;
CREATE INDEX entries_locale_titles_trgm ON entries USING gin (locale_titles gin_trgm_ops);
