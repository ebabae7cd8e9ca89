-- Campaigns: the UTM values of each request's query string, read at ingest (`utm_source` falls
-- back to `source`, then `ref`). '' when absent, and for rows ingested before this migration.
-- The query string itself is still not stored: paths are kept without it.
ALTER TABLE cdn_logs ADD COLUMN IF NOT EXISTS utm_source String;
ALTER TABLE cdn_logs ADD COLUMN IF NOT EXISTS utm_medium String;
ALTER TABLE cdn_logs ADD COLUMN IF NOT EXISTS utm_campaign String;
ALTER TABLE cdn_logs ADD COLUMN IF NOT EXISTS utm_term String;
ALTER TABLE cdn_logs ADD COLUMN IF NOT EXISTS utm_content String;
