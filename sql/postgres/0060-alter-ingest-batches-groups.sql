-- Pending batches go into ClickHouse together (one insert of many batches costs about half as
-- much per row as one insert each). A worker records the group before inserting it, so a retry
-- after a crash or a failed insert sends exactly the same rows under the same dedup token.
ALTER TABLE ingest_batches ADD COLUMN group_id text;
CREATE INDEX ingest_batches_group ON ingest_batches (group_id) WHERE group_id IS NOT NULL;
