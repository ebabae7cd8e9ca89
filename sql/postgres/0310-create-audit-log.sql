-- The audit log: every change on the management plane, written in the same transaction as the
-- change (a rollback leaves no row). Append-only: Folio inserts rows and deletes them only when
-- they are older than the organization's retention (audit_retention_days); updates are refused.
CREATE TABLE audit_log (
  id             bigint GENERATED ALWAYS AS IDENTITY PRIMARY KEY,
  org_id         text NOT NULL REFERENCES organizations (id) ON DELETE CASCADE,
  at             timestamptz NOT NULL DEFAULT now(),
  -- 'member', 'token', or 'system' (the scheduler)
  actor_type     text NOT NULL,
  actor_id       text,
  actor_name     text,
  -- named like the events: entry.published, member.invited, token.created, …
  action         text NOT NULL,
  subject_type   text NOT NULL,
  subject_id     text NOT NULL,
  -- field names; before/after for settings; never a secret
  changes        jsonb,
  client_address text,
  user_agent     text,
  request_id     text
);
CREATE INDEX audit_log_org ON audit_log (org_id, id DESC);
CREATE INDEX audit_log_org_at ON audit_log (org_id, at);

ALTER TABLE organizations ADD COLUMN audit_retention_days integer NOT NULL DEFAULT 365;

CREATE OR REPLACE FUNCTION folio_audit_log_append_only() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  RAISE EXCEPTION 'the audit log is append-only';
END $$;

CREATE TRIGGER audit_log_append_only BEFORE UPDATE ON audit_log FOR EACH ROW EXECUTE FUNCTION folio_audit_log_append_only();
