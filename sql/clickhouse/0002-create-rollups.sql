-- Rollups that serve the analytics endpoints (materialized views, filled on every insert into
-- cdn_logs). Every target keeps a deduplication window too: with
-- deduplicate_blocks_in_dependent_materialized_views a retried batch is dropped here as well as
-- in cdn_logs. Rows of one key are summed at merge time; queries still sum().
--
-- Hourly tables are filled from the raw rows; daily ones from the hourly blocks (cheap: they
-- aggregate already aggregated rows). A query reads whole days from the daily tables, whole
-- hours from the hourly ones and the ragged minutes at its ends from cdn_logs. Daily tables are
-- sorted by value before day: a month partition is read whole either way, and grouping rows
-- that arrive sorted by the grouping key measured about three times faster than by day first.

-- Totals per hour: requests, bytes, serve time, cache hits and misses.
CREATE TABLE IF NOT EXISTS cdn_totals_hourly
(
  org_id          LowCardinality(String),
  distribution_id LowCardinality(String),
  hour            DateTime('UTC'),
  requests        UInt64,
  bytes           UInt64,
  serve_time_ms   UInt64,
  hits            UInt64,
  misses          UInt64
)
ENGINE = SummingMergeTree
PARTITION BY toYYYYMM(hour)
ORDER BY (org_id, distribution_id, hour)
SETTINGS non_replicated_deduplication_window = 10000;

CREATE MATERIALIZED VIEW IF NOT EXISTS cdn_totals_hourly_mv TO cdn_totals_hourly AS
SELECT
  org_id,
  distribution_id,
  toStartOfHour(timestamp) AS hour,
  count() AS requests,
  sum(bytes) AS bytes,
  sum(serve_time_ms) AS serve_time_ms,
  countIf(cache_status = 'HIT') AS hits,
  countIf(cache_status = 'MISS') AS misses
FROM cdn_logs
GROUP BY org_id, distribution_id, hour;

-- Audience: the low-cardinality dimensions together (country, continent, device, browser, OS).
CREATE TABLE IF NOT EXISTS cdn_audience_hourly
(
  org_id          LowCardinality(String),
  distribution_id LowCardinality(String),
  hour            DateTime('UTC'),
  country         LowCardinality(String),
  continent       LowCardinality(String),
  device          LowCardinality(String),
  browser         LowCardinality(String),
  os              LowCardinality(String),
  requests        UInt64
)
ENGINE = SummingMergeTree
PARTITION BY toYYYYMM(hour)
ORDER BY (org_id, distribution_id, hour, country, continent, device, browser, os)
SETTINGS non_replicated_deduplication_window = 10000;

CREATE MATERIALIZED VIEW IF NOT EXISTS cdn_audience_hourly_mv TO cdn_audience_hourly AS
SELECT org_id, distribution_id, toStartOfHour(timestamp) AS hour, country, continent, device, browser, os, count() AS requests
FROM cdn_logs
GROUP BY org_id, distribution_id, hour, country, continent, device, browser, os;

CREATE TABLE IF NOT EXISTS cdn_audience_daily
(
  org_id          LowCardinality(String),
  distribution_id LowCardinality(String),
  day             Date,
  country         LowCardinality(String),
  continent       LowCardinality(String),
  device          LowCardinality(String),
  browser         LowCardinality(String),
  os              LowCardinality(String),
  requests        UInt64
)
ENGINE = SummingMergeTree
PARTITION BY toYYYYMM(day)
ORDER BY (org_id, distribution_id, country, continent, device, browser, os, day)
SETTINGS non_replicated_deduplication_window = 10000;

CREATE MATERIALIZED VIEW IF NOT EXISTS cdn_audience_daily_mv TO cdn_audience_daily AS
SELECT org_id, distribution_id, toDate(hour) AS day, country, continent, device, browser, os, sum(requests) AS requests
FROM cdn_audience_hourly
GROUP BY org_id, distribution_id, day, country, continent, device, browser, os;

-- Paths (query strings already dropped at ingest).
CREATE TABLE IF NOT EXISTS cdn_paths_hourly
(
  org_id          LowCardinality(String),
  distribution_id LowCardinality(String),
  hour            DateTime('UTC'),
  path            String,
  requests        UInt64
)
ENGINE = SummingMergeTree
PARTITION BY toYYYYMM(hour)
ORDER BY (org_id, distribution_id, hour, path)
SETTINGS non_replicated_deduplication_window = 10000;

CREATE MATERIALIZED VIEW IF NOT EXISTS cdn_paths_hourly_mv TO cdn_paths_hourly AS
SELECT org_id, distribution_id, toStartOfHour(timestamp) AS hour, path, count() AS requests
FROM cdn_logs
GROUP BY org_id, distribution_id, hour, path;

CREATE TABLE IF NOT EXISTS cdn_paths_daily
(
  org_id          LowCardinality(String),
  distribution_id LowCardinality(String),
  day             Date,
  path            String,
  requests        UInt64
)
ENGINE = SummingMergeTree
PARTITION BY toYYYYMM(day)
ORDER BY (org_id, distribution_id, path, day)
SETTINGS non_replicated_deduplication_window = 10000;

CREATE MATERIALIZED VIEW IF NOT EXISTS cdn_paths_daily_mv TO cdn_paths_daily AS
SELECT org_id, distribution_id, toDate(hour) AS day, path, sum(requests) AS requests
FROM cdn_paths_hourly
GROUP BY org_id, distribution_id, day, path;

-- Referring hosts ('' = no referer).
CREATE TABLE IF NOT EXISTS cdn_referers_hourly
(
  org_id          LowCardinality(String),
  distribution_id LowCardinality(String),
  hour            DateTime('UTC'),
  referer_host    String,
  requests        UInt64
)
ENGINE = SummingMergeTree
PARTITION BY toYYYYMM(hour)
ORDER BY (org_id, distribution_id, hour, referer_host)
SETTINGS non_replicated_deduplication_window = 10000;

CREATE MATERIALIZED VIEW IF NOT EXISTS cdn_referers_hourly_mv TO cdn_referers_hourly AS
SELECT org_id, distribution_id, toStartOfHour(timestamp) AS hour, referer_host, count() AS requests
FROM cdn_logs
GROUP BY org_id, distribution_id, hour, referer_host;

CREATE TABLE IF NOT EXISTS cdn_referers_daily
(
  org_id          LowCardinality(String),
  distribution_id LowCardinality(String),
  day             Date,
  referer_host    String,
  requests        UInt64
)
ENGINE = SummingMergeTree
PARTITION BY toYYYYMM(day)
ORDER BY (org_id, distribution_id, referer_host, day)
SETTINGS non_replicated_deduplication_window = 10000;

CREATE MATERIALIZED VIEW IF NOT EXISTS cdn_referers_daily_mv TO cdn_referers_daily AS
SELECT org_id, distribution_id, toDate(hour) AS day, referer_host, sum(requests) AS requests
FROM cdn_referers_hourly
GROUP BY org_id, distribution_id, day, referer_host;
