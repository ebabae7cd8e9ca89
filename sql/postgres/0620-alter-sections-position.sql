-- A section's place among its siblings, set by the Studio's tree (move up, move down): delivery
-- lists children and collections by it first, then by title as before (NULL: after the placed
-- ones, so a tree nobody ordered reads as it always did).
ALTER TABLE sections ADD COLUMN position integer;
