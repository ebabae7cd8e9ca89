-- One row per `POST /management/v1/import`: what it has applied so far and how it ended, so that
-- an import whose client went away (or whose body was refused part-way) is still reported by the
-- next `GET /management/v1/import`. 'running' rows are updated as batches are written; a row left
-- 'running' with an old updated_at is an import whose process ended under it.
CREATE TABLE import_runs (
  org_id      text NOT NULL REFERENCES organizations (id) ON DELETE CASCADE,
  id          text NOT NULL,
  state       text NOT NULL CHECK (state IN ('running', 'completed', 'stopped')),
  reason      text,
  lines       integer NOT NULL DEFAULT 0,
  succeeded   integer NOT NULL DEFAULT 0,
  failed      integer NOT NULL DEFAULT 0,
  started_at  timestamptz NOT NULL DEFAULT now(),
  updated_at  timestamptz NOT NULL DEFAULT now(),
  finished_at timestamptz,
  PRIMARY KEY (org_id, id)
);
CREATE INDEX import_runs_latest ON import_runs (org_id, started_at DESC);
