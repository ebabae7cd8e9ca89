-- When a published entry is to be withdrawn (scheduled unpublish), on its preview row: the
-- scheduler job that publishes scheduled entries unpublishes these once the time comes.
ALTER TABLE entries ADD COLUMN unpublish_at timestamptz;
CREATE INDEX entries_unpublish_due ON entries (unpublish_at) WHERE unpublish_at IS NOT NULL AND in_preview;
