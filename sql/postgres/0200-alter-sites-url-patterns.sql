-- How a site's page paths name its entries ([{"pattern": "/articles/{slug}", "model": "article"}]),
-- and the distributions serving the site (none listed: every distribution of the organization).
-- Log lines whose path matches are counted as traffic of the entry.
ALTER TABLE sites ADD COLUMN IF NOT EXISTS url_patterns jsonb NOT NULL DEFAULT '[]';
ALTER TABLE sites ADD COLUMN IF NOT EXISTS distribution_ids text[] NOT NULL DEFAULT '{}';
