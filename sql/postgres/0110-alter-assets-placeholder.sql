-- A tiny blurred image of the asset as a data: URI (well under 1 KB), made at upload, shown
-- while the real image loads (LQIP); NULL for files, videos, SVG and assets uploaded before.
ALTER TABLE assets ADD COLUMN placeholder text;
