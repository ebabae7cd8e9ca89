-- Every bump of an organization's content version is announced at COMMIT on the channel
-- `folio_content_versions` as '<org id>:<version>', whichever process or statement wrote it. The
-- API processes listen and keep the versions in memory, so the response cache does not read
-- the version from this table on every request (a process that loses its listener reads it again).
CREATE FUNCTION folio_notify_content_version() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  PERFORM pg_notify('folio_content_versions', NEW.id || ':' || NEW.content_version);
  RETURN NULL;
END $$;

CREATE TRIGGER organizations_content_version_notify
  AFTER UPDATE OF content_version ON organizations
  FOR EACH ROW WHEN (NEW.content_version IS DISTINCT FROM OLD.content_version)
  EXECUTE FUNCTION folio_notify_content_version();
