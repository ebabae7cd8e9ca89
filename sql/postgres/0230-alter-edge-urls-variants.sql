-- The variants of each served URL a cache may hold (its Accept class and Origin, "avif https://…"),
-- so that a purge by URL sends one request per stored copy. Rows from before name none: they are
-- purged once with the purge target's own headers, as before.
ALTER TABLE edge_urls ADD COLUMN variants text[] NOT NULL DEFAULT '{}';
