-- Where libvips's attention strategy finds the subject of an image, as fractions {x, y} like
-- focal_point: made at upload, shown by the Studio as a suggestion. It never steers a crop (the
-- manual focal_point does). NULL for files, videos, SVG, unreadable images and assets uploaded before.
ALTER TABLE assets ADD COLUMN suggested_focal_point jsonb;
