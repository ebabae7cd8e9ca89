-- What an organization's publishable keys may ask of images (NULL: anything the URL grammar
-- allows). Sizes: {"maxWidth"?, "maxHeight"?, "widths"?: [...]}; presets: the names a derivative
-- must go through.
ALTER TABLE organizations ADD COLUMN publishable_image_sizes jsonb;
ALTER TABLE organizations ADD COLUMN publishable_image_presets text[];

-- Changes of these settings are audited like the other delivery settings.
DROP TRIGGER organizations_audit ON organizations;
CREATE TRIGGER organizations_audit AFTER UPDATE OF name, allowed_origins, client_ips, cache_max_age, cache_stale_while_revalidate, trusted_documents, versions_kept, versions_days, audit_retention_days, limits, publishable_image_sizes, publishable_image_presets ON organizations
  FOR EACH ROW EXECUTE FUNCTION folio_audit_row('organization', 'values', 'schema_version,content_version');
