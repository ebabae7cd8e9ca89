-- A second factor per person (TOTP, RFC 6238): the secret is stored like the other secrets a
-- person or tenant gives Folio (in its row, never answered after enrollment). While enrollment
-- waits for its first code the secret is pending; `totp_last_step` is the last time step accepted,
-- so a code is never accepted twice.
ALTER TABLE people ADD COLUMN totp_secret text;
ALTER TABLE people ADD COLUMN totp_pending_secret text;
ALTER TABLE people ADD COLUMN totp_last_step bigint;

-- One-time recovery codes, stored as SHA-256 like every other token.
CREATE TABLE recovery_codes (
  person_id  text NOT NULL REFERENCES people (id) ON DELETE CASCADE,
  hash       bytea NOT NULL,
  created_at timestamptz NOT NULL DEFAULT now(),
  used_at    timestamptz,
  PRIMARY KEY (person_id, hash)
);
