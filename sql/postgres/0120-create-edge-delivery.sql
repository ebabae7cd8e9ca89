-- Edge delivery: what a CDN in front of Folio needs.

-- A publishable key (folio_pk_…) is a delivery token safe to put in a web page and a URL: it
-- reads published content only, and may travel in the query string of GET /graphql.
ALTER TABLE tokens ADD COLUMN publishable boolean NOT NULL DEFAULT false;

-- How long shared caches and browsers may keep a delivery response (Cache-Control max-age and
-- stale-while-revalidate, in seconds), and whether delivery runs only registered documents.
ALTER TABLE organizations
  ADD COLUMN cache_max_age integer NOT NULL DEFAULT 60,
  ADD COLUMN cache_stale_while_revalidate integer NOT NULL DEFAULT 300,
  ADD COLUMN trusted_documents boolean NOT NULL DEFAULT false;

-- GraphQL documents registered ahead of time (a build's manifest, or one at a time), by the id
-- clients send: the SHA-256 of the text (Apollo's persisted queries, GraphQL Code Generator) or
-- the manifest's own id (Relay). In trusted-documents mode delivery runs only these.
CREATE TABLE persisted_documents (
  org_id     text NOT NULL REFERENCES organizations (id) ON DELETE CASCADE,
  id         text NOT NULL,
  sha256     text NOT NULL,
  document   text NOT NULL,
  name       text,
  created_at timestamptz NOT NULL DEFAULT now(),
  PRIMARY KEY (org_id, id)
);
CREATE INDEX persisted_documents_sha256 ON persisted_documents (org_id, sha256);

-- A purge target is a subscription of the webhook machinery whose deliveries purge a CDN
-- (queue, retries, backoff, the delivery log are the webhooks'): `purge` holds the provider and
-- its settings; `url` the generic target's URL template, or the provider's API base.
ALTER TABLE webhooks
  ADD COLUMN kind text NOT NULL DEFAULT 'webhook' CHECK (kind IN ('webhook', 'purge')),
  ADD COLUMN purge jsonb;

-- The URLs a generic purge target must purge, by surrogate key: a plain HTTP cache (nginx's
-- cache purge) forgets one URL at a time and knows nothing of keys. Recorded as cacheable
-- delivery responses go out; rows not served for 400 days (longer than the year an image or
-- file may be cached) are dropped.
CREATE TABLE edge_urls (
  org_id      text NOT NULL REFERENCES organizations (id) ON DELETE CASCADE,
  url         text NOT NULL,
  keys        text[] NOT NULL,
  recorded_at timestamptz NOT NULL DEFAULT now(),
  PRIMARY KEY (org_id, url)
);
CREATE INDEX edge_urls_keys ON edge_urls USING gin (keys);
CREATE INDEX edge_urls_recorded ON edge_urls (recorded_at);
