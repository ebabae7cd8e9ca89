-- Image traffic per asset and output format, from the organization's own signed derivative
-- paths /img/{sig}/{org}/{asset}/{version}/{operations}.{format} answered below 400 (a path
-- naming another organization, of another shape, or refused is not an image of this one).
CREATE TABLE IF NOT EXISTS cdn_images_hourly
(
  org_id          LowCardinality(String),
  distribution_id LowCardinality(String),
  hour            DateTime('UTC'),
  is_bot          UInt8,
  asset_id        String,
  format          LowCardinality(String),
  requests        UInt64,
  bytes           UInt64
)
ENGINE = SummingMergeTree
PARTITION BY toYYYYMM(hour)
ORDER BY (org_id, distribution_id, hour, is_bot, asset_id, format)
SETTINGS non_replicated_deduplication_window = 10000;

CREATE MATERIALIZED VIEW IF NOT EXISTS cdn_images_hourly_mv TO cdn_images_hourly AS
SELECT org_id, distribution_id, toStartOfHour(timestamp) AS hour, is_bot,
  splitByChar('/', path)[5] AS asset_id, lower(splitByChar('.', splitByChar('/', path)[7])[-1]) AS format,
  count() AS requests, sum(bytes) AS bytes
FROM cdn_logs
WHERE status < 400 AND startsWith(path, '/img/') AND length(splitByChar('/', path)) = 7 AND splitByChar('/', path)[4] = org_id
GROUP BY org_id, distribution_id, hour, is_bot, asset_id, format;

CREATE TABLE IF NOT EXISTS cdn_images_daily
(
  org_id          LowCardinality(String),
  distribution_id LowCardinality(String),
  day             Date,
  is_bot          UInt8,
  asset_id        String,
  format          LowCardinality(String),
  requests        UInt64,
  bytes           UInt64
)
ENGINE = SummingMergeTree
PARTITION BY toYYYYMM(day)
ORDER BY (org_id, distribution_id, is_bot, asset_id, format, day)
SETTINGS non_replicated_deduplication_window = 10000;

CREATE MATERIALIZED VIEW IF NOT EXISTS cdn_images_daily_mv TO cdn_images_daily AS
SELECT org_id, distribution_id, toDate(hour) AS day, is_bot, asset_id, format, sum(requests) AS requests, sum(bytes) AS bytes
FROM cdn_images_hourly
GROUP BY org_id, distribution_id, day, is_bot, asset_id, format;
