-- The organization's default watermark: {"assetId", "gravity"?, "opacity"?, "scale"?, "offsetX"?,
-- "offsetY"?}, an image asset of the organization drawn over every derivative whose
-- transformation and preset name no overlay of their own (NULL: none).
ALTER TABLE organizations ADD COLUMN image_watermark jsonb;

-- Changes are audited like the other delivery settings.
DROP TRIGGER organizations_audit ON organizations;
CREATE TRIGGER organizations_audit AFTER UPDATE OF name, allowed_origins, client_ips, cache_max_age, cache_stale_while_revalidate, trusted_documents, versions_kept, versions_days, audit_retention_days, limits, publishable_image_sizes, publishable_image_presets, image_watermark ON organizations
  FOR EACH ROW EXECUTE FUNCTION folio_audit_row('organization', 'values', 'schema_version,content_version');
