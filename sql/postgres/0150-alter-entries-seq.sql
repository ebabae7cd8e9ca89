-- The order GET /management/v1/entries lists entries in: a number each entry takes when it is
-- created and keeps for life (the rows written for its later versions copy it), so a page does
-- not shift as entries are edited, published or withdrawn, and entries created meanwhile come last.
CREATE SEQUENCE entries_seq;
ALTER TABLE entries ADD COLUMN seq bigint;
WITH firsts AS (
  SELECT org_id, id FROM entries GROUP BY org_id, id ORDER BY min(created_at), id
), numbered AS (
  SELECT org_id, id, nextval('entries_seq') AS n FROM firsts
)
UPDATE entries e SET seq = numbered.n FROM numbered WHERE e.org_id = numbered.org_id AND e.id = numbered.id;
ALTER TABLE entries ALTER COLUMN seq SET DEFAULT nextval('entries_seq'), ALTER COLUMN seq SET NOT NULL;
CREATE INDEX entries_listing ON entries (org_id, seq) WHERE in_preview;
