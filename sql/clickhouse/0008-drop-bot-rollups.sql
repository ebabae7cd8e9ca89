-- The bots' own hourly totals and breakdown families, which the previous migration folded into
-- the totals, audience, path and referer rollups (as their is_bot rows): nothing writes or reads
-- them any more. Dropped in a file of their own so that the split above can be applied again
-- (a crash before it was recorded) while they still exist.
DROP TABLE IF EXISTS cdn_bots_hourly;
DROP TABLE IF EXISTS cdn_bots_daily;
DROP TABLE IF EXISTS cdn_bot_audience_hourly;
DROP TABLE IF EXISTS cdn_bot_audience_daily;
DROP TABLE IF EXISTS cdn_bot_paths_hourly;
DROP TABLE IF EXISTS cdn_bot_paths_daily;
DROP TABLE IF EXISTS cdn_bot_referers_hourly;
DROP TABLE IF EXISTS cdn_bot_referers_daily;
