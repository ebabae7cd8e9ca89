-- Full-text search over an entry's text fields (text, richtext, tag), one stored, GIN-indexed
-- vector per entry row and locale: '' holds the default locale's values (`fields`), each other
-- locale of the organization its own reading (its localized values over the default's). Each is
-- stemmed with the configuration of its locale's language (`en-US` → english, `de-DE` → german;
-- `simple`, no stemming, where Postgres has none or the organization declares no locale). Kept
-- in a table of its own rather than a column of `entries`, so a row read never carries it.
-- Triggers keep it: every statement that inserts entry rows, or changes their fields, locales
-- or model, rewrites the vectors of those rows with one set-based statement.
CREATE TABLE entry_search (
  row_id bigint NOT NULL REFERENCES entries (row_id) ON DELETE CASCADE,
  org_id text NOT NULL,
  locale text NOT NULL,
  vector tsvector NOT NULL,
  PRIMARY KEY (row_id, locale)
);
CREATE INDEX entry_search_vector ON entry_search USING gin (vector);

-- The text search configuration of a locale code's language, `simple` when there is none.
CREATE FUNCTION folio_ts_config(code text) RETURNS regconfig LANGUAGE sql STABLE AS $$
  SELECT COALESCE(
    (SELECT c.oid::regconfig FROM pg_ts_config c WHERE c.cfgname = (CASE lower(split_part(COALESCE(code, ''), '-', 1))
      WHEN 'ar' THEN 'arabic' WHEN 'hy' THEN 'armenian' WHEN 'eu' THEN 'basque' WHEN 'ca' THEN 'catalan'
      WHEN 'da' THEN 'danish' WHEN 'nl' THEN 'dutch' WHEN 'en' THEN 'english' WHEN 'et' THEN 'estonian'
      WHEN 'fi' THEN 'finnish' WHEN 'fr' THEN 'french' WHEN 'de' THEN 'german' WHEN 'el' THEN 'greek'
      WHEN 'hi' THEN 'hindi' WHEN 'hu' THEN 'hungarian' WHEN 'id' THEN 'indonesian' WHEN 'ga' THEN 'irish'
      WHEN 'it' THEN 'italian' WHEN 'lt' THEN 'lithuanian' WHEN 'ne' THEN 'nepali' WHEN 'no' THEN 'norwegian'
      WHEN 'nb' THEN 'norwegian' WHEN 'nn' THEN 'norwegian' WHEN 'pt' THEN 'portuguese' WHEN 'ro' THEN 'romanian'
      WHEN 'ru' THEN 'russian' WHEN 'sr' THEN 'serbian' WHEN 'es' THEN 'spanish' WHEN 'sv' THEN 'swedish'
      WHEN 'ta' THEN 'tamil' WHEN 'tr' THEN 'turkish' WHEN 'yi' THEN 'yiddish' ELSE 'simple' END)),
    'simple'::regconfig)
$$;

-- The vectors of the entry rows in `changed` (row ids), in every locale of their organization.
CREATE FUNCTION folio_write_entry_search(changed bigint[]) RETURNS void LANGUAGE plpgsql AS $$
BEGIN
  DELETE FROM entry_search WHERE row_id = ANY(changed);
  INSERT INTO entry_search (row_id, org_id, locale, vector)
  SELECT e.row_id, e.org_id, l.locale,
         jsonb_to_tsvector(folio_ts_config(l.code), COALESCE(
           (SELECT jsonb_object_agg(t.alias, COALESCE(e.locales -> l.locale -> t.alias, e.fields -> t.alias))
            FROM unnest(t_fields.aliases) AS t(alias)), '{}'::jsonb), '["string"]')
  FROM entries e
  CROSS JOIN LATERAL (
    SELECT array_agg(f ->> 'alias') AS aliases FROM models m, jsonb_array_elements(m.fields) f
    WHERE m.org_id = e.org_id AND m.alias = e.model_alias AND f ->> 'type' IN ('text', 'richtext', 'tag')
  ) t_fields
  CROSS JOIN LATERAL (
    SELECT ''::text AS locale, (SELECT d.code FROM locales d WHERE d.org_id = e.org_id AND d.is_default) AS code
    UNION ALL SELECT o.code, o.code FROM locales o WHERE o.org_id = e.org_id AND NOT o.is_default
  ) l
  WHERE e.row_id = ANY(changed) AND t_fields.aliases IS NOT NULL;
END $$;

CREATE FUNCTION folio_entry_search_inserted() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  PERFORM folio_write_entry_search(ARRAY(SELECT n.row_id FROM new_rows n));
  RETURN NULL;
END $$;

CREATE FUNCTION folio_entry_search_updated() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  PERFORM folio_write_entry_search(ARRAY(
    SELECT n.row_id FROM new_rows n JOIN old_rows o ON o.row_id = n.row_id
    WHERE n.fields IS DISTINCT FROM o.fields OR n.locales IS DISTINCT FROM o.locales OR n.model_alias IS DISTINCT FROM o.model_alias));
  RETURN NULL;
END $$;

CREATE TRIGGER entries_search_inserted AFTER INSERT ON entries
  REFERENCING NEW TABLE AS new_rows FOR EACH STATEMENT EXECUTE FUNCTION folio_entry_search_inserted();
CREATE TRIGGER entries_search_updated AFTER UPDATE ON entries
  REFERENCING OLD TABLE AS old_rows NEW TABLE AS new_rows FOR EACH STATEMENT EXECUTE FUNCTION folio_entry_search_updated();

-- Entries written before this migration.
SELECT folio_write_entry_search(ARRAY(SELECT row_id FROM entries));
