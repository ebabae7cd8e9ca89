// The shapes of the management API's answers the Studio reads (see the OpenAPI document).

export interface Membership {
  organizationId: string;
  slug: string;
  name: string;
  role: string;
}

export interface ModelRules {
  read: boolean;
  create: boolean;
  update: boolean;
  publish: boolean;
  delete: boolean;
  ownEntriesOnly: boolean;
  hiddenFields: string[];
  readOnlyFields: string[];
}

export interface Me {
  id: string;
  email: string;
  name: string | null;
  organization: { id: string; slug: string };
  role: string;
  rules: { models: Record<string, ModelRules>; settings: string[]; locales: string[] | null };
  memberships: Membership[];
}

export type FieldType = 'text' | 'number' | 'datetime' | 'boolean' | 'json' | 'location' | 'reference' | 'media' | 'richtext' | 'richcontent' | 'author' | 'tag' | 'section' | 'url' | 'component';

export interface Field {
  alias: string;
  name?: string;
  type: FieldType;
  valueType: 'single' | 'list';
  numberFormat?: 'int' | 'decimal';
  allowedModels: string[];
  required: boolean;
  localized?: boolean;
  /** Rules every value keeps, each `{<rule>: …}` (see the content-model validations). */
  validations?: Record<string, unknown>[];
  /** Component fields: the components a value may be. */
  components?: string[];
}

export interface Model {
  alias: string;
  name: string;
  titleField: string | null;
  fields: Field[];
  /** The URL template a preview link opens; null or absent when the model has none. */
  previewUrl?: string | null;
}

/** A component: a typed group of fields, declared once per organization and used by component fields. */
export interface Component {
  alias: string;
  name: string;
  fields: Field[];
}

export const ENTRY_STATUSES = ['DRAFT', 'PUBLISHED', 'EDITED', 'UNPUBLISHED', 'SCHEDULED', 'ARCHIVED'] as const;

export interface Entry {
  id: string;
  model: string;
  siteId: string;
  status: string;
  versionId: string;
  publishedVersionId: string | null;
  title: string | null;
  slug: string | null;
  fields: Record<string, unknown>;
  labels?: string[];
  /** Values of localized fields in the other locales: {code: {alias: value}}. */
  locales?: Record<string, Record<string, unknown>>;
  updatedAt: string;
  publishedAt: string | null;
  scheduledAt: string | null;
  unpublishAt?: string | null;
}

export interface EntryVersion {
  versionId: string;
  savedAt: string;
  current: boolean;
  status: string;
  title: string | null;
  savedBy: { type: string; name: string | null } | null;
}

/** One row of `GET /entries/:id/versions/:a/diff/:b`: a field's (or property's) change in one locale. */
export interface VersionChange {
  /** `fields.<alias>`, `locales.<code>.<alias>` or a property's name. */
  path: string;
  field: string | null;
  locale: string | null;
  change: 'added' | 'removed' | 'changed';
  before?: unknown;
  after?: unknown;
}

export interface Site {
  id: string;
  name: string;
}

/** The rules of `alias` in the member's role (the `*` rules when the model is not named). */
export function rulesOf(me: Me, alias: string): ModelRules | undefined {
  return me.rules.models[alias] ?? me.rules.models['*'];
}

export interface Locale {
  code: string;
  name: string;
  default: boolean;
  fallback: string | null;
}

/** The value shown when `code` has none: along its fallback chain, then the default locale's. */
export function fallbackValue(locales: Locale[], code: string, alias: string, valueIn: (code: string | null, alias: string) => unknown): unknown {
  const byCode = new Map(locales.map((l) => [l.code, l]));
  const seen = new Set<string>([code]);
  for (let at = byCode.get(code)?.fallback; at && !seen.has(at) && !byCode.get(at)?.default; at = byCode.get(at)?.fallback) {
    seen.add(at);
    const v = valueIn(at, alias);
    if (v !== undefined && v !== null) return v;
  }
  return valueIn(null, alias);
}
