-- Video output groups of a project. Codes (type, segment control,
-- categories, DRM choices, presets) are catalog ids from shared/output-groups/catalog.ts; the
-- catalog is code, so they are checked on write rather than by foreign keys.
CREATE TABLE output_groups (
  org_id             text NOT NULL,
  project_id         uuid NOT NULL,
  -- int32, as the API's path parameter; one sequence for all tenants, so ids never repeat
  id                 integer GENERATED ALWAYS AS IDENTITY,
  name               text NOT NULL,
  custom_name        text NOT NULL DEFAULT '',
  description        text NOT NULL DEFAULT '',
  type               integer NOT NULL,
  segment_control    integer NOT NULL,
  segment_length     integer NOT NULL,
  min_segment_length integer NOT NULL,
  categories         integer[] NOT NULL DEFAULT '{}',
  has_drm            boolean NOT NULL DEFAULT false,
  -- {providers, widevineAlgorithm, rawKeyLabels, shakaPackagerKeyProviderType,
  --  protectionSchemaType, encryptionAlgorithmType, label, clearLead}; NULL without DRM
  drm                jsonb,
  -- ordered [{name, nameModifier, presetId}]
  outputs            jsonb NOT NULL DEFAULT '[]',
  created_at         timestamptz NOT NULL DEFAULT now(),
  updated_at         timestamptz NOT NULL DEFAULT now(),
  PRIMARY KEY (org_id, project_id, id),
  FOREIGN KEY (org_id, project_id) REFERENCES projects (org_id, id) ON DELETE CASCADE,
  CHECK (has_drm = (drm IS NOT NULL))
);
