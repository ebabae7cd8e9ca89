-- Asset side: where an extracted video poster lives, and a listing index.
ALTER TABLE assets ADD COLUMN poster_key text;
CREATE INDEX assets_org_created ON assets (org_id, created_at DESC, id) WHERE deleted_at IS NULL;
