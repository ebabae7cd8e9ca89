-- Traffic per entry: log lines whose path a site's URL pattern resolved to an entry at ingest
-- (entry_id; '' for every other line, and for rows ingested before this migration).
ALTER TABLE cdn_logs ADD COLUMN IF NOT EXISTS entry_id String;

CREATE TABLE IF NOT EXISTS cdn_entries_hourly
(
  org_id          LowCardinality(String),
  distribution_id LowCardinality(String),
  hour            DateTime('UTC'),
  is_bot          UInt8,
  entry_id        String,
  requests        SimpleAggregateFunction(sum, UInt64),
  bytes           SimpleAggregateFunction(sum, UInt64),
  visitors        AggregateFunction(uniq, UInt64)
)
ENGINE = AggregatingMergeTree
PARTITION BY toYYYYMM(hour)
ORDER BY (org_id, distribution_id, hour, is_bot, entry_id)
SETTINGS non_replicated_deduplication_window = 10000;

CREATE MATERIALIZED VIEW IF NOT EXISTS cdn_entries_hourly_mv TO cdn_entries_hourly AS
SELECT org_id, distribution_id, toStartOfHour(timestamp) AS hour, is_bot, entry_id,
  count() AS requests, sum(bytes) AS bytes, uniqStateIf(visitor, visitor != 0) AS visitors
FROM cdn_logs WHERE entry_id != ''
GROUP BY org_id, distribution_id, hour, is_bot, entry_id;

CREATE TABLE IF NOT EXISTS cdn_entries_daily
(
  org_id          LowCardinality(String),
  distribution_id LowCardinality(String),
  day             Date,
  is_bot          UInt8,
  entry_id        String,
  requests        SimpleAggregateFunction(sum, UInt64),
  bytes           SimpleAggregateFunction(sum, UInt64),
  visitors        AggregateFunction(uniq, UInt64)
)
ENGINE = AggregatingMergeTree
PARTITION BY toYYYYMM(day)
ORDER BY (org_id, distribution_id, is_bot, entry_id, day)
SETTINGS non_replicated_deduplication_window = 10000;

CREATE MATERIALIZED VIEW IF NOT EXISTS cdn_entries_daily_mv TO cdn_entries_daily AS
SELECT org_id, distribution_id, toDate(hour) AS day, is_bot, entry_id,
  -- qualified: the aliases are the merged values
  sum(cdn_entries_hourly.requests) AS requests, sum(cdn_entries_hourly.bytes) AS bytes, uniqMergeState(cdn_entries_hourly.visitors) AS visitors
FROM cdn_entries_hourly
GROUP BY org_id, distribution_id, day, is_bot, entry_id;
