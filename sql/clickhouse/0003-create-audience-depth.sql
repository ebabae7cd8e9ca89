-- Bots, visitors, statuses, serve-time percentiles and minutes. Rows ingested before this
-- migration read as human (is_bot 0) with no visitor key (0, never counted as a visitor); the new
-- rollups start empty, so their figures (visitors, percentiles, statuses, minutes, bots) cover
-- traffic ingested from now on, while requests, bytes and the breakdowns keep every row.
ALTER TABLE cdn_logs ADD COLUMN IF NOT EXISTS is_bot UInt8;
ALTER TABLE cdn_logs ADD COLUMN IF NOT EXISTS bot_name LowCardinality(String);
ALTER TABLE cdn_logs ADD COLUMN IF NOT EXISTS visitor UInt64;

-- Bot traffic per bot. It also takes bots out of the older rollups, which have no is_bot column:
-- a report without bots is the whole minus these (cdn_bot_* below for the breakdowns).
CREATE TABLE IF NOT EXISTS cdn_bots_hourly
(
  org_id          LowCardinality(String),
  distribution_id LowCardinality(String),
  hour            DateTime('UTC'),
  bot_name        String,
  requests        UInt64,
  bytes           UInt64,
  serve_time_ms   UInt64,
  hits            UInt64,
  misses          UInt64
)
ENGINE = SummingMergeTree
PARTITION BY toYYYYMM(hour)
ORDER BY (org_id, distribution_id, hour, bot_name)
SETTINGS non_replicated_deduplication_window = 10000;

CREATE MATERIALIZED VIEW IF NOT EXISTS cdn_bots_hourly_mv TO cdn_bots_hourly AS
SELECT org_id, distribution_id, toStartOfHour(timestamp) AS hour, bot_name, count() AS requests, sum(bytes) AS bytes,
  sum(serve_time_ms) AS serve_time_ms, countIf(cache_status = 'HIT') AS hits, countIf(cache_status = 'MISS') AS misses
FROM cdn_logs WHERE is_bot = 1
GROUP BY org_id, distribution_id, hour, bot_name;

CREATE TABLE IF NOT EXISTS cdn_bots_daily
(
  org_id          LowCardinality(String),
  distribution_id LowCardinality(String),
  day             Date,
  bot_name        String,
  requests        UInt64,
  bytes           UInt64,
  serve_time_ms   UInt64,
  hits            UInt64,
  misses          UInt64
)
ENGINE = SummingMergeTree
PARTITION BY toYYYYMM(day)
ORDER BY (org_id, distribution_id, bot_name, day)
SETTINGS non_replicated_deduplication_window = 10000;

CREATE MATERIALIZED VIEW IF NOT EXISTS cdn_bots_daily_mv TO cdn_bots_daily AS
SELECT org_id, distribution_id, toDate(hour) AS day, bot_name, sum(requests) AS requests, sum(bytes) AS bytes,
  sum(serve_time_ms) AS serve_time_ms, sum(hits) AS hits, sum(misses) AS misses
FROM cdn_bots_hourly
GROUP BY org_id, distribution_id, day, bot_name;

-- The bots' share of the audience, path and referer rollups (same columns, bot rows only).
CREATE TABLE IF NOT EXISTS cdn_bot_audience_hourly AS cdn_audience_hourly;
CREATE MATERIALIZED VIEW IF NOT EXISTS cdn_bot_audience_hourly_mv TO cdn_bot_audience_hourly AS
SELECT org_id, distribution_id, toStartOfHour(timestamp) AS hour, country, continent, device, browser, os, count() AS requests
FROM cdn_logs WHERE is_bot = 1
GROUP BY org_id, distribution_id, hour, country, continent, device, browser, os;

CREATE TABLE IF NOT EXISTS cdn_bot_audience_daily AS cdn_audience_daily;
CREATE MATERIALIZED VIEW IF NOT EXISTS cdn_bot_audience_daily_mv TO cdn_bot_audience_daily AS
SELECT org_id, distribution_id, toDate(hour) AS day, country, continent, device, browser, os, sum(requests) AS requests
FROM cdn_bot_audience_hourly
GROUP BY org_id, distribution_id, day, country, continent, device, browser, os;

CREATE TABLE IF NOT EXISTS cdn_bot_paths_hourly AS cdn_paths_hourly;
CREATE MATERIALIZED VIEW IF NOT EXISTS cdn_bot_paths_hourly_mv TO cdn_bot_paths_hourly AS
SELECT org_id, distribution_id, toStartOfHour(timestamp) AS hour, path, count() AS requests
FROM cdn_logs WHERE is_bot = 1
GROUP BY org_id, distribution_id, hour, path;

CREATE TABLE IF NOT EXISTS cdn_bot_paths_daily AS cdn_paths_daily;
CREATE MATERIALIZED VIEW IF NOT EXISTS cdn_bot_paths_daily_mv TO cdn_bot_paths_daily AS
SELECT org_id, distribution_id, toDate(hour) AS day, path, sum(requests) AS requests
FROM cdn_bot_paths_hourly
GROUP BY org_id, distribution_id, day, path;

CREATE TABLE IF NOT EXISTS cdn_bot_referers_hourly AS cdn_referers_hourly;
CREATE MATERIALIZED VIEW IF NOT EXISTS cdn_bot_referers_hourly_mv TO cdn_bot_referers_hourly AS
SELECT org_id, distribution_id, toStartOfHour(timestamp) AS hour, referer_host, count() AS requests
FROM cdn_logs WHERE is_bot = 1
GROUP BY org_id, distribution_id, hour, referer_host;

CREATE TABLE IF NOT EXISTS cdn_bot_referers_daily AS cdn_referers_daily;
CREATE MATERIALIZED VIEW IF NOT EXISTS cdn_bot_referers_daily_mv TO cdn_bot_referers_daily AS
SELECT org_id, distribution_id, toDate(hour) AS day, referer_host, sum(requests) AS requests
FROM cdn_bot_referers_hourly
GROUP BY org_id, distribution_id, day, referer_host;

-- Requests and bytes per status code.
CREATE TABLE IF NOT EXISTS cdn_status_hourly
(
  org_id          LowCardinality(String),
  distribution_id LowCardinality(String),
  hour            DateTime('UTC'),
  is_bot          UInt8,
  status          UInt16,
  requests        UInt64,
  bytes           UInt64
)
ENGINE = SummingMergeTree
PARTITION BY toYYYYMM(hour)
ORDER BY (org_id, distribution_id, hour, is_bot, status)
SETTINGS non_replicated_deduplication_window = 10000;

CREATE MATERIALIZED VIEW IF NOT EXISTS cdn_status_hourly_mv TO cdn_status_hourly AS
SELECT org_id, distribution_id, toStartOfHour(timestamp) AS hour, is_bot, status, count() AS requests, sum(bytes) AS bytes
FROM cdn_logs
GROUP BY org_id, distribution_id, hour, is_bot, status;

-- Paths answered 4xx and 5xx, apart.
CREATE TABLE IF NOT EXISTS cdn_client_error_paths_hourly
(
  org_id          LowCardinality(String),
  distribution_id LowCardinality(String),
  hour            DateTime('UTC'),
  is_bot          UInt8,
  path            String,
  requests        UInt64
)
ENGINE = SummingMergeTree
PARTITION BY toYYYYMM(hour)
ORDER BY (org_id, distribution_id, hour, is_bot, path)
SETTINGS non_replicated_deduplication_window = 10000;

CREATE MATERIALIZED VIEW IF NOT EXISTS cdn_client_error_paths_hourly_mv TO cdn_client_error_paths_hourly AS
SELECT org_id, distribution_id, toStartOfHour(timestamp) AS hour, is_bot, path, count() AS requests
FROM cdn_logs WHERE status >= 400 AND status < 500
GROUP BY org_id, distribution_id, hour, is_bot, path;

CREATE TABLE IF NOT EXISTS cdn_client_error_paths_daily
(
  org_id          LowCardinality(String),
  distribution_id LowCardinality(String),
  day             Date,
  is_bot          UInt8,
  path            String,
  requests        UInt64
)
ENGINE = SummingMergeTree
PARTITION BY toYYYYMM(day)
ORDER BY (org_id, distribution_id, is_bot, path, day)
SETTINGS non_replicated_deduplication_window = 10000;

CREATE MATERIALIZED VIEW IF NOT EXISTS cdn_client_error_paths_daily_mv TO cdn_client_error_paths_daily AS
SELECT org_id, distribution_id, toDate(hour) AS day, is_bot, path, sum(requests) AS requests
FROM cdn_client_error_paths_hourly
GROUP BY org_id, distribution_id, day, is_bot, path;

CREATE TABLE IF NOT EXISTS cdn_server_error_paths_hourly AS cdn_client_error_paths_hourly;
CREATE MATERIALIZED VIEW IF NOT EXISTS cdn_server_error_paths_hourly_mv TO cdn_server_error_paths_hourly AS
SELECT org_id, distribution_id, toStartOfHour(timestamp) AS hour, is_bot, path, count() AS requests
FROM cdn_logs WHERE status >= 500
GROUP BY org_id, distribution_id, hour, is_bot, path;

CREATE TABLE IF NOT EXISTS cdn_server_error_paths_daily AS cdn_client_error_paths_daily;
CREATE MATERIALIZED VIEW IF NOT EXISTS cdn_server_error_paths_daily_mv TO cdn_server_error_paths_daily AS
SELECT org_id, distribution_id, toDate(hour) AS day, is_bot, path, sum(requests) AS requests
FROM cdn_server_error_paths_hourly
GROUP BY org_id, distribution_id, day, is_bot, path;

-- Serve-time percentiles (quantilesTiming: exact below 1,024 ms, to 16 ms above) and unique
-- visitors (uniq: exact up to 65,536 per state, estimated above) per hour, as mergeable states.
CREATE TABLE IF NOT EXISTS cdn_stats_hourly
(
  org_id          LowCardinality(String),
  distribution_id LowCardinality(String),
  hour            DateTime('UTC'),
  is_bot          UInt8,
  serve_time      AggregateFunction(quantilesTiming(0.5, 0.95, 0.99), UInt32),
  visitors        AggregateFunction(uniq, UInt64)
)
ENGINE = AggregatingMergeTree
PARTITION BY toYYYYMM(hour)
ORDER BY (org_id, distribution_id, hour, is_bot)
SETTINGS non_replicated_deduplication_window = 10000;

CREATE MATERIALIZED VIEW IF NOT EXISTS cdn_stats_hourly_mv TO cdn_stats_hourly AS
SELECT org_id, distribution_id, toStartOfHour(timestamp) AS hour, is_bot,
  quantilesTimingState(0.5, 0.95, 0.99)(serve_time_ms) AS serve_time, uniqStateIf(visitor, visitor != 0) AS visitors
FROM cdn_logs
GROUP BY org_id, distribution_id, hour, is_bot;

-- The same per day, from the hourly blocks: a month's visitors merge 30 states, not 720.
CREATE TABLE IF NOT EXISTS cdn_stats_daily
(
  org_id          LowCardinality(String),
  distribution_id LowCardinality(String),
  day             Date,
  is_bot          UInt8,
  serve_time      AggregateFunction(quantilesTiming(0.5, 0.95, 0.99), UInt32),
  visitors        AggregateFunction(uniq, UInt64)
)
ENGINE = AggregatingMergeTree
PARTITION BY toYYYYMM(day)
ORDER BY (org_id, distribution_id, day, is_bot)
SETTINGS non_replicated_deduplication_window = 10000;

CREATE MATERIALIZED VIEW IF NOT EXISTS cdn_stats_daily_mv TO cdn_stats_daily AS
SELECT org_id, distribution_id, toDate(hour) AS day, is_bot,
  -- qualified: the aliases are the merged states
  quantilesTimingMergeState(0.5, 0.95, 0.99)(cdn_stats_hourly.serve_time) AS serve_time, uniqMergeState(cdn_stats_hourly.visitors) AS visitors
FROM cdn_stats_hourly
GROUP BY org_id, distribution_id, day, is_bot;

-- Everything per minute, kept 7 days: the minute interval and the real-time report.
CREATE TABLE IF NOT EXISTS cdn_minutes
(
  org_id          LowCardinality(String),
  distribution_id LowCardinality(String),
  minute          DateTime('UTC'),
  is_bot          UInt8,
  requests        SimpleAggregateFunction(sum, UInt64),
  bytes           SimpleAggregateFunction(sum, UInt64),
  serve_time_ms   SimpleAggregateFunction(sum, UInt64),
  hits            SimpleAggregateFunction(sum, UInt64),
  misses          SimpleAggregateFunction(sum, UInt64),
  client_errors   SimpleAggregateFunction(sum, UInt64),
  server_errors   SimpleAggregateFunction(sum, UInt64),
  serve_time      AggregateFunction(quantilesTiming(0.5, 0.95, 0.99), UInt32),
  visitors        AggregateFunction(uniq, UInt64)
)
ENGINE = AggregatingMergeTree
PARTITION BY toYYYYMM(minute)
ORDER BY (org_id, distribution_id, minute, is_bot)
TTL minute + toIntervalDay(7)
SETTINGS non_replicated_deduplication_window = 10000;

CREATE MATERIALIZED VIEW IF NOT EXISTS cdn_minutes_mv TO cdn_minutes AS
SELECT org_id, distribution_id, toStartOfMinute(timestamp) AS minute, is_bot,
  count() AS requests, sum(bytes) AS bytes, sum(toUInt64(serve_time_ms)) AS serve_time_ms,
  countIf(cache_status = 'HIT') AS hits, countIf(cache_status = 'MISS') AS misses,
  countIf(status >= 400 AND status < 500) AS client_errors, countIf(status >= 500) AS server_errors,
  -- qualified: the alias serve_time_ms above is the sum
  quantilesTimingState(0.5, 0.95, 0.99)(cdn_logs.serve_time_ms) AS serve_time, uniqStateIf(visitor, visitor != 0) AS visitors
FROM cdn_logs
GROUP BY org_id, distribution_id, minute, is_bot;
