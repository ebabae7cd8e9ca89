-- An entry's titles in every locale (`title`, then `locale_titles`), lower-cased, stored in one
-- column with its trigram index, which replaces the index on the expression over the two. A
-- filter on a title read in another locale finds its candidates with a plain LIKE on this column:
-- the recheck of each candidate then reads the stored text, where ILIKE on the expression built
-- and case-folded every candidate's titles again (in a UTF-8 database ILIKE lower-cases both
-- sides of each comparison). Adding a stored generated column rewrites the table once.
ALTER TABLE entries ADD COLUMN search_titles text
  GENERATED ALWAYS AS (lower(COALESCE(title, '') || E'\n' || COALESCE(locale_titles, ''))) STORED;
DROP INDEX entries_titles_trgm;
CREATE INDEX entries_search_titles_trgm ON entries USING gin (search_titles gin_trgm_ops);
