-- A batch whose rows ClickHouse refuses as data (not a connection fault) even on its own is
-- dead-lettered: kept with its error for the organization to see, never retried, so it cannot
-- hold other batches back. Grouped inserts that fail that way are split into one group per batch.
ALTER TABLE ingest_batches DROP CONSTRAINT ingest_batches_state_check;
ALTER TABLE ingest_batches ADD CONSTRAINT ingest_batches_state_check CHECK (state IN ('pending', 'done', 'dead'));
CREATE INDEX ingest_batches_dead ON ingest_batches (org_id, created_at) WHERE state = 'dead';
