-- The orders and filters the Studio's entries list offers (GET /management/v1/entries), measured
-- by `npm run bench:studio` on 100,000 entries.
--
-- Each order has the listing number as its tie-break: a page is read from the index in order
-- (forwards or backwards) instead of sorting all of an organization's entries, a full scan and a
-- top-N sort per page. Creation order is entries_listing (0150).
CREATE INDEX entries_listing_updated ON entries (org_id, updated_at, seq) WHERE in_preview;
CREATE INDEX entries_listing_title ON entries (org_id, lower(title), seq) WHERE in_preview;
CREATE INDEX entries_listing_status ON entries (org_id, status, seq) WHERE in_preview;

-- A label or a locale: the count of a page's total reads the matching rows from these instead
-- of every row of the organization (a label on 4 % of 100,000 entries: a scan of all of them).
CREATE INDEX entries_labels ON entries USING gin (labels) WHERE in_preview;

-- The locales an entry has values in (the keys of `locales`), as an array a GIN index can hold:
-- `locales ? 'fr'` has no index of its own short of one on every key and value of the document.
CREATE FUNCTION folio_locale_codes(locales jsonb) RETURNS text[]
  LANGUAGE sql IMMUTABLE PARALLEL SAFE
  AS $$ SELECT CASE WHEN jsonb_typeof(locales) = 'object' THEN ARRAY(SELECT jsonb_object_keys(locales)) ELSE '{}'::text[] END $$;
-- Not partial: the planner reads the statistics of an expression index only when it has no
-- WHERE, and without them took a third of the entries for 0.5 % (a bitmap scan and sort of
-- 33,000 rows per page instead of the first 60 in listing order).
CREATE INDEX entries_locale_codes ON entries USING gin (folio_locale_codes(locales));
