-- One trigram index over an entry's titles in every locale (the default's `title`, then the
-- others' `locale_titles`) instead of one on `locale_titles` alone: a search of a localized title
-- then scans one index, as a search of the default title does (a trigram's posting list holds a
-- row once however many of its titles have it), not two.
DROP INDEX entries_locale_titles_trgm;
CREATE INDEX entries_titles_trgm ON entries USING gin ((COALESCE(title, '') || E'\n' || COALESCE(locale_titles, '')) gin_trgm_ops);
