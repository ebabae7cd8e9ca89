CREATE EXTENSION IF NOT EXISTS pg_trgm;

-- A model defines one GraphQL type. `fields` is the ordered list of field definitions
-- ({alias, type, valueType, numberFormat, allowedModels, required}).
CREATE TABLE models (
  org_id      text NOT NULL REFERENCES organizations (id) ON DELETE CASCADE,
  id          text NOT NULL,
  alias       text NOT NULL,
  name        text NOT NULL,
  title_field text,
  fields      jsonb NOT NULL DEFAULT '[]',
  created_at  timestamptz NOT NULL DEFAULT now(),
  updated_at  timestamptz NOT NULL DEFAULT now(),
  PRIMARY KEY (org_id, alias),
  UNIQUE (org_id, id)
);

-- One row per visible version of an entry. `in_preview` marks the current version (what preview
-- tokens read); `in_delivery` marks the last published version while the entry is live (what
-- delivery tokens read). A published, unchanged entry is ONE row with both flags; editing it
-- splits off a second row (status EDITED, in_preview only) until it is published again.
CREATE TABLE entries (
  row_id             bigint GENERATED ALWAYS AS IDENTITY PRIMARY KEY,
  org_id             text NOT NULL REFERENCES organizations (id) ON DELETE CASCADE,
  id                 text NOT NULL,
  in_preview         boolean NOT NULL,
  in_delivery        boolean NOT NULL,
  model_alias        text NOT NULL,
  model_id           text NOT NULL,
  site_id            text NOT NULL,
  status             text NOT NULL,
  title              text,
  slug               text,
  external_id        text,
  cloned_from        text,
  version_id         text NOT NULL,
  labels             text[] NOT NULL DEFAULT '{}',
  attrs              jsonb,
  fields             jsonb NOT NULL DEFAULT '{}',
  metrics            jsonb,
  published_at       timestamptz,
  first_published_at timestamptz,
  unpublished_at     timestamptz,
  scheduled_at       timestamptz,
  created_at         timestamptz NOT NULL DEFAULT now(),
  updated_at         timestamptz NOT NULL DEFAULT now(),
  CHECK (in_preview OR in_delivery)
);
CREATE UNIQUE INDEX entries_preview_id ON entries (org_id, id) WHERE in_preview;
CREATE UNIQUE INDEX entries_delivery_id ON entries (org_id, id) WHERE in_delivery;
CREATE INDEX entries_delivery_model_published ON entries (org_id, model_alias, published_at DESC NULLS LAST, id) WHERE in_delivery;
CREATE INDEX entries_preview_model_published ON entries (org_id, model_alias, published_at DESC NULLS LAST, id) WHERE in_preview;
CREATE INDEX entries_delivery_published ON entries (org_id, published_at DESC NULLS LAST, id) WHERE in_delivery;
CREATE INDEX entries_title_trgm ON entries USING gin (title gin_trgm_ops);
CREATE INDEX entries_slug ON entries (org_id, lower(slug));
CREATE INDEX entries_scheduled ON entries (scheduled_at) WHERE status = 'SCHEDULED' AND in_preview;

-- Edges of one entry version to what it points at: filters and reverse relations read them.
-- kind: reference | media | section | author | rich_entry | rich_media
CREATE TABLE entry_edges (
  row_id    bigint NOT NULL REFERENCES entries (row_id) ON DELETE CASCADE,
  org_id    text NOT NULL,
  source_id text NOT NULL,
  field     text NOT NULL,
  kind      text NOT NULL,
  target_id text NOT NULL,
  position  integer NOT NULL
);
CREATE INDEX entry_edges_source ON entry_edges (row_id, field, position);
CREATE INDEX entry_edges_target ON entry_edges (org_id, kind, target_id, row_id);

CREATE TABLE sections (
  org_id      text NOT NULL REFERENCES organizations (id) ON DELETE CASCADE,
  id          text NOT NULL,
  parent_id   text,
  title       text,
  slug        text,
  url         text,
  site_id     text,
  external_id text,
  description text,
  created_at  timestamptz NOT NULL DEFAULT now(),
  updated_at  timestamptz NOT NULL DEFAULT now(),
  PRIMARY KEY (org_id, id)
);
CREATE INDEX sections_parent ON sections (org_id, parent_id);

CREATE TABLE authors (
  org_id      text NOT NULL REFERENCES organizations (id) ON DELETE CASCADE,
  id          text NOT NULL,
  user_id     text,
  byline      text,
  external_id text,
  first_name  text,
  last_name   text,
  url         text,
  image_id    text,
  biography   text,
  profession  text[] NOT NULL DEFAULT '{}',
  email       text,
  website     text,
  facebook    text,
  instagram   text,
  twitter     text,
  linkedin    text,
  tiktok      text,
  telegram    text,
  created_at  timestamptz NOT NULL DEFAULT now(),
  updated_at  timestamptz NOT NULL DEFAULT now(),
  PRIMARY KEY (org_id, id)
);

CREATE TABLE labels (
  org_id      text NOT NULL REFERENCES organizations (id) ON DELETE CASCADE,
  id          text NOT NULL,
  name        text NOT NULL,
  description text,
  color       text,
  site_id     text,
  external_id text,
  created_at  timestamptz NOT NULL DEFAULT now(),
  PRIMARY KEY (org_id, id)
);
CREATE INDEX labels_name ON labels (org_id, lower(name));

-- type: IMAGE | FILE | VIDEO | VIDEO_PLAYLIST | AUDIO | PODCAST. Originals live in the blob
-- store under originals/{org}/{id}/{version_id}.
CREATE TABLE assets (
  org_id          text NOT NULL REFERENCES organizations (id) ON DELETE CASCADE,
  id              text NOT NULL,
  version_id      text NOT NULL,
  type            text NOT NULL,
  title           text,
  content_type    text NOT NULL,
  file_name       text,
  path            text,
  caption         text,
  alt             text,
  author          text,
  source          text,
  size            bigint NOT NULL DEFAULT 0,
  tags            text[] NOT NULL DEFAULT '{}',
  external_id     text,
  width           integer,
  height          integer,
  duration        double precision,
  focal_point     jsonb,
  focal_points    jsonb NOT NULL DEFAULT '[]',
  poster_asset_id text,
  deleted_at      timestamptz,
  created_at      timestamptz NOT NULL DEFAULT now(),
  updated_at      timestamptz NOT NULL DEFAULT now(),
  PRIMARY KEY (org_id, id)
);

CREATE TABLE section_media (
  org_id     text NOT NULL,
  section_id text NOT NULL,
  position   integer NOT NULL,
  asset_id   text NOT NULL,
  PRIMARY KEY (org_id, section_id, position),
  FOREIGN KEY (org_id, section_id) REFERENCES sections (org_id, id) ON DELETE CASCADE
);

CREATE TABLE lists (
  org_id      text NOT NULL REFERENCES organizations (id) ON DELETE CASCADE,
  id          text NOT NULL,
  name        text NOT NULL,
  description text,
  site_id     text,
  external_id text,
  created_at  timestamptz NOT NULL DEFAULT now(),
  updated_at  timestamptz NOT NULL DEFAULT now(),
  PRIMARY KEY (org_id, id)
);

CREATE TABLE list_entries (
  org_id   text NOT NULL,
  list_id  text NOT NULL,
  position integer NOT NULL,
  entry_id text NOT NULL,
  start_at timestamptz,
  end_at   timestamptz,
  PRIMARY KEY (org_id, list_id, position),
  FOREIGN KEY (org_id, list_id) REFERENCES lists (org_id, id) ON DELETE CASCADE,
  CHECK (end_at IS NULL OR start_at IS NULL OR end_at > start_at)
);

CREATE TABLE image_presets (
  org_id     text NOT NULL REFERENCES organizations (id) ON DELETE CASCADE,
  name       text NOT NULL,
  options    jsonb NOT NULL,
  updated_at timestamptz NOT NULL DEFAULT now(),
  PRIMARY KEY (org_id, name)
);
