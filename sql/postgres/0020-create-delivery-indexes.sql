-- Read paths of the GraphQL delivery API not covered by 0002.
-- Generic entryCollection for preview tokens: org + default order over current versions.
CREATE INDEX IF NOT EXISTS entries_preview_published ON entries (org_id, published_at DESC NULLS LAST, id) WHERE in_preview;
-- Case-insensitive equality on the title (`title: {eq}` / `system.title: {eq, in}`).
CREATE INDEX IF NOT EXISTS entries_delivery_title_lower ON entries (org_id, lower(title)) WHERE in_delivery;
-- `system.externalId` lookups.
CREATE INDEX IF NOT EXISTS entries_external_id ON entries (org_id, lower(external_id)) WHERE external_id IS NOT NULL;
-- Reference-list and rich-content pages read the edges of many source rows by field and kind.
CREATE INDEX IF NOT EXISTS entry_edges_source_kind ON entry_edges (row_id, field, kind, position);
