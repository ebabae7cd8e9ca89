-- The bots' figures move into the rollups that hold everyone's: the hourly totals get bot rows of
-- their own (is_bot, bot_name: '' for humans, in the key), and the audience, path and referer
-- rollups count the bots among their requests in a column (bot_requests), on the same rows.
-- Reports without bots then read one family instead of the whole less a family of the bots'
-- rows, and every insert feeds eight fewer views (the bots' hourly and daily totals and the three
-- cdn_bot_* families stop; top bots are read from the hourly totals' bot rows, a few an hour).
--
-- Existing rows are completed from the bots' tables. The audience, path and referer rollups get
-- rows that add the bots' requests to bot_requests (their requests already count them). The
-- totals' rows, which counted bots as humans (the new columns' defaults), get each bot row as a
-- bot row, and the same figures taken from the human row of its hour — as the two's complement
-- (bitNot(n) + 1), which the rollups' UInt64 sums wrap back to the exact difference. The daily
-- tables get the same from the hourly inserts, through their views (changed first). Each of these
-- inserts carries a fixed deduplication token: a start that applies this file again (a crash
-- before it was recorded, or two processes at once) adds them once.
--
-- Order: the bots' views are dropped before the inserts (their tables no longer change), and the
-- views of the raw rows count bots last. A batch that a process of the version before inserts
-- between the two is counted, with its bots as humans in these rollups; nothing is lost or
-- counted twice. The bots' own tables are left for the next migration to drop.

-- Totals.
ALTER TABLE cdn_totals_hourly
  ADD COLUMN IF NOT EXISTS is_bot UInt8,
  ADD COLUMN IF NOT EXISTS bot_name LowCardinality(String),
  MODIFY ORDER BY (org_id, distribution_id, hour, is_bot, bot_name);

DROP VIEW IF EXISTS cdn_bots_hourly_mv;
DROP VIEW IF EXISTS cdn_bots_daily_mv;

INSERT INTO cdn_totals_hourly (org_id, distribution_id, hour, is_bot, bot_name, requests, bytes, serve_time_ms, hits, misses)
SETTINGS insert_deduplication_token = '0007-cdn_totals_hourly', deduplicate_blocks_in_dependent_materialized_views = 1
SELECT org_id, distribution_id, hour, m.1, m.2, m.3, m.4, m.5, m.6, m.7
FROM (
  SELECT org_id, distribution_id, hour, toString(bot_name) AS bot, sum(requests) AS requests, sum(bytes) AS bytes,
    sum(serve_time_ms) AS serve_time_ms, sum(hits) AS hits, sum(misses) AS misses
  FROM cdn_bots_hourly GROUP BY org_id, distribution_id, hour, bot ORDER BY org_id, distribution_id, hour, bot
)
ARRAY JOIN [
  (toUInt8(1), bot, requests, bytes, serve_time_ms, hits, misses),
  (toUInt8(0), '', bitNot(requests) + 1, bitNot(bytes) + 1, bitNot(serve_time_ms) + 1, bitNot(hits) + 1, bitNot(misses) + 1)
] AS m;

ALTER TABLE cdn_totals_hourly_mv MODIFY QUERY
SELECT
  org_id,
  distribution_id,
  toStartOfHour(timestamp) AS hour,
  is_bot,
  bot_name,
  count() AS requests,
  sum(bytes) AS bytes,
  sum(serve_time_ms) AS serve_time_ms,
  countIf(cache_status = 'HIT') AS hits,
  countIf(cache_status = 'MISS') AS misses
FROM cdn_logs
GROUP BY org_id, distribution_id, hour, is_bot, bot_name;

-- Audience.
ALTER TABLE cdn_audience_hourly ADD COLUMN IF NOT EXISTS bot_requests UInt64;
ALTER TABLE cdn_audience_daily ADD COLUMN IF NOT EXISTS bot_requests UInt64;

ALTER TABLE cdn_audience_daily_mv MODIFY QUERY
SELECT org_id, distribution_id, toDate(hour) AS day, country, continent, device, browser, os, sum(requests) AS requests, sum(bot_requests) AS bot_requests
FROM cdn_audience_hourly
GROUP BY org_id, distribution_id, day, country, continent, device, browser, os;

DROP VIEW IF EXISTS cdn_bot_audience_hourly_mv;
DROP VIEW IF EXISTS cdn_bot_audience_daily_mv;

INSERT INTO cdn_audience_hourly (org_id, distribution_id, hour, country, continent, device, browser, os, requests, bot_requests)
SETTINGS insert_deduplication_token = '0007-cdn_audience_hourly', deduplicate_blocks_in_dependent_materialized_views = 1
SELECT org_id, distribution_id, hour, country, continent, device, browser, os, 0, sum(requests)
FROM cdn_bot_audience_hourly
GROUP BY org_id, distribution_id, hour, country, continent, device, browser, os
ORDER BY org_id, distribution_id, hour, country, continent, device, browser, os;

ALTER TABLE cdn_audience_hourly_mv MODIFY QUERY
SELECT org_id, distribution_id, toStartOfHour(timestamp) AS hour, country, continent, device, browser, os, count() AS requests, countIf(is_bot = 1) AS bot_requests
FROM cdn_logs
GROUP BY org_id, distribution_id, hour, country, continent, device, browser, os;

-- Paths.
ALTER TABLE cdn_paths_hourly ADD COLUMN IF NOT EXISTS bot_requests UInt64;
ALTER TABLE cdn_paths_daily ADD COLUMN IF NOT EXISTS bot_requests UInt64;

ALTER TABLE cdn_paths_daily_mv MODIFY QUERY
SELECT org_id, distribution_id, toDate(hour) AS day, path, sum(requests) AS requests, sum(bot_requests) AS bot_requests
FROM cdn_paths_hourly
GROUP BY org_id, distribution_id, day, path;

DROP VIEW IF EXISTS cdn_bot_paths_hourly_mv;
DROP VIEW IF EXISTS cdn_bot_paths_daily_mv;

INSERT INTO cdn_paths_hourly (org_id, distribution_id, hour, path, requests, bot_requests)
SETTINGS insert_deduplication_token = '0007-cdn_paths_hourly', deduplicate_blocks_in_dependent_materialized_views = 1
SELECT org_id, distribution_id, hour, path, 0, sum(requests)
FROM cdn_bot_paths_hourly
GROUP BY org_id, distribution_id, hour, path
ORDER BY org_id, distribution_id, hour, path;

ALTER TABLE cdn_paths_hourly_mv MODIFY QUERY
SELECT org_id, distribution_id, toStartOfHour(timestamp) AS hour, path, count() AS requests, countIf(is_bot = 1) AS bot_requests
FROM cdn_logs
GROUP BY org_id, distribution_id, hour, path;

-- Referring hosts.
ALTER TABLE cdn_referers_hourly ADD COLUMN IF NOT EXISTS bot_requests UInt64;
ALTER TABLE cdn_referers_daily ADD COLUMN IF NOT EXISTS bot_requests UInt64;

ALTER TABLE cdn_referers_daily_mv MODIFY QUERY
SELECT org_id, distribution_id, toDate(hour) AS day, referer_host, sum(requests) AS requests, sum(bot_requests) AS bot_requests
FROM cdn_referers_hourly
GROUP BY org_id, distribution_id, day, referer_host;

DROP VIEW IF EXISTS cdn_bot_referers_hourly_mv;
DROP VIEW IF EXISTS cdn_bot_referers_daily_mv;

INSERT INTO cdn_referers_hourly (org_id, distribution_id, hour, referer_host, requests, bot_requests)
SETTINGS insert_deduplication_token = '0007-cdn_referers_hourly', deduplicate_blocks_in_dependent_materialized_views = 1
SELECT org_id, distribution_id, hour, referer_host, 0, sum(requests)
FROM cdn_bot_referers_hourly
GROUP BY org_id, distribution_id, hour, referer_host
ORDER BY org_id, distribution_id, hour, referer_host;

ALTER TABLE cdn_referers_hourly_mv MODIFY QUERY
SELECT org_id, distribution_id, toStartOfHour(timestamp) AS hour, referer_host, count() AS requests, countIf(is_bot = 1) AS bot_requests
FROM cdn_logs
GROUP BY org_id, distribution_id, hour, referer_host;
