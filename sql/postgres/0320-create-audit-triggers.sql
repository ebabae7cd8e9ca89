-- Audit rows for changes of settings tables, written by triggers in the statement's transaction
-- (so a rollback leaves none): tokens, webhooks and purge targets, locales, sites, and the
-- organization's settings. Content, models and assets are audited with their events (see
-- record-events.ts); members, invitations and roles by their service. The actor, client address,
-- user agent and request id are the transaction's `folio.*` settings (none: the system).
--
-- TG_ARGV: [0] the subject type, [1] 'values' to record before/after (settings only, never a
-- secret) or 'names' to record the changed column names only, [2] columns never mentioned.
CREATE FUNCTION folio_audit_row() RETURNS trigger LANGUAGE plpgsql AS $$
DECLARE
  kind text := TG_ARGV[0];
  ignored text[] := string_to_array(TG_ARGV[2], ',');
  o jsonb := CASE WHEN TG_OP = 'INSERT' THEN '{}'::jsonb ELSE to_jsonb(OLD) END;
  n jsonb := CASE WHEN TG_OP = 'DELETE' THEN '{}'::jsonb ELSE to_jsonb(NEW) END;
  org text := COALESCE(n ->> 'org_id', o ->> 'org_id', n ->> 'id', o ->> 'id');
  changed text[];
  changes jsonb;
  action text;
BEGIN
  SELECT array_agg(k ORDER BY k) INTO changed
  FROM (SELECT jsonb_object_keys(n) AS k UNION SELECT jsonb_object_keys(o)) ks
  WHERE COALESCE(n -> k, 'null') IS DISTINCT FROM COALESCE(o -> k, 'null') AND k <> ALL (ignored || ARRAY['org_id', 'created_at', 'updated_at']);
  IF changed IS NULL THEN RETURN NULL; END IF;
  -- an organization being deleted takes its rows along: nothing to record for it
  IF NOT EXISTS (SELECT 1 FROM organizations WHERE id = org) THEN RETURN NULL; END IF;
  action := kind || CASE TG_OP WHEN 'INSERT' THEN '.created' WHEN 'DELETE' THEN '.deleted' ELSE '.changed' END;
  IF kind = 'token' AND TG_OP = 'UPDATE' AND (o ->> 'revoked_at') IS NULL AND (n ->> 'revoked_at') IS NOT NULL THEN action := 'token.revoked'; END IF;
  IF kind = 'webhook' AND COALESCE(n ->> 'kind', o ->> 'kind') = 'purge' THEN kind := 'purge_target'; action := replace(action, 'webhook.', 'purge_target.'); END IF;
  IF TG_ARGV[1] = 'values' THEN
    SELECT jsonb_object_agg(k, jsonb_build_object('before', o -> k, 'after', n -> k)) INTO changes FROM unnest(changed) AS k;
  ELSE
    changes := jsonb_build_object('fields', to_jsonb(changed));
  END IF;
  INSERT INTO audit_log (org_id, actor_type, actor_id, actor_name, client_address, user_agent, request_id, action, subject_type, subject_id, changes)
  VALUES (
    org,
    COALESCE(NULLIF(current_setting('folio.actor_type', true), ''), 'system'),
    NULLIF(current_setting('folio.actor', true), ''),
    COALESCE(NULLIF(current_setting('folio.actor_name', true), ''), (SELECT t.name FROM tokens t WHERE t.id = NULLIF(current_setting('folio.actor', true), ''))),
    NULLIF(current_setting('folio.client_address', true), ''),
    NULLIF(current_setting('folio.user_agent', true), ''),
    NULLIF(current_setting('folio.request_id', true), ''),
    action, kind, COALESCE(n ->> 'id', o ->> 'id', n ->> 'code', o ->> 'code'), changes);
  RETURN NULL;
END $$;

CREATE TRIGGER tokens_audit AFTER INSERT OR UPDATE OF name, scopes, revoked_at ON tokens
  FOR EACH ROW EXECUTE FUNCTION folio_audit_row('token', 'names', 'hash,last_used_at');
CREATE TRIGGER webhooks_audit AFTER INSERT OR DELETE OR UPDATE OF url, events, models, description, enabled, purge, secret ON webhooks
  FOR EACH ROW EXECUTE FUNCTION folio_audit_row('webhook', 'names', 'failed_in_a_row,previous_secret_until,disabled_reason');
CREATE TRIGGER locales_audit AFTER INSERT OR DELETE OR UPDATE ON locales
  FOR EACH ROW EXECUTE FUNCTION folio_audit_row('locale', 'values', '');
CREATE TRIGGER sites_audit AFTER INSERT OR DELETE OR UPDATE ON sites
  FOR EACH ROW EXECUTE FUNCTION folio_audit_row('site', 'values', '');
CREATE TRIGGER organizations_audit AFTER UPDATE OF name, allowed_origins, client_ips, cache_max_age, cache_stale_while_revalidate, trusted_documents, versions_kept, versions_days, audit_retention_days, limits ON organizations
  FOR EACH ROW EXECUTE FUNCTION folio_audit_row('organization', 'values', 'schema_version,content_version');

-- Who saved a version, by kind: 'member' or 'token' (NULL: the scheduler), so `savedBy` can name either.
ALTER TABLE entry_versions ADD COLUMN saved_by_type text;

CREATE OR REPLACE FUNCTION folio_keep_inserted_versions() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  INSERT INTO entry_versions (org_id, entry_id, version_id, status, model_alias, site_id, title, slug, labels, attrs, fields, locales, saved_at, saved_by, saved_by_type)
  SELECT n.org_id, n.id, n.version_id, n.status, n.model_alias, n.site_id, n.title, n.slug, n.labels, n.attrs, n.fields, n.locales, n.updated_at,
         NULLIF(current_setting('folio.actor', true), ''), NULLIF(current_setting('folio.actor_type', true), '')
  FROM new_rows n WHERE n.in_preview
  ON CONFLICT DO NOTHING;
  RETURN NULL;
END $$;

CREATE OR REPLACE FUNCTION folio_keep_updated_versions() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  INSERT INTO entry_versions (org_id, entry_id, version_id, status, model_alias, site_id, title, slug, labels, attrs, fields, locales, saved_at, saved_by, saved_by_type)
  SELECT n.org_id, n.id, n.version_id, n.status, n.model_alias, n.site_id, n.title, n.slug, n.labels, n.attrs, n.fields, n.locales, n.updated_at,
         NULLIF(current_setting('folio.actor', true), ''), NULLIF(current_setting('folio.actor_type', true), '')
  FROM new_rows n JOIN old_rows o ON o.row_id = n.row_id
  WHERE n.in_preview AND (n.version_id <> o.version_id OR NOT o.in_preview)
  ON CONFLICT DO NOTHING;
  RETURN NULL;
END $$;
