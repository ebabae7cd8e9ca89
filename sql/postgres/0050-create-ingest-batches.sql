-- The durable spool of pushed CDN log batches. A batch is answered 2xx only once its
-- rows are in the blob store and this row exists; a worker inserts it into ClickHouse and marks
-- it done. (org_id, dedup_token) makes a resent identical batch a no-op.
CREATE TABLE ingest_batches (
  org_id          text NOT NULL REFERENCES organizations (id) ON DELETE CASCADE,
  id              text NOT NULL,
  distribution_id text NOT NULL,
  dedup_token     text NOT NULL,
  blob_key        text NOT NULL,
  accepted        integer NOT NULL,
  rejected        integer NOT NULL,
  state           text NOT NULL DEFAULT 'pending' CHECK (state IN ('pending', 'done')),
  attempts        integer NOT NULL DEFAULT 0,
  last_error      text,
  next_attempt_at timestamptz NOT NULL DEFAULT now(),
  created_at      timestamptz NOT NULL DEFAULT now(),
  done_at         timestamptz,
  PRIMARY KEY (org_id, id),
  UNIQUE (org_id, dedup_token)
);
-- the drainer's and the backpressure check's scan: pending batches only
CREATE INDEX ingest_batches_pending ON ingest_batches (next_attempt_at) WHERE state = 'pending';
