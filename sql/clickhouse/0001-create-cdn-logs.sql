-- Raw CDN access log rows, one per request, enriched at ingest. Partitioned by month so TTL
-- drops whole parts; ordered by (org, distribution, time) so every endpoint reads one range.
-- {{RAW_TTL_DAYS}} is filled in from CLICKHOUSE_RAW_TTL_DAYS (the runner re-applies a change).
-- non_replicated_deduplication_window makes insert_deduplication_token work on a plain
-- MergeTree: a retried batch (same token) is dropped instead of counted twice.
CREATE TABLE IF NOT EXISTS cdn_logs
(
  org_id          LowCardinality(String),
  distribution_id LowCardinality(String),
  timestamp       DateTime64(3, 'UTC'),
  client_ip       String,
  method          LowCardinality(String),
  host            LowCardinality(String),
  path            String,
  status          UInt16,
  bytes           UInt64,
  serve_time_ms   UInt32,
  cache_status    LowCardinality(String),
  referer         String,
  referer_host    LowCardinality(String),
  user_agent      String,
  country         LowCardinality(String),
  continent       LowCardinality(String),
  device          LowCardinality(String),
  browser         LowCardinality(String),
  os              LowCardinality(String)
)
ENGINE = MergeTree
PARTITION BY toYYYYMM(timestamp)
ORDER BY (org_id, distribution_id, timestamp)
TTL toDateTime(timestamp) + toIntervalDay({{RAW_TTL_DAYS}})
SETTINGS non_replicated_deduplication_window = 10000;
