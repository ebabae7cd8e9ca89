-- The hourly and daily serve-time and visitor states count their requests too, in the same rows:
-- a reader that remembers a day's visitors knows from that count whether lines of the day
-- arrived since (the count changes whenever the states may have). Rows from before count 0.
--
-- Each view is created before the one it replaces is dropped, so no batch goes uncounted: one
-- that a process of the version before inserts between the two statements is in both, which
-- leaves its hour's visitors and its count as they are (same keys; the old view writes no count)
-- and weighs its serve times twice in that hour's percentiles.
ALTER TABLE cdn_stats_hourly ADD COLUMN IF NOT EXISTS requests SimpleAggregateFunction(sum, UInt64);
ALTER TABLE cdn_stats_daily ADD COLUMN IF NOT EXISTS requests SimpleAggregateFunction(sum, UInt64);

CREATE MATERIALIZED VIEW IF NOT EXISTS cdn_stats_hourly_counted_mv TO cdn_stats_hourly AS
SELECT org_id, distribution_id, toStartOfHour(timestamp) AS hour, is_bot,
  quantilesTimingState(0.5, 0.95, 0.99)(serve_time_ms) AS serve_time, uniqStateIf(visitor, visitor != 0) AS visitors, count() AS requests
FROM cdn_logs
GROUP BY org_id, distribution_id, hour, is_bot;

DROP VIEW IF EXISTS cdn_stats_hourly_mv;

CREATE MATERIALIZED VIEW IF NOT EXISTS cdn_stats_daily_counted_mv TO cdn_stats_daily AS
SELECT org_id, distribution_id, toDate(hour) AS day, is_bot,
  -- qualified: the aliases are the merged states and the sum
  quantilesTimingMergeState(0.5, 0.95, 0.99)(cdn_stats_hourly.serve_time) AS serve_time, uniqMergeState(cdn_stats_hourly.visitors) AS visitors,
  sum(cdn_stats_hourly.requests) AS requests
FROM cdn_stats_hourly
GROUP BY org_id, distribution_id, day, is_bot;

DROP VIEW IF EXISTS cdn_stats_daily_mv;
