-- Secrets every instance must share (HMAC keys for signed URLs and continuation tokens) when
-- none is configured: generated once by whichever instance starts first.
CREATE TABLE platform_secrets (
  name       text PRIMARY KEY,
  value      bytea NOT NULL,
  created_at timestamptz NOT NULL DEFAULT now()
);
